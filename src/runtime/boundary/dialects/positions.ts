/**
 * Where draft-07 keeps subschemas (Validation draft-07 §6, §9): the positions a
 * validator walks, and how a JSON Pointer through them is spelled once they are renamed for 2020-12.
 */
import { Blocked } from "./common.js";
import { definitionsNames } from "./defs.js";
import { isSchema } from "./keywords.js";
import { childPointer, isObject, own, type JsonObject } from "./uri.js";

/** Containers of named schemas that a `$ref` may point into even beside a `$ref` (Validation draft-07 §9). */
export const DEFINITIONS = new Set(["definitions", "$defs"]);

/**
 * How a draft-07 keyword holds subschemas, and the 2020-12 keyword of the same position when it is renamed: the one
 * table the scan, the pointer translation and the translation read. `items` holds a schema or an array of them
 * (the array becomes `prefixItems`, and `additionalItems` beside it becomes `items`); `$defs` is unknown to draft-07
 * but a JSON Pointer can reach its schemas.
 */
export interface Position {
  readonly holds: "schema" | "array" | "map" | "items";
  readonly renamed?: string;
}

export const POSITIONS: ReadonlyMap<string, Position> = new Map<string, Position>([
  ["properties", { holds: "map" }],
  ["patternProperties", { holds: "map" }],
  ["definitions", { holds: "map", renamed: "$defs" }],
  ["$defs", { holds: "map" }],
  ["dependencies", { holds: "map", renamed: "dependentSchemas" }],
  ["allOf", { holds: "array" }],
  ["anyOf", { holds: "array" }],
  ["oneOf", { holds: "array" }],
  ["items", { holds: "items" }],
  ["additionalItems", { holds: "schema", renamed: "items" }],
  ["additionalProperties", { holds: "schema" }],
  ["contains", { holds: "schema" }],
  ["propertyNames", { holds: "schema" }],
  ["not", { holds: "schema" }],
  ["if", { holds: "schema" }],
  ["then", { holds: "schema" }],
  ["else", { holds: "schema" }],
]);

/** One subschema position: `ignored` when draft-07 never evaluates it (beside `$ref`, stray `additionalItems`). */
export interface Subschema {
  keyword: string;
  schema: unknown;
  pointer: string;
  ignored: boolean;
}

/** Lists the draft-07 subschema positions of `node`, refusing malformed containers when `strict`. */
export function subschemas(node: JsonObject, pointer: string, strict: boolean): Subschema[] {
  const out: Subschema[] = [];
  const hasRef = Object.hasOwn(node, "$ref");
  const bad = (key: string, what: string): void => {
    if (strict && !hasRef) throw new Blocked(childPointer(pointer, key), `"${key}" must be ${what} in draft-07`);
  };
  for (const key of Object.keys(node)) {
    const value = node[key];
    const ignored = hasRef && !DEFINITIONS.has(key);
    const add = (schema: unknown, at: string, skip = ignored): void => {
      out.push({ keyword: key, schema, pointer: at, ignored: skip });
    };
    const position = POSITIONS.get(key);
    if (position === undefined) continue;
    if (key === "$defs") {
      // Unknown to draft-07: only its schemas are reachable, by JSON Pointer.
      if (isObject(value)) {
        for (const name of Object.keys(value))
          if (isSchema(value[name])) add(value[name], childPointer(pointer, key, name));
      }
      continue;
    }
    switch (position.holds) {
      case "map":
        if (!isObject(value)) {
          bad(key, "an object");
          break;
        }
        for (const name of Object.keys(value)) {
          const child = value[name];
          if (key === "dependencies" && Array.isArray(child)) continue; // a property dependency
          add(child, childPointer(pointer, key, name));
        }
        break;
      case "array":
        if (!Array.isArray(value) || value.length === 0) {
          bad(key, "a non-empty array");
          break;
        }
        value.forEach((child, i) => add(child, childPointer(pointer, key, i)));
        break;
      case "items":
        if (Array.isArray(value)) value.forEach((child, i) => add(child, childPointer(pointer, key, i)));
        else add(value, childPointer(pointer, key));
        break;
      case "schema":
        // `additionalItems` is evaluated only beside array-form `items`.
        add(
          value,
          childPointer(pointer, key),
          ignored || (key === "additionalItems" && !Array.isArray(own(node, "items"))),
        );
        break;
    }
  }
  return out;
}

/**
 * Follows a draft-07 JSON Pointer from a resource root (`root`, at `rootPointer` in its document) and spells
 * the same location in 2020-12. `kept` hears of each `definitions` / `$defs` beside `$ref` it passes
 * through (those survive the upgrade); `fail` words a refusal.
 */
export function translatePointer(
  root: JsonObject,
  rootPointer: string,
  segments: readonly string[],
  kept: (pointer: string) => void,
  fail: (why: string) => Blocked,
): string[] {
  const out: string[] = [];
  let node: unknown = root;
  let pointer = rootPointer;
  for (let i = 0; i < segments.length; i++) {
    const key = segments[i] as string;
    if (!isObject(node)) throw fail("does not resolve");
    const holder: JsonObject = node;
    const value = own(holder, key);
    if (value === undefined) throw fail("does not resolve");
    const hasRef = Object.hasOwn(holder, "$ref");
    if (hasRef && !DEFINITIONS.has(key)) throw fail(`points into "${key}" beside $ref, which draft-07 ignores`);
    const position = POSITIONS.get(key);
    if (position === undefined) throw fail(`points into "${key}", which is not a subschema position`);
    let renamed = position.renamed ?? key;
    let step: "name" | "index" | "none" =
      position.holds === "map" ? "name" : position.holds === "array" ? "index" : "none";
    if (DEFINITIONS.has(key) && hasRef) kept(childPointer(pointer, key));
    if (position.holds === "items" && Array.isArray(value)) {
      renamed = "prefixItems";
      step = "index";
    }
    if (key === "additionalItems" && !Array.isArray(own(holder, "items")))
      throw fail("points into additionalItems, which draft-07 ignores here");
    out.push(renamed);
    pointer = childPointer(pointer, key);
    node = value;
    if (step === "none") continue;
    const name = segments[++i];
    if (name === undefined) throw fail(`points at the "${key}" container, not at a schema`);
    if (step === "index") node = Array.isArray(value) && /^(0|[1-9]\d*)$/.test(name) ? value[Number(name)] : undefined;
    else node = isObject(value) ? own(value, name) : undefined;
    if (node === undefined) throw fail("does not resolve");
    if (key === "dependencies" && Array.isArray(node)) throw fail("points at a property dependency, not at a schema");
    out.push(key === "definitions" ? (definitionsNames(holder).get(name) ?? name) : name);
    pointer = childPointer(pointer, name);
  }
  if (!isSchema(node)) throw fail("does not resolve to a schema");
  return out;
}
