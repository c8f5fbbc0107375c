/**
 * One MCP 2026-07-28 request as the HTTP front hands it to the routing room (its envelope read, its mirrored headers,
 * who sent it, its stream), and the answer the front writes back.
 */

import { createHash } from "node:crypto";
import type { Message } from "../sdk.js";
import type { MirroredHeaders } from "./mirrored-headers.js";
import type { ModernRequest } from "./stateless.js";

/** One 2026-07-28 request as the HTTP front hands it over. */
export interface StatelessCall {
  readonly request: ModernRequest;
  readonly headers: MirroredHeaders;
  /** Who sent it (a digest of its credentials): a parked call is answered only by its principal. */
  readonly principal: string;
  /** Aborted when the client closes the response before its answer: that is cancellation. */
  readonly closed: AbortSignal;
  /** Writes a notification on the request's stream ahead of its answer; false when the client takes no stream. */
  readonly stream: (message: Message) => boolean;
  /** A retry another replica already handed on (it is never handed on twice). */
  readonly forwarded: boolean;
}

/** The HTTP status and the JSON-RPC response the client is sent. */
export interface StatelessAnswer {
  readonly status: number;
  readonly message: Record<string, unknown>;
  /** Instead of an answer: the replica (its MCP endpoint) holding the call a retry answers. */
  readonly forward?: string;
}

/** A digest of a request's credentials: the principal a parked call is bound to. */
export function principalOf(authorization: string | undefined): string {
  return createHash("sha256")
    .update(authorization ?? "")
    .digest("base64url")
    .slice(0, 22);
}
