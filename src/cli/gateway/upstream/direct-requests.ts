/**
 * The gateway's requests to a stdio server sent and answered on the connection itself, beside the SDK client that
 * initialised it: the client's own messages (its pings, the server's requests and notifications, the answers to what
 * the client asked) still reach it, and only the answers to these requests are taken before it sees them. A request
 * here is what `Protocol.request` of the SDK 1.x makes of one without progress: the same timeout
 * (`RequestTimeout`, "Request timed out", then `notifications/cancelled`), the same cancellation by signal, the same
 * errors when the server answers with one (`McpError.fromError`) or the connection closes (`ConnectionClosed`), the
 * result as sent. What it leaves out is the SDK's work per message — its message schemas tried on every line, its
 * handler maps, a promise per hop — which is most of what the gateway spends on a small call besides the pipes.
 */

import { isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import type { JSONRPCMessage, Sdk, Transport } from "../sdk.js";
import { interpose } from "../transport/interpose.js";

/**
 * The first id of these requests: far above the SDK client's own (0, 1, 2, … for its initialize, listings and pings,
 * which would need a billion requests to reach it), and an integer every server reads (some take ids as 32-bit).
 */
const FIRST_ID = 2 ** 30;

interface Waiting {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly timer: ReturnType<typeof setTimeout>;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

export class DirectRequests {
  private nextId = FIRST_ID;
  private readonly waiting = new Map<number, Waiting>();

  /** Installs itself between `transport` and the SDK client already connected over it. */
  constructor(
    private readonly transport: Transport,
    private readonly sdk: Sdk,
  ) {
    interpose(
      transport,
      (message) => this.answered(message),
      () => this.closed(),
    );
  }

  /** Requests in flight. */
  get size(): number {
    return this.waiting.size;
  }

  /** Sends `method` with `params`; resolves with the server's result as sent. */
  request(method: string, params: Record<string, unknown> | undefined, timeout: number, signal?: AbortSignal) {
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const id = this.nextId++;
      const { McpError, types } = this.sdk;
      const timer = setTimeout(
        () => this.cancel(id, new McpError(types.ErrorCode.RequestTimeout, "Request timed out", { timeout })),
        timeout,
      );
      const onAbort = signal === undefined ? undefined : () => this.cancel(id, signal.reason);
      if (onAbort !== undefined) signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, { resolve, reject, timer, signal, onAbort });
      const request = { jsonrpc: "2.0" as const, id, method, ...(params === undefined ? {} : { params }) };
      this.transport.send(request).catch((e: unknown) => {
        if (this.settle(id) !== undefined) reject(e);
      });
    });
  }

  /** The request is no longer waited for: its timer and its signal's listener go. */
  private settle(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return undefined;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    if (waiting.onAbort !== undefined) waiting.signal?.removeEventListener("abort", waiting.onAbort);
    return waiting;
  }

  /** Timed out or cancelled: the server is told, and the request fails with `reason` (an `McpError`, as the SDK's). */
  private cancel(id: number, reason: unknown): void {
    const waiting = this.settle(id);
    if (waiting === undefined) return;
    const cancelled = {
      jsonrpc: "2.0" as const,
      method: "notifications/cancelled",
      params: { requestId: id, reason: String(reason) },
    };
    this.transport.send(cancelled).catch(() => undefined);
    const { McpError, types } = this.sdk;
    waiting.reject(
      isInstance(reason, McpError) ? reason : new McpError(types.ErrorCode.RequestTimeout, String(reason)),
    );
  }

  /** Whether `message` answers one of these requests (then it is settled here, and the SDK client never sees it). */
  private answered(message: JSONRPCMessage): boolean {
    const answer = message as Record<string, unknown>;
    if (Object.hasOwn(answer, "method") || !Object.hasOwn(answer, "id")) return false;
    const waiting = this.settle(Number(answer["id"]));
    if (waiting === undefined) return false;
    const error = answer["error"];
    if (!isObject(error)) {
      waiting.resolve(answer["result"]);
      return true;
    }
    const { code, message: text, data } = error as { code: number; message: string; data?: unknown };
    waiting.reject(this.sdk.McpError.fromError(code, text, data));
    return true;
  }

  /** The connection closed: every request fails as the SDK's do. */
  private closed(): void {
    const { McpError, types } = this.sdk;
    const error = new McpError(types.ErrorCode.ConnectionClosed, "Connection closed");
    for (const id of [...this.waiting.keys()]) this.settle(id)?.reject(error);
  }
}
