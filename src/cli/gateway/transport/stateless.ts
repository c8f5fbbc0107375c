/**
 * MCP 2026-07-28 on the HTTP front, the parts that need no policy (MCP 2026-07-28 `basic/index.mdx` §Request
 * metadata, `basic/transports/streamable-http.mdx` §Standard headers and §Custom parameter headers): which era a
 * posted message belongs to (by its body: a `_meta` protocol-version claim is the modern era, anything else the
 * 2025-11-25 sessions), the per-request envelope, and the mirrored headers checked against the body. Each check is a
 * pure function returning the refusal to send (its HTTP status and JSON-RPC error), or nothing.
 */

import { createHash } from "node:crypto";
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

function mismatch(header: string, body: string): Refusal {
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

/** The mirrored headers of one request (names lower-cased by Node). */
export interface MirroredHeaders {
  readonly version?: string;
  readonly method?: string;
  readonly name?: string;
  /** `Mcp-Param-<Name>` values by lower-cased `<Name>`. */
  readonly params: ReadonlyMap<string, string>;
}

/** The mirrored headers of a Node request's header table. */
export function mirroredHeaders(headers: Record<string, string | string[] | undefined>): MirroredHeaders {
  const one = (name: string) => {
    const value = headers[name];
    return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
  };
  const params = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith("mcp-param-") || value === undefined) continue;
    params.set(name.slice("mcp-param-".length), Array.isArray(value) ? value.join(", ") : value);
  }
  return {
    ...optional("version", one("mcp-protocol-version")),
    ...optional("method", one("mcp-method")),
    ...optional("name", one("mcp-name")),
    params,
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** The body field `Mcp-Name` mirrors, per method (with the tasks extension's `taskId`). */
const NAME_SOURCE = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value decoded: a `=?base64?…?=` sentinel's UTF-8 payload, else the value; undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  const sentinel = SENTINEL.exec(value);
  if (sentinel === null) return value;
  const payload = sentinel[1] ?? "";
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(Buffer.from(payload, "base64")));
  } catch {
    return undefined;
  }
}

/** A value as a header carries it: plain when it is safe visible ASCII, else the base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain =
    value.length > 0 && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value) && SENTINEL.exec(value) === null;
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** RFC 9110 optional whitespace removed from both ends. */
function trimOws(value: string): string {
  return value.replace(/^[ \t]+/, "").replace(/[ \t]+$/, "");
}

/**
 * The standard mirrored headers checked against a modern request's body: `MCP-Protocol-Version` and `Mcp-Method`
 * present and equal to the body's, and `Mcp-Name` (decoded) equal to `params.name`, `params.uri` or `params.taskId`
 * for the methods that mirror one. Any disagreement is `400` + `-32020`.
 */
export function checkStandardHeaders(headers: MirroredHeaders, request: ModernRequest): Refusal | undefined {
  const { method, params } = request;
  if (headers.version === undefined) return mismatch("(missing)", "the required MCP-Protocol-Version header is absent");
  if (headers.method === undefined) return mismatch("(missing)", "the required Mcp-Method header is absent");
  if (trimOws(headers.method) !== method)
    return mismatch(headers.method, `the body names method ${method}, the Mcp-Method header another`);
  const field = NAME_SOURCE.get(method);
  if (field === undefined) return undefined;
  const body = params[field];
  if (typeof body !== "string") return undefined;
  if (headers.name === undefined)
    return mismatch("(missing)", `the body carries params.${field} but the required Mcp-Name header is absent`);
  const decoded = decodeHeaderValue(trimOws(headers.name));
  if (decoded === undefined) return mismatch(headers.name, "the Mcp-Name header carries an invalid base64 sentinel");
  if (decoded !== body) return mismatch(headers.name, `the body carries params.${field}, the Mcp-Name header another`);
  return undefined;
}

/** One `x-mcp-header` a tool declares: the argument (a top-level property) and the header's `<Name>`. */
export interface ParamHeader {
  readonly property: string;
  readonly header: string;
  readonly type: "string" | "integer" | "boolean" | "number";
}

/**
 * A tool's `x-mcp-header` declarations (properties of the input schema's root, string, integer or boolean), or the
 * reason the tool's declarations are invalid (a client drops such a tool).
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] | string {
  const properties = isObject(inputSchema) ? inputSchema["properties"] : undefined;
  if (!isObject(properties)) return [];
  const found: ParamHeader[] = [];
  const seen = new Set<string>();
  for (const [property, schema] of Object.entries(properties)) {
    const header = isObject(schema) ? schema["x-mcp-header"] : undefined;
    if (header === undefined) continue;
    if (typeof header !== "string" || !/^[A-Za-z0-9-]+$/.test(header))
      return `property ${JSON.stringify(property)}: x-mcp-header must be a header name`;
    const type = isObject(schema) ? schema["type"] : undefined;
    if (type !== "string" && type !== "integer" && type !== "boolean" && type !== "number")
      return `property ${JSON.stringify(property)}: x-mcp-header needs a string, integer or boolean property`;
    if (seen.has(header.toLowerCase())) return `x-mcp-header ${JSON.stringify(header)} is declared twice`;
    seen.add(header.toLowerCase());
    found.push({ property, header, type });
  }
  return found;
}

/** An argument as its header carries it, or undefined when it is absent, null or not a primitive. */
function primitiveText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A `tools/call`'s `Mcp-Param-*` headers checked against its arguments: each declared argument the body carries needs
 * its header, decoding to the same value (numbers compared as numbers); an absent or null argument expects none.
 */
export function checkParamHeaders(
  declared: readonly ParamHeader[],
  args: unknown,
  headers: MirroredHeaders,
): Refusal | undefined {
  for (const { property, header, type } of declared) {
    const value = isObject(args) && Object.hasOwn(args, property) ? args[property] : undefined;
    const text = primitiveText(value);
    if (text === undefined) continue;
    const name = `Mcp-Param-${header}`;
    const sent = headers.params.get(header.toLowerCase());
    if (sent === undefined)
      return mismatch("(missing)", `the body carries ${property} but the ${name} header is absent`);
    const decoded = decodeHeaderValue(trimOws(sent));
    if (decoded === undefined) return mismatch(sent, `the ${name} header carries an invalid base64 sentinel`);
    const numeric = type === "integer" || type === "number";
    const equal = numeric
      ? /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(decoded) && Number(decoded) === Number(text)
      : decoded === text;
    if (!equal) return mismatch(sent, `the body carries ${property}, the ${name} header another value`);
  }
  return undefined;
}

/** One 2026-07-28 request as the HTTP front hands it over. */
export interface StatelessCall {
  readonly request: ModernRequest;
  readonly headers: MirroredHeaders;
  /** Who sent it (a digest of its credentials): a parked call is answered only by its principal. */
  readonly principal: string;
  /** Aborted when the client closes the response before its answer: that is cancellation. */
  readonly closed: AbortSignal;
  /** Writes a notification on the request's stream ahead of its answer; false when the client takes no stream. */
  readonly stream: (message: { method: string; params?: unknown }) => boolean;
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
