/**
 * Where draft-07 keeps subschemas (Validation draft-07 §6, §9): the positions a
 * validator walks, and how a JSON Pointer through them is spelled once they are renamed for 2020-12.
 */
import { Blocked } from "./upgrade-draft07-common.js";
import { definitionsNames } from "./upgrade-draft07-defs.js";
import { isSchema } from "./upgrade-draft07-keywords.js";
import { childPointer, isObject, own, type JsonObject } from "./upgrade-draft07-uri.js";

/** Containers of named schemas that a `$ref` may point into even beside a `$ref` (Validation draft-07 §9). */
export const DEFINITIONS = new Set(["definitions", "$defs"]);

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
    switch (key) {
      case "$defs": // unknown to draft-07: only its schemas are reachable, by JSON Pointer
        if (isObject(value)) {
          for (const name of Object.keys(value))
            if (isSchema(value[name])) add(value[name], childPointer(pointer, key, name));
        }
        break;
      case "properties":
      case "patternProperties":
      case "definitions":
      case "dependencies":
        if (!isObject(value)) {
          bad(key, "an object");
          break;
        }
        for (const name of Object.keys(value)) {
          const child = value[name];
          if (key === "dependencies" && Array.isArray(child)) continue;
          add(child, childPointer(pointer, key, name));
        }
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
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
      case "additionalItems":
        add(value, childPointer(pointer, key), ignored || !Array.isArray(own(node, "items")));
        break;
      case "additionalProperties":
      case "contains":
      case "propertyNames":
      case "not":
      case "if":
      case "then":
      case "else":
        add(value, childPointer(pointer, key));
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
    let renamed = key;
    let step: "name" | "index" | "none" = "none";
    switch (key) {
      case "definitions":
      case "$defs":
        renamed = "$defs";
        step = "name";
        if (hasRef) kept(childPointer(pointer, key));
        break;
      case "properties":
      case "patternProperties":
        step = "name";
        break;
      case "dependencies":
        renamed = "dependentSchemas";
        step = "name";
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
        step = "index";
        break;
      case "items":
        if (Array.isArray(value)) {
          renamed = "prefixItems";
          step = "index";
        }
        break;
      case "additionalItems":
        if (!Array.isArray(own(holder, "items")))
          throw fail("points into additionalItems, which draft-07 ignores here");
        renamed = "items";
        break;
      case "additionalProperties":
      case "contains":
      case "propertyNames":
      case "not":
      case "if":
      case "then":
      case "else":
        break;
      default:
        throw fail(`points into "${key}", which is not a subschema position`);
    }
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
