/**
 * The gateway's identity of a tool (docs/guide/gateway.md "Pins and reviewed updates"): what its client receives,
 * `_meta` included. The library's canonical form (`ToolCatalog.canonical`) leaves `_meta` out, for hosts that never
 * show it to anyone; a gateway passes it on (MCP Apps put a tool's UI resource in `_meta.ui.resourceUri`), so a
 * `_meta` it did not pin would be a rug pull its pins cannot see. The listed canonical text is the library's with
 * `_meta` added, written by the same rules (RFC 8785); for a tool without `_meta` it is the library's text itself,
 * so the pins of such tools are what they were.
 */

import { createHash } from "node:crypto";
import { isObject } from "../../../engine/json/json.js";
import { ToolCatalog, type Limits } from "../../../index.js";

/** How deep a `_meta` value may nest to be written here; deeper, the library's own bound excludes the tool. */
const MAX_DEPTH = 256;

/** A JSON Pointer reference token (RFC 6901): `~` and `/` escaped. */
function token(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The RFC 8785 text of a JSON value: members sorted by UTF-16 code units, strings and numbers as ECMAScript writes
 * them (which is what RFC 8785 specifies). Throws for a value that is not JSON data or nests deeper than `MAX_DEPTH`.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw new Error(`a value nests deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("a number that is not finite is not JSON");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (isObject(value)) {
    const names = Object.keys(value).sort();
    return `{${names.map((name) => `${JSON.stringify(name)}:${canonicalJson(value[name], depth + 1)}`).join(",")}}`;
  }
  throw new Error(`a ${typeof value} is not JSON`);
}

/** `sha256-` and the unpadded base64url of the SHA-256 of a text's UTF-8 bytes: `ToolCatalog.digest`'s form. */
export function textDigest(text: string): string {
  return "sha256-" + createHash("sha256").update(text, "utf8").digest("base64url");
}

/**
 * The listed canonical text of a tool as the gateway lists it (`name` its listed name, `backend` its server): the
 * library's canonical text (`library`, when the caller has it already), with `_meta` when the tool has one. Throws as
 * `ToolCatalog.canonical` does, and for a `_meta` that is not JSON data.
 */
export function listedCanonical(
  tool: Record<string, unknown>,
  limits?: Partial<Limits>,
  library = ToolCatalog.canonical(tool, limits),
): string {
  if (!Object.hasOwn(tool, "_meta") || tool["_meta"] === undefined) return library;
  const definition = JSON.parse(library) as Record<string, unknown>;
  Object.defineProperty(definition, "_meta", { value: tool["_meta"], enumerable: true, writable: true });
  return canonicalJson(definition);
}

/** The `_meta` of a definition (a canonical text), or undefined when it has none or the text is a digest. */
function metaOf(canonical: string): unknown {
  if (canonical.startsWith("sha256-")) return undefined;
  const definition: unknown = JSON.parse(canonical);
  return isObject(definition) && Object.hasOwn(definition, "_meta") ? definition["_meta"] : undefined;
}

/**
 * Whether a pin (a canonical text, the same JSON data written otherwise, or a digest) pins exactly `canonical`;
 * a pin that cannot be read pins nothing.
 */
export function pins(pin: string, canonical: string): boolean {
  if (pin === canonical) return true;
  if (pin.startsWith("sha256-")) return pin === textDigest(canonical);
  try {
    return canonicalJson(JSON.parse(pin)) === canonical;
  } catch {
    return false;
  }
}

/**
 * The JSON Pointers at which the `_meta` of a pinned definition and of the current one differ (`differences`):
 * `/_meta` when one has none. Empty when they are the same JSON data, or when the pin is a digest (which says
 * nothing of where).
 */
export function metaChanges(pin: string, canonical: string): string[] {
  if (pin.startsWith("sha256-")) return [];
  try {
    return differences(metaOf(pin), metaOf(canonical), "/_meta");
  } catch {
    return ["/_meta"];
  }
}

/**
 * The deepest JSON Pointers (under `at`) at which two JSON values differ: objects member by member, arrays item by
 * item when their lengths agree, else the array; a member one side lacks at its own pointer. At most 100, sorted.
 */
export function differences(before: unknown, after: unknown, at: string): string[] {
  const out: string[] = [];
  const work: [unknown, unknown, string][] = [[before, after, at]];
  for (let next = work.pop(); next !== undefined && out.length < 100; next = work.pop()) {
    const [x, y, where] = next;
    if (sameJson(x, y)) continue;
    if (isObject(x) && isObject(y)) {
      for (const name of new Set([...Object.keys(x), ...Object.keys(y)])) {
        const a = Object.hasOwn(x, name) ? x[name] : undefined;
        const b = Object.hasOwn(y, name) ? y[name] : undefined;
        work.push([a, b, `${where}/${token(name)}`]);
      }
    } else if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      x.forEach((item: unknown, i) => work.push([item, y[i], `${where}/${i}`]));
    } else out.push(where);
  }
  return out.sort();
}

/** Whether two values are the same JSON data (undefined: absent). */
function sameJson(x: unknown, y: unknown): boolean {
  if (x === undefined || y === undefined) return x === y;
  try {
    return canonicalJson(x) === canonicalJson(y);
  } catch {
    return false;
  }
}
