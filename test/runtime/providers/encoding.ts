/**
 * The encoded-optional translation seen from the test side, written apart from the library's decoder: where a call
 * carries an encoded property is read from the ORIGINAL schema (its `properties`, `items`, local `$ref`, `allOf`, and
 * `anyOf`/`oneOf` whose branches take distinct JSON types) and the pointers the check lists as `encoded` changes.
 * `encodeShape` fills each absent encoded property with null (what a strict model must send), `stripEncoded` removes
 * the nulls there (the call the original schema is to judge).
 */

import type { ToolCheck } from "../../../src/index.js";

type Json = unknown;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The pointers of the property schemas a check encoded. */
export function encodedPointers(check: ToolCheck): ReadonlySet<string> {
  return new Set(check.changes.filter((c) => c.kind === "encoded").map((c) => c.pointer));
}

function escape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function resolve(root: unknown, ref: unknown): { at: string; schema: unknown } | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  let node: unknown = root;
  for (const token of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node === undefined ? undefined : { at: pointer, schema: node };
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : typeof value;
}

/** The JSON types a branch takes (integer as number), or undefined when the branch does not say. */
function kinds(root: unknown, branch: unknown, depth = 0): string[] | undefined {
  if (!isObject(branch) || depth > 8) return undefined;
  const type = branch["type"];
  if (typeof type === "string" || Array.isArray(type))
    return [...new Set((Array.isArray(type) ? type : [type]).map((t) => (t === "integer" ? "number" : String(t))))];
  if (Object.hasOwn(branch, "const")) return [kind(branch["const"])];
  if (Array.isArray(branch["enum"])) return [...new Set(branch["enum"].map(kind))];
  if (Array.isArray(branch["anyOf"])) {
    const each = branch["anyOf"].map((b) => kinds(root, b, depth + 1));
    return each.some((k) => k === undefined) ? undefined : [...new Set(each.flat() as string[])];
  }
  const target = resolve(root, branch["$ref"]);
  return target === undefined ? undefined : kinds(root, target.schema, depth + 1);
}

/** The branch (with its pointer) a value of this kind takes, when the branches' kinds are disjoint. */
function branchFor(root: unknown, at: string, list: unknown[], keyword: string, value: unknown) {
  const all = list.map((b) => kinds(root, b));
  const seen = new Set<string>();
  for (const k of all) {
    if (k === undefined || k.some((x) => seen.has(x))) return undefined;
    for (const x of k) seen.add(x);
  }
  const index = all.findIndex((k) => (k as string[]).includes(kind(value)));
  return index < 0 ? undefined : { at: `${at}/${keyword}/${index}`, schema: list[index] };
}

type Mode = "encode" | "strip";

function reshape(
  root: unknown,
  at: string,
  schema: unknown,
  value: Json,
  encoded: ReadonlySet<string>,
  mode: Mode,
  depth: number,
): Json {
  if (!isObject(schema) || depth > 40) return value;
  let out = value;
  const target = resolve(root, schema["$ref"]);
  if (target !== undefined) out = reshape(root, target.at, target.schema, out, encoded, mode, depth + 1);
  if (Array.isArray(schema["allOf"]))
    schema["allOf"].forEach((b, i) => (out = reshape(root, `${at}/allOf/${i}`, b, out, encoded, mode, depth + 1)));
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    const branch = branchFor(root, at, list, keyword, out);
    if (branch !== undefined) out = reshape(root, branch.at, branch.schema, out, encoded, mode, depth + 1);
  }
  if (Array.isArray(out) && isObject(schema["items"]))
    out = out.map((item) => reshape(root, `${at}/items`, schema["items"], item, encoded, mode, depth + 1));
  const properties = schema["properties"];
  if (isObject(out) && isObject(properties)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(out))
      Object.defineProperty(copy, key, { value: out[key], enumerable: true, writable: true, configurable: true });
    for (const name of Object.keys(properties)) {
      const p = `${at}/properties/${escape(name)}`;
      const present = Object.hasOwn(copy, name);
      if (encoded.has(p) && mode === "encode" && !present)
        Object.defineProperty(copy, name, { value: null, enumerable: true, writable: true, configurable: true });
      else if (encoded.has(p) && mode === "strip" && present && copy[name] === null) delete copy[name];
      else if (present) {
        const value = reshape(root, p, properties[name], copy[name], encoded, mode, depth + 1);
        Object.defineProperty(copy, name, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    out = copy;
  }
  return out;
}

/** The call as a strict model must send it: every absent encoded property present as null. */
export function encodeShape(schema: unknown, call: Json, encoded: ReadonlySet<string>): Json {
  return reshape(schema, "", schema, call, encoded, "encode", 0);
}

/** The call without a null at an encoded property (what the decoder must give back). */
export function stripEncoded(schema: unknown, call: Json, encoded: ReadonlySet<string>): Json {
  return reshape(schema, "", schema, call, encoded, "strip", 0);
}
