/**
 * `tools/call` through `Execution.invoke` (the catalog's): arguments checked first, the call dispatched to the server
 * the admitted tool's `backend` names, the result checked against its output schema; every refusal and failure a tool
 * error with text written for a model. The audit and its timing wrap the handler (`audited`).
 */

import { isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import type { ExecutionError } from "../../../index.js";
import { reportedAt, type Audit, type CallEntry, type CallOutcome, type Reporter } from "../audit.js";
import { hopOptions, onwardParams } from "../forward.js";
import type { GatewayCatalog } from "../policy/catalog.js";
import { WITHHELD_RESULT, type HiddenTextScreen } from "../policy/hidden-text.js";
import type { RequestExtra, Sdk } from "../sdk.js";
import { QueueFull } from "../transport/line-writer.js";
import type { RunningRequests } from "./running.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Front, Fronts } from "./fronts.js";

/** One tool call as a client made it, with the server it is for (when one is known). */
export interface ToolCall {
  readonly front: Front;
  readonly params: unknown;
  readonly extra: RequestExtra;
  /** The name the client called, as sent. */
  readonly name: unknown;
  readonly arguments: unknown;
  readonly server: string | undefined;
}

/** How a tool call ended: its outcome, the result the client gets (or the error it is sent), where and why. */
export interface CallEnd {
  readonly outcome: CallOutcome;
  readonly result?: unknown;
  readonly fields?: { stage?: string; code?: string };
  /** An error the client is sent instead of a result (a server's JSON-RPC error, as it sent it). */
  readonly thrown?: unknown;
  /** Where the result holds hidden text (`--hidden-text`), for the audit log. */
  readonly hiddenText?: CallEntry["hiddenText"];
}

/** A tool result the client is given instead of a call's value: a tool error with text written for a model. */
function toolError(text: string): { content: { type: "text"; text: string }[]; isError: true } {
  return { content: [{ type: "text", text }], isError: true };
}

/** What a call past the bound on running requests is told. */
function busy(max: number): string {
  return `The gateway is already running ${max} requests, its most at once: call again when one has ended.`;
}

/**
 * The audit log and its timing around a tool-call handler: one entry per call that ends (its server, the name
 * called, the outcome, where and why, how long it took, and the values with `--audit-values`).
 */
export function audited(audit: Audit, handler: (call: ToolCall) => Promise<CallEnd>) {
  return async (call: ToolCall): Promise<unknown> => {
    if (!audit.writing) return settled(await handler(call));
    const began = performance.now();
    const { server, name } = call;
    const values = audit.withValues ? { arguments: call.arguments } : {};
    const end = await handler(call);
    audit.call({
      ...(server === undefined ? {} : { server }),
      tool: typeof name === "string" ? name : String(name),
      outcome: end.outcome,
      ...end.fields,
      durationMs: Math.round((performance.now() - began) * 1000) / 1000,
      ...values,
      ...(audit.withValues ? { result: end.result } : {}),
      ...(end.hiddenText === undefined ? {} : { hiddenText: end.hiddenText }),
    });
    return settled(end);
  };
}

/** What the client is sent for a call that ended: the error it is thrown, or its result. */
function settled(end: CallEnd): unknown {
  if (end.thrown !== undefined) throw end.thrown;
  return end.result;
}

export class Calls {
  /** Calls not sent because a server's incoming queue was full (`QueueFull`), reported likewise. */
  private backlogged = 0;

  constructor(
    private readonly sdk: Sdk,
    private readonly catalog: GatewayCatalog,
    private readonly upstreams: () => readonly Upstream[],
    private readonly parts: {
      readonly fronts: Fronts;
      readonly callTimeoutMs: number;
      /** The clients' requests running at once (running.ts): a call past the bound is refused with a tool error. */
      readonly running: RunningRequests;
      readonly reporter: Reporter;
      /** The server that last listed a tool (every tool ever listed): a call to one whose server is down is told so. */
      readonly known: (name: string) => string | undefined;
      /** Hidden text in results (`--hidden-text`). */
      readonly screen: HiddenTextScreen;
    },
  ) {}

  /** A client's `tools/call` params as one call, its server looked up. */
  toolCall(front: Front, params: unknown, extra: RequestExtra): ToolCall {
    const call = isObject(params) ? params : {};
    const name = call["name"];
    // An admitted tool's server is its backend (what the call is dispatched by); else the one that listed it.
    const server =
      typeof name === "string"
        ? (this.catalog.backendOf(name) ?? this.catalog.serverOf(name) ?? this.parts.known(name))
        : undefined;
    return { front, params, extra, name, arguments: call["arguments"], server };
  }

  /**
   * `tools/call` through `Execution.invoke`: arguments checked first, the result against its output schema. Past
   * the bound on requests running at once, refused at once with a tool error.
   */
  async call(call: ToolCall): Promise<CallEnd> {
    const { running } = this.parts;
    if (!running.enter()) {
      const fields = { stage: "lookup", code: "requests_limit" };
      return { outcome: "refused", result: toolError(busy(running.max)), fields };
    }
    try {
      return await this.run(call);
    } finally {
      running.leave();
    }
  }

  private async run(call: ToolCall): Promise<CallEnd> {
    const { name, server, extra } = call;
    const upstream = this.upstreams().find((up) => up.name === server);
    const neverStarted =
      upstream === undefined && typeof name === "string"
        ? this.upstreams().find((up) => !up.everUp && this.catalog.names.split(name)?.server === up.name)
        : undefined;
    if (neverStarted !== undefined) {
      const text = `The tool ${JSON.stringify(name)} is not available: its server did not start.`;
      return { outcome: "failed", result: toolError(text), fields: { stage: "lookup", code: "server_unavailable" } };
    }
    if (upstream !== undefined && upstream.state !== "up") {
      const text = `The tool ${JSON.stringify(name)} is not available: its server is not running.`;
      return { outcome: "failed", result: toolError(text), fields: { stage: "lookup", code: "server_unavailable" } };
    }
    const invoked = this.catalog.invoke(
      { name: name as string, arguments: call.arguments },
      { dispatch: ({ serverName, tool }) => this.dispatch(call, serverName, tool.backend) },
    );
    const result = invoked === undefined ? undefined : await invoked;
    if (result === undefined) {
      const text = `There is no tool named ${JSON.stringify(name)}.`;
      return { outcome: "refused", result: toolError(text), fields: { stage: "lookup", code: "tool_unknown" } };
    }
    if (result.ok) return this.screened(server, name, result.value);
    const e = result.error;
    const fields = { stage: e.stage, code: e.code };
    if (e.stage === "dispatch" && extra.signal.aborted)
      return { outcome: "failed", result: undefined, fields: { stage: "dispatch", code: "cancelled" } };
    if (e.stage === "dispatch") return this.dispatchFailed(e, name);
    if (e.stage === "result") return { outcome: "withheld", result: toolError(e.modelText), fields };
    if (e.code === "tool_held") return { outcome: "held", result: toolError(e.modelText), fields };
    return { outcome: "refused", result: toolError(e.modelText), fields };
  }

  /** A result that passed the boundary, screened for hidden text: reported, or withheld as a tool error. */
  private screened(server: string | undefined, name: unknown, value: unknown): CallEnd {
    const { hidden, withheld } = this.parts.screen.screen(server ?? "", "tools/call", String(name), value);
    const places = hidden.length === 0 ? {} : { hiddenText: hidden };
    if (!withheld) return { outcome: "dispatched", result: value, ...places };
    const fields = { stage: "result", code: "hidden_text" };
    return { outcome: "withheld", result: toolError(WITHHELD_RESULT), fields, ...places };
  }

  /** The admitted call sent to its backend, as `serverName`, remembered as running there until it settles. */
  private dispatch(call: ToolCall, serverName: string, backendName: unknown): Promise<unknown> {
    const backend = this.upstreams().find((up) => up.name === backendName);
    if (backend === undefined) throw new Error(`the tool's backend ${String(backendName)} is not configured`);
    const { front, params, extra } = call;
    const onward = { ...onwardParams(params), name: serverName };
    return this.parts.fronts.track(backend.name, { front, requestId: extra.requestId }, () =>
      backend.request("tools/call", onward, hopOptions(params, extra, this.parts.callTimeoutMs)),
    );
  }

  /** A call that failed at the server: timed out, the server went down, or the server answered with an error. */
  private dispatchFailed(e: ExecutionError, name: unknown): CallEnd {
    const { McpError, types } = this.sdk;
    const thrown = e.detail;
    const quoted = JSON.stringify(name);
    if (isInstance(thrown, McpError) && thrown.code === types.ErrorCode.RequestTimeout) {
      const text = `The call to ${quoted} timed out after ${this.parts.callTimeoutMs} ms.`;
      return { outcome: "timeout", result: toolError(text), fields: { stage: "dispatch", code: "timeout" } };
    }
    if (isInstance(thrown, McpError) && thrown.code === types.ErrorCode.ConnectionClosed) {
      const text = `The tool ${quoted} is not available: its server stopped.`;
      return { outcome: "failed", result: toolError(text), fields: { stage: "dispatch", code: "server_stopped" } };
    }
    if (isInstance(thrown, QueueFull)) {
      if (reportedAt(++this.backlogged))
        this.parts.reporter.say(`${this.backlogged} tool call(s) not sent: ${thrown.message} (--max-queued-bytes)`);
      const text = `The tool ${quoted} is not available now: its server is not reading what it is sent.`;
      return { outcome: "failed", result: toolError(text), fields: { stage: "dispatch", code: "server_backlog" } };
    }
    // The server answered with a JSON-RPC error: the client gets that answer, as it would without the gateway.
    if (isInstance(thrown, McpError))
      return { outcome: "failed", thrown, fields: { stage: "dispatch", code: `jsonrpc_${thrown.code}` } };
    return { outcome: "failed", result: toolError(e.modelText), fields: { stage: "dispatch", code: e.code } };
  }
}
