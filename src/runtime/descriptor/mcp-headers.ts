/**
 * `x-mcp-header` (MCP 2026-07-28, server/tools §x-mcp-header and basic/transports/streamable-http §Custom Headers
 * from Tool Parameters): a property of a tool's input schema may name an `Mcp-Param-{name}` HTTP header that a
 * Streamable HTTP client fills from the call's arguments. The value must be a non-empty RFC 9110 token (`1*tchar`,
 * §5.1; so no control character, CR or LF), unique case-insensitively within the schema, on a property of type
 * `string`, `integer` or `boolean` (never `number`) that is statically reachable from the root — through a chain of
 * `properties` keys only, never `items`, a composition, a conditional or `$ref`. A client on Streamable HTTP must
 * leave a tool that breaks a rule out of its list; admission refuses it (`header_invalid`) with the pointer.
 */

import { isObject } from "../../engine/json/json.js";
import { escapeToken } from "../../engine/json/pointer.js";
import { dialect2020_12 } from "../../vocabularies/dialect-2020-12.js";

/** The annotation's keyword. */
const KEYWORD = "x-mcp-header";

/** An RFC 9110 token: `1*tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The types a header may carry (`null` allowed beside one of them: a null value omits the header). */
const HEADER_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);

/** Where subschemas sit: the 2020-12 dialect's positions, plus `definitions` and draft-07's. */
const POSITIONS: ReadonlyMap<string, "schema" | "array" | "map"> = new Map([
  ...dialect2020_12.subschemaKeywords,
  ["definitions", "map"],
  ["additionalItems", "schema"],
  ["dependencies", "map"],
]);

/** One header a tool's arguments fill: its name (after `Mcp-Param-`), its property's place and type. */
export interface McpHeader {
  /** The `x-mcp-header` value: the header is `Mcp-Param-{name}`. */
  readonly name: string;
  /** The JSON Pointer of the property's schema in the input schema (`/properties/region`). */
  readonly schemaPointer: string;
  /** The property names from the arguments' root to the value (`["region"]`): the value's path in the arguments. */
  readonly path: readonly string[];
  /** The property's declared type(s) other than `null`. */
  readonly types: readonly ("string" | "integer" | "boolean")[];
}

/** Why a schema's `x-mcp-header` annotations break the rules: the first problem, at its pointer. */
export interface HeaderProblem {
  /** JSON Pointer of the offending `x-mcp-header` member. */
  readonly schemaPointer: string;
  /** One line, plain English. */
  readonly message: string;
}

interface Visit {
  readonly schema: unknown;
  readonly pointer: string;
  /** The property path from the root when the schema is reached by `properties` keys only; undefined otherwise. */
  readonly path: readonly string[] | undefined;
}

/**
 * The headers an input schema declares, in document order, or its first problem. A schema is walked through its
 * subschema positions (not through `$ref`: a referenced schema is reached where it is written, and a schema under
 * `$defs` is not statically reachable), so every annotation is found once. Iterative: no depth overflows the stack.
 */
export function mcpHeaders(schema: unknown): McpHeader[] | HeaderProblem {
  const headers: McpHeader[] = [];
  const seen = new Map<string, string>();
  const pending: Visit[] = [{ schema, pointer: "", path: [] }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { schema: node, pointer, path } = visit;
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, KEYWORD)) {
      const found = header(node, pointer, path);
      if (isProblem(found)) return found;
      const earlier = seen.get(found.name.toLowerCase());
      if (earlier !== undefined) {
        const again = `repeats the header name at "${earlier}" (x-mcp-header names are case-insensitive)`;
        return problem(`${pointer}/${KEYWORD}`, again);
      }
      seen.set(found.name.toLowerCase(), pointer);
      headers.push(found);
    }
    const children: Visit[] = [];
    for (const keyword of Object.keys(node)) {
      const kind = POSITIONS.get(keyword);
      const value = node[keyword];
      const at = `${pointer}/${escapeToken(keyword)}`;
      if (kind === "schema") children.push({ schema: value, pointer: at, path: undefined });
      else if (kind === "array" && Array.isArray(value)) {
        value.forEach((item: unknown, i) => children.push({ schema: item, pointer: `${at}/${i}`, path: undefined }));
      } else if (kind === "map" && isObject(value)) {
        for (const name of Object.keys(value)) {
          const staticPath = keyword === "properties" && path !== undefined ? [...path, name] : undefined;
          children.push({ schema: value[name], pointer: `${at}/${escapeToken(name)}`, path: staticPath });
        }
      }
    }
    // Document order: the stack pops the last pushed first.
    pending.push(...children.reverse());
  }
  return headers;
}

function isProblem(found: McpHeader | HeaderProblem): found is HeaderProblem {
  return typeof (found as Partial<HeaderProblem>).message === "string";
}

/** The header one annotated schema declares, or why it cannot. */
function header(
  node: Record<string, unknown>,
  pointer: string,
  path: readonly string[] | undefined,
): McpHeader | HeaderProblem {
  const value = node[KEYWORD];
  const at = `${pointer}/${KEYWORD}`;
  if (path === undefined || path.length === 0) {
    const where = path === undefined ? "not reachable from the root through properties alone" : "on the schema root";
    return problem(at, `is ${where}; it must annotate a property reached by a chain of properties keys`);
  }
  if (typeof value !== "string" || !TOKEN.test(value)) {
    const shown = typeof value === "string" ? JSON.stringify(value) : `a ${value === null ? "null" : typeof value}`;
    return problem(at, `must be a non-empty HTTP token (RFC 9110 §5.1 tchar), got ${shown}`);
  }
  const types = declaredTypes(node["type"]);
  if (types === undefined) {
    return problem(at, 'is on a property whose type is not "string", "integer" or "boolean" (with "null" at most)');
  }
  return { name: value, schemaPointer: pointer, path: Object.freeze([...path]), types } satisfies McpHeader;
}

function declaredTypes(type: unknown): McpHeader["types"] | undefined {
  const list: unknown[] = Array.isArray(type) ? type : [type];
  const kept = list.filter((t) => t !== "null");
  if (kept.length === 0 || !kept.every((t) => typeof t === "string" && HEADER_TYPES.has(t))) return undefined;
  return Object.freeze(kept as McpHeader["types"][number][]);
}

function problem(schemaPointer: string, what: string): HeaderProblem {
  return { schemaPointer, message: `x-mcp-header at "${schemaPointer}" ${what}` };
}

/** An argument a header is filled from that the header cannot carry, where it is and why (no value quoted). */
export interface HeaderValueProblem {
  /** JSON Pointer into the arguments. */
  readonly instancePointer: string;
  /** JSON Pointer of the `x-mcp-header` annotation. */
  readonly keywordLocation: string;
  /** One line, plain English, naming the header and the rule, never the value. */
  readonly message: string;
}

/**
 * The first header whose argument is a number outside the safe-integer range (MCP 2026-07-28: an integer header's
 * value must lie within ±(2^53−1), where a double still holds it exactly), or undefined. `args` has passed its
 * schema, so each value has its declared type; an absent or null value omits the header.
 */
export function headerValueProblem(headers: readonly McpHeader[], args: unknown): HeaderValueProblem | undefined {
  for (const header of headers) {
    if (!header.types.includes("integer")) continue;
    let value: unknown = args;
    for (const name of header.path) value = isObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
    if (typeof value !== "number" || Number.isSafeInteger(value)) continue;
    return {
      instancePointer: header.path.map((name) => `/${escapeToken(name)}`).join(""),
      keywordLocation: `${header.schemaPointer}/${KEYWORD}`,
      message: `must be an integer from -(2^53-1) to 2^53-1 to be sent as the header Mcp-Param-${header.name}`,
    };
  }
  return undefined;
}
