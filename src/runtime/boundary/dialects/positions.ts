/**
 * Where a dialect keeps subschemas (Validation draft-04 §5, draft-07 §6, 2019-09 §9): the positions a validator
 * walks, and how a JSON Pointer through them is spelled once they are renamed for 2020-12.
 */
import { Blocked } from "./common.js";
import { definitionsNames } from "./defs.js";
import type { SourceDialect } from "./dialects.js";
import { isSchema } from "./keywords.js";
import { childPointer, isObject, own, type JsonObject } from "./uri.js";

/** Containers of named schemas that a `$ref` may point into even beside a `$ref` (Validation draft-07 §9). */
export const DEFINITIONS = new Set(["definitions", "$defs"]);

/** What the dialect reads as a schema: an object, or a boolean since draft-06. */
export function isDialectSchema(dialect: SourceDialect, value: unknown): boolean {
  return dialect.booleanSchemas ? isSchema(value) : isObject(value);
}

/** One subschema position: `ignored` when the dialect never evaluates it (beside `$ref`, stray `additionalItems`). */
export interface Subschema {
  keyword: string;
  schema: unknown;
  pointer: string;
  ignored: boolean;
}

/** Lists the subschema positions of `node` in `dialect`, refusing malformed containers when `strict`. */
export function subschemas(dialect: SourceDialect, node: JsonObject, pointer: string, strict: boolean): Subschema[] {
  const out: Subschema[] = [];
  const hasRef = dialect.refAlone && Object.hasOwn(node, "$ref");
  const bad = (key: string, what: string): void => {
    if (strict && !hasRef) throw new Blocked(childPointer(pointer, key), `"${key}" must be ${what} in ${dialect.name}`);
  };
  for (const key of Object.keys(node)) {
    const value = node[key];
    const ignored = hasRef && !DEFINITIONS.has(key);
    const add = (schema: unknown, at: string, skip = ignored): void => {
      out.push({ keyword: key, schema, pointer: at, ignored: skip });
    };
    const position = dialect.positions.get(key);
    if (position === undefined) continue;
    if (position.unknown === true) {
      // Unknown to the dialect: only its schemas are reachable, by JSON Pointer.
      if (isObject(value)) {
        for (const name of Object.keys(value)) {
          const member = value[name];
          if (isDialectSchema(dialect, member)) add(member, childPointer(pointer, key, name));
        }
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
          if (position.renamed === "dependentSchemas" && Array.isArray(child)) continue; // a property dependency
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

/** A resource root a pointer is followed from: its document's dialect, the root, and its pointer in the document. */
export interface PointerStart {
  readonly plan: { readonly dialect: SourceDialect };
  readonly node: JsonObject;
  readonly pointer: string;
}

/** What `translatePointer` reports to: each `definitions` / `$defs` kept, and the wording of a refusal. */
export interface PointerHooks {
  /** Hears of each `definitions` / `$defs` beside `$ref` the pointer passes through (those survive the upgrade). */
  readonly kept: (pointer: string) => void;
  /** Words a refusal. */
  readonly fail: (why: string) => Blocked;
}

/**
 * Follows a JSON Pointer of the start's dialect from a resource root and spells the same location in 2020-12.
 */
export function translatePointer(start: PointerStart, segments: readonly string[], hooks: PointerHooks): string[] {
  const { kept, fail } = hooks;
  const { dialect } = start.plan;
  const root = start.node;
  const rootPointer = start.pointer;
  const out: string[] = [];
  let node: unknown = root;
  let pointer = rootPointer;
  for (let i = 0; i < segments.length; i++) {
    const key = segments[i] as string;
    if (!isObject(node)) throw fail("does not resolve");
    const holder: JsonObject = node;
    const value = own(holder, key);
    if (value === undefined) throw fail("does not resolve");
    const hasRef = dialect.refAlone && Object.hasOwn(holder, "$ref");
    if (hasRef && !DEFINITIONS.has(key)) throw fail(`points into "${key}" beside $ref, which ${dialect.name} ignores`);
    const position = dialect.positions.get(key);
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
      throw fail(`points into additionalItems, which ${dialect.name} ignores here`);
    out.push(renamed);
    pointer = childPointer(pointer, key);
    node = value;
    if (step === "none") continue;
    const name = segments[++i];
    if (name === undefined) throw fail(`points at the "${key}" container, not at a schema`);
    if (step === "index") node = Array.isArray(value) && /^(0|[1-9]\d*)$/.test(name) ? value[Number(name)] : undefined;
    else node = isObject(value) ? own(value, name) : undefined;
    if (node === undefined) throw fail("does not resolve");
    if (position.renamed === "dependentSchemas" && Array.isArray(node))
      throw fail("points at a property dependency, not at a schema");
    out.push(position.renamed === "$defs" ? (definitionsNames(holder).get(name) ?? name) : name);
    pointer = childPointer(pointer, name);
  }
  if (!isSchema(node)) throw fail("does not resolve to a schema");
  return out;
}
