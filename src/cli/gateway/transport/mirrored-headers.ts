/**
 * The headers a 2026-07-28 request mirrors from its body (MCP 2026-07-28 `basic/transports/streamable-http.mdx`
 * §Standard headers and §Custom parameter headers): read from a Node request, decoded (`=?base64?…?=`), and checked
 * against the body — `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` for every request, `Mcp-Param-<Name>` for
 * the arguments a tool's `x-mcp-header` declarations name. Each check returns the refusal to send, or nothing.
 */

import { isObject } from "../../../engine/json/json.js";
import { mismatch, type ModernRequest, type Refusal } from "./stateless.js";

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
