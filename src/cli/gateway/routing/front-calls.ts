/**
 * The stdio client's tool calls taken from its connection before the SDK's server sees them, and answered on it by
 * the same handler the server would have called: what `Protocol._onrequest` of the SDK 1.x does for a request without
 * a task (a signal aborted by the client's `notifications/cancelled` or by the connection closing, no answer once
 * aborted, an error answered with its code when it is a safe integer and else `InternalError`, its message and data),
 * without the SDK's work per message (its message schemas tried on every line, a promise per hop). Everything else the
 * client sends, a call before it has initialised, and a call with a task, goes on to the SDK's server.
 */

import { isObject } from "../../../engine/json/json.js";
import type { JSONRPCMessage, Message, RequestExtra, Transport } from "../sdk.js";
import { interpose } from "../transport/interpose.js";
import { RELATED_TASK } from "../transport/jsonrpc.js";

/** JSON-RPC's internal error, what the SDK answers for an error without a usable code. */
const INTERNAL_ERROR = -32603;

/** Whether a client's message is a tool call this path answers (a request, no task, no task's `_meta`). */
function isPlainCall(message: Record<string, unknown>): boolean {
  if (message["method"] !== "tools/call" || !Object.hasOwn(message, "id")) return false;
  const params = message["params"];
  if (!isObject(params)) return true;
  if (Object.hasOwn(params, "task")) return false;
  const meta = params["_meta"];
  return !isObject(meta) || !Object.hasOwn(meta, RELATED_TASK);
}

/** The JSON-RPC error a handler's failure is answered with, as the SDK's server writes it. */
function errorOf(e: unknown): { code: number; message: string; data?: unknown } {
  const error = (isObject(e) ? e : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof error.code === "number" && Number.isSafeInteger(error.code) ? error.code : INTERNAL_ERROR;
  const message = typeof error.message === "string" ? error.message : "Internal error";
  return { code, message, ...(error.data === undefined ? {} : { data: error.data }) };
}

export class FrontCalls {
  /** The calls running, by the client's request id: aborted when the client cancels one or goes. */
  private readonly running = new Map<unknown, AbortController>();

  /**
   * Installs itself between `transport` and the SDK server already connected over it. `answer` is the server's
   * fallback handler; `ready` says whether the client has initialised.
   */
  constructor(
    private readonly transport: Transport,
    private readonly answer: (request: Message, extra: RequestExtra) => Promise<unknown>,
    private readonly ready: () => boolean,
  ) {
    interpose(
      transport,
      (message) => this.took(message),
      () => this.closed(),
    );
  }

  /** The client's connection closed: every call running is aborted, as the SDK's server aborts its handlers. */
  private closed(): void {
    for (const controller of this.running.values()) controller.abort(new Error("the client's connection closed"));
    this.running.clear();
  }

  /** Calls running. */
  get size(): number {
    return this.running.size;
  }

  private took(received: JSONRPCMessage): boolean {
    const message = received as Record<string, unknown>;
    if (message["method"] === "notifications/cancelled") return this.cancelled(message["params"]);
    if (!this.ready() || !isPlainCall(message)) return false;
    this.call(message["id"] as string | number, message["params"]);
    return true;
  }

  /** The client cancelled a call of this path: its handler's signal aborts, and it is not answered. */
  private cancelled(params: unknown): boolean {
    const id = isObject(params) ? params["requestId"] : undefined;
    const controller = this.running.get(id);
    if (controller === undefined) return false;
    this.running.delete(id);
    controller.abort(isObject(params) ? params["reason"] : undefined);
    return true;
  }

  private call(id: string | number, params: unknown): void {
    const controller = new AbortController();
    const { signal } = controller;
    this.running.set(id, controller);
    const extra = {
      signal,
      requestId: id,
      _meta: isObject(params) ? params["_meta"] : undefined,
      sendNotification: async (notification: Message) => {
        if (!signal.aborted) await this.transport.send({ jsonrpc: "2.0", ...notification } as JSONRPCMessage);
      },
      sendRequest: () => Promise.reject(new Error("a tool call's handler asks the client through its front")),
    } as unknown as RequestExtra;
    const request = { method: "tools/call", ...(params === undefined ? {} : { params }) };
    this.answer(request, extra)
      .then(
        (result) =>
          signal.aborted ? undefined : this.transport.send({ result, jsonrpc: "2.0", id } as JSONRPCMessage),
        (e: unknown) => (signal.aborted ? undefined : this.transport.send({ jsonrpc: "2.0", id, error: errorOf(e) })),
      )
      // The SDK's server reports a response it could not send to no one the gateway listens to; neither does this.
      .catch(() => undefined)
      .finally(() => {
        if (this.running.get(id) === controller) this.running.delete(id);
      });
  }
}
