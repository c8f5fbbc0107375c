/**
 * MCP 2026-07-28 on the HTTP front, the parts that need no policy (MCP 2026-07-28 `basic/index.mdx` §Request
 * metadata, `basic/transports/streamable-http.mdx` §Standard headers and §Custom parameter headers): which era a
 * posted message belongs to (by its body: a `_meta` protocol-version claim is the modern era, anything else the
 * 2025-11-25 sessions) and the per-request envelope; the mirrored headers are checked in mirrored-headers.ts, and a
 * request is handed to the routing room as stateless-call.ts says. Each check is a pure function returning the refusal
 * to send (its HTTP status and JSON-RPC error), or nothing.
 */

import { isObject } from "../../../engine/json/json.js";

/** The revision served without a session. */
const MODERN_VERSION = "2026-07-28";
/** Every version the gateway serves: the stateless one, and those a 2025 client negotiates at `initialize`. */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** The JSON-RPC error codes of 2026-07-28 (`schema.ts`: the spec-reserved band from -32020). */
export const Code = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** A refusal: the HTTP status and the JSON-RPC error it carries. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC request of the modern era. */
export interface ModernRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** Its validated envelope. */
  readonly envelope: Envelope;
}

/** A request's `_meta` envelope. */
interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly logLevel?: string;
}

/** How a posted body is served: by a 2025 session, as a modern request, or refused. */
export type Classified =
  | { readonly era: "legacy" }
  | { readonly era: "modern"; readonly request: ModernRequest }
  | { readonly era: "refused"; readonly refusal: Refusal; readonly id: string | number | null };

const LOG_LEVELS = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

export function refusal(status: number, code: number, message: string, data?: unknown): Refusal {
  return { status, code, message, ...(data === undefined ? {} : { data }) };
}

/** A mirrored header that disagrees with the body (or is missing): `400` + `-32020`. */
export function mismatch(header: string, body: string): Refusal {
  return refusal(400, Code.HeaderMismatch, `Bad Request: the request headers and body disagree: ${body}`, {
    mismatch: { header, body },
  });
}

/** The envelope of a request claiming the modern era, or the `-32602` refusal naming what is wrong with it. */
function envelopeOf(meta: Record<string, unknown>): Envelope | Refusal {
  const version = meta[META.protocolVersion];
  const capabilities = meta[META.clientCapabilities];
  const level = meta[META.logLevel];
  const info = meta[META.clientInfo];
  const wrong: string[] = [];
  if (typeof version !== "string") wrong.push(`${META.protocolVersion} (a string)`);
  if (!isObject(capabilities)) wrong.push(`${META.clientCapabilities} (an object; {} for none)`);
  if (level !== undefined && !(typeof level === "string" && LOG_LEVELS.has(level))) wrong.push(`${META.logLevel}`);
  if (info !== undefined && !isObject(info)) wrong.push(`${META.clientInfo} (an object)`);
  if (wrong.length > 0 || typeof version !== "string" || !isObject(capabilities)) {
    return refusal(400, Code.InvalidParams, `Invalid params: _meta is missing or malformed: ${wrong.join(", ")}`);
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    ...(typeof level === "string" ? { logLevel: level } : {}),
  };
}

function isRefusal(value: unknown): value is Refusal {
  return isObject(value) && typeof value["status"] === "number" && typeof value["code"] === "number";
}

/** The request id of a body, when it has a usable one. */
function idOf(body: unknown): string | number | null {
  const id = isObject(body) ? body["id"] : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * The era of one posted body, by the body first (the `MCP-Protocol-Version` header is a cross-check only): a request
 * whose `params._meta` names a protocol version is modern; one naming a version the gateway does not serve statelessly
 * is refused with `-32022`; a malformed envelope with `-32602`; a batch holding a modern request with `-32600`.
 */
export function classify(body: unknown, versionHeader: string | undefined): Classified {
  if (Array.isArray(body)) {
    const modern = body.some((m) => claim(isObject(m) ? m["params"] : undefined) !== undefined);
    if (!modern) return { era: "legacy" };
    const why = `Bad Request: a JSON-RPC batch may not hold ${MODERN_VERSION} requests`;
    return { era: "refused", refusal: refusal(400, Code.InvalidRequest, why), id: null };
  }
  const params = isObject(body) ? body["params"] : undefined;
  const meta = claim(params);
  const isRequest = isObject(body) && typeof body["method"] === "string" && idOf(body) !== null;
  if (meta === undefined) {
    if (isRequest && versionHeader === MODERN_VERSION && body["method"] !== "initialize") {
      const why = `Invalid params: the MCP-Protocol-Version header names ${MODERN_VERSION} but _meta has no envelope`;
      return { era: "refused", refusal: refusal(400, Code.InvalidParams, why), id: idOf(body) };
    }
    if (isRequest && body["method"] === "initialize" && versionHeader === MODERN_VERSION) {
      const why = "an initialize request (the 2025 handshake) was sent with a modern MCP-Protocol-Version header";
      return { era: "refused", refusal: mismatch(versionHeader, why), id: idOf(body) };
    }
    return { era: "legacy" };
  }
  const id = idOf(body);
  if (!isRequest || !isObject(params)) {
    const why = "Invalid Request: a posted 2026-07-28 message must be a JSON-RPC request";
    return { era: "refused", refusal: refusal(400, Code.InvalidRequest, why), id };
  }
  const envelope = envelopeOf(meta);
  if (isRefusal(envelope)) return { era: "refused", refusal: envelope, id };
  if (versionHeader !== undefined && versionHeader.trim() !== envelope.protocolVersion) {
    const why = `the body's _meta names protocol version ${envelope.protocolVersion}`;
    return { era: "refused", refusal: mismatch(versionHeader, why), id };
  }
  if (envelope.protocolVersion !== MODERN_VERSION) {
    const why = `Unsupported protocol version: ${envelope.protocolVersion} (supported: ${MODERN_VERSION})`;
    const data = { supported: SUPPORTED_VERSIONS, requested: envelope.protocolVersion };
    return { era: "refused", refusal: refusal(400, Code.UnsupportedProtocolVersion, why, data), id };
  }
  const method = body["method"] as string;
  return { era: "modern", request: { id: id as string | number, method, params, envelope } };
}

/** The `_meta` of params that claim the modern era (name a protocol version), else undefined. */
function claim(params: unknown): Record<string, unknown> | undefined {
  const meta = isObject(params) ? params["_meta"] : undefined;
  return isObject(meta) && Object.hasOwn(meta, META.protocolVersion) ? meta : undefined;
}
