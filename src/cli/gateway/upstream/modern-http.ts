/**
 * A Streamable HTTP server of MCP 2026-07-28 (stateless) behind the gateway. The gateway's upstream client is the SDK
 * 1.x one, which speaks a 2025-11-25 session; for a server that answers the era probe (`server/discover`, MCP
 * 2026-07-28 `basic/versioning.mdx`) this transport plays that session over stateless requests:
 *
 * - `initialize` is answered here from `server/discover` (its capabilities, its `serverInfo`), `ping` and
 *   `logging/setLevel` too (the level is stamped on later requests as `_meta` `logLevel`);
 * - every other request is one POST with the `_meta` envelope (version, the capabilities the gateway's client
 *   declared) and the mirrored headers, `Mcp-Param-*` derived from the server's own tool definitions (the gateway
 *   lists them renamed, so a client's headers cannot be passed on);
 * - an `input_required` answer becomes real requests to the gateway's client (carried to a client as any server's),
 *   their answers sent back as `inputResponses` with the `requestState` echoed, at most `MAX_ROUNDS` rounds;
 * - `notifications/cancelled` closes that request's stream (cancellation on HTTP);
 * - list changes come from a `subscriptions/listen` stream opened once the session is initialised.
 *
 * Every message the server sends is bounded by `maxMessageBytes`; its errors are passed on as they are, so its own
 * `-32020` or `-32022` stays its own.
 */

import { isObject } from "../../../engine/json/json.js";
import type { JSONRPCMessage, Transport } from "../sdk.js";
import { StatelessClient, type Id, type Message } from "./stateless-client.js";

/** Rounds of `input_required` one request may take. */
const MAX_ROUNDS = 8;
/** Result fields of 2026-07-28 a 2025 session's client is not given (the gateway's front adds its own). */
const MODERN_ONLY = ["resultType", "ttlMs", "cacheScope"];

export class ModernHttpTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Requests in flight, by the gateway's id: cancelling one closes its stream. */
  private readonly inFlight = new Map<Id, AbortController>();
  /** Requests sent to the gateway's client for an `input_required` answer, by id. */
  private readonly asked = new Map<Id, (message: Message) => void>();
  private asks = 0;
  private readonly closing = new AbortController();
  private readonly client: StatelessClient;

  constructor(
    private readonly url: URL,
    headers: Record<string, string>,
    maxMessageBytes: number,
  ) {
    const deliver = (message: Message) => this.deliver(message);
    this.client = new StatelessClient({ url, headers, maxMessageBytes }, this.closing.signal, deliver);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    for (const controller of this.inFlight.values()) controller.abort();
    this.onclose?.();
  }

  private deliver(message: Message): void {
    if (!this.closing.signal.aborted) this.onmessage?.(message as unknown as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as unknown as Message;
    const id = m["id"] as Id | undefined;
    const method = m["method"];
    const params = isObject(m["params"]) ? m["params"] : {};
    if (typeof method !== "string") {
      if (id !== undefined) this.asked.get(id)?.(m);
      return;
    }
    if (id === undefined) return this.notified(method, params);
    void this.answer(id, method, params).catch((e: unknown) =>
      this.deliver({
        jsonrpc: "2.0",
        id,
        error: { code: -32603, message: e instanceof Error ? e.message : String(e) },
      }),
    );
  }

  private notified(method: string, params: Record<string, unknown>): void {
    if (method === "notifications/initialized") void this.client.listen(0);
    if (method === "notifications/cancelled") {
      const id = params["requestId"];
      if (typeof id === "string" || typeof id === "number") this.inFlight.get(id)?.abort();
    }
  }

  /** One request of the gateway's client: answered here, or by the server in one or more rounds. */
  private async answer(id: Id, method: string, params: Record<string, unknown>): Promise<void> {
    const ok = (result: unknown) => this.deliver({ jsonrpc: "2.0", id, result });
    if (method === "ping") return ok({});
    if (method === "logging/setLevel") {
      this.client.logLevel = typeof params["level"] === "string" ? params["level"] : undefined;
      return ok({});
    }
    if (method === "initialize") return ok(await this.initialize(params));
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    try {
      const answer = await this.rounds(id, method, params, controller.signal);
      const result = answer["result"];
      if (isObject(result)) {
        if (method === "tools/list") this.client.learn(result);
        this.deliver({
          jsonrpc: "2.0",
          id,
          result: Object.fromEntries(Object.entries(result).filter(([k]) => !MODERN_ONLY.includes(k))),
        });
      } else this.deliver({ ...answer, jsonrpc: "2.0", id });
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** `initialize`, answered from the server's `server/discover`. */
  private async initialize(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.client.capabilities = isObject(params["capabilities"]) ? params["capabilities"] : {};
    const answer = await this.rounds(0, "server/discover", {}, this.closing.signal);
    const result = isObject(answer["result"]) ? answer["result"] : {};
    const meta = isObject(result["_meta"]) ? result["_meta"] : {};
    const info = meta["io.modelcontextprotocol/serverInfo"];
    this.client.serverCapabilities = isObject(result["capabilities"]) ? result["capabilities"] : {};
    return {
      protocolVersion: params["protocolVersion"],
      capabilities: this.client.serverCapabilities,
      serverInfo: isObject(info) ? info : { name: this.url.host, version: "" },
      ...(typeof result["instructions"] === "string" ? { instructions: result["instructions"] } : {}),
    };
  }

  /** A request and its `input_required` rounds: each round's questions asked of the gateway's client. */
  private async rounds(id: Id, method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Message> {
    let onward: Record<string, unknown> = params;
    for (let round = 0; round <= MAX_ROUNDS; round++) {
      const answer = await this.client.post(id, method, onward, signal);
      const result = answer["result"];
      if (!isObject(result) || result["resultType"] !== "input_required") return answer;
      if (round === MAX_ROUNDS) break;
      const requests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests)) {
        if (!isObject(request) || typeof request["method"] !== "string") continue;
        inputResponses[key] = await this.ask(request["method"], request["params"], signal);
      }
      const state = result["requestState"];
      onward = { ...params, inputResponses, ...(typeof state === "string" ? { requestState: state } : {}) };
    }
    return { error: { code: -32603, message: `the server asked for input more than ${MAX_ROUNDS} times` } };
  }

  /** One question of the server asked of the gateway's client: its result, or an error ending the request. */
  private ask(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const id = `backplane-input-${++this.asks}`;
    return new Promise((resolve, reject) => {
      const done = () => this.asked.delete(id);
      const cancelled = () => {
        done();
        reject(new Error("the request was cancelled"));
      };
      signal.addEventListener("abort", cancelled, { once: true });
      this.asked.set(id, (answer) => {
        done();
        const error = answer["error"];
        if (isObject(error)) reject(new Error(`the client did not answer ${method}: ${String(error["message"])}`));
        else resolve(answer["result"]);
      });
      this.deliver({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    });
  }
}
