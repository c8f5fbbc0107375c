/**
 * What a schema as sent costs a provider: the counts its per-schema limits are stated in (properties, nesting
 * levels, enum values, characters of names and values, large enums) and the per-request quantities Anthropic sums
 * over its strict tools (optional parameters, union parameters), counted through local references.
 */

import { isObject } from "../../engine/json/json.js";
import { decodeFragment, getAt, parsePointer } from "../../engine/json/pointer.js";
import { forEachChild, WalkLimit } from "./translation/ref-graph.js";

/** The counts of one schema as sent. */
export interface SchemaMeasure {
  /** Keys of all `properties` objects. */
  readonly properties: number;
  /** Nesting levels (the root is 1; every subschema, `items`, `anyOf` branch and `$defs` entry, one more). */
  readonly depth: number;
  /** `enum` values, over all `enum`s. */
  readonly enumValues: number;
  /** Characters of property names, definition names, `enum` and `const` values (JSON text for non-strings). */
  readonly stringBudget: number;
  /** Every `enum` with its pointer, value count and characters. */
  readonly enums: readonly { readonly pointer: string; readonly values: number; readonly length: number }[];
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : JSON.stringify(value).length;
}

/** Measures a schema as sent, without following references (a recursive schema has no finite expansion). */
export function measure(schema: unknown, maxNodes: number): SchemaMeasure {
  let properties = 0;
  let depth = 0;
  let enumValues = 0;
  let stringBudget = 0;
  let nodes = 0;
  const enums: { pointer: string; values: number; length: number }[] = [];
  const pending: { value: unknown; at: string; level: number }[] = [{ value: schema, at: "", level: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, at, level } = next;
    if (++nodes > maxNodes) throw new WalkLimit("maxSchemaNodes", maxNodes);
    depth = Math.max(depth, level);
    if (!isObject(value)) continue;
    for (const keyword of ["properties", "$defs", "definitions"]) {
      const map = value[keyword];
      if (!isObject(map)) continue;
      const names = Object.keys(map);
      if (keyword === "properties") properties += names.length;
      for (const name of names) stringBudget += name.length;
    }
    if (Array.isArray(value["enum"])) {
      const length = value["enum"].reduce<number>((sum, v) => sum + textLength(v), 0);
      enumValues += value["enum"].length;
      stringBudget += length;
      enums.push({ pointer: at, values: value["enum"].length, length });
    }
    if (Object.hasOwn(value, "const")) stringBudget += textLength(value["const"]);
    forEachChild(value, at, (child, childAt) => pending.push({ value: child, at: childAt, level: level + 1 }));
  }
  return { properties, depth, enumValues, stringBudget, enums };
}

/** What Anthropic counts of one strict tool's schema. */
export interface StrictUsage {
  /** Properties not in their object's `required`, through nested objects, items and references. */
  readonly optionalParameters: number;
  /** Schemas with `anyOf` or a `type` array of two or more types, through references. */
  readonly unionParameters: number;
}

/**
 * Counts optional and union parameters, following each local reference at each use (around a reference cycle
 * once). `maxDepth` bounds the nesting followed, references included.
 */
export function strictUsage(schema: unknown, maxNodes: number, maxDepth: number): StrictUsage {
  let optionalParameters = 0;
  let unionParameters = 0;
  let nodes = 0;
  const visit = (value: unknown, at: string, active: ReadonlySet<string>, depth: number): void => {
    if (++nodes > maxNodes) throw new WalkLimit("maxSchemaNodes", maxNodes);
    if (depth > maxDepth) throw new WalkLimit("maxSchemaDepth", maxDepth);
    if (!isObject(value)) return;
    const properties = value["properties"];
    if (isObject(properties)) {
      const required = Array.isArray(value["required"]) ? value["required"] : [];
      optionalParameters += Object.keys(properties).filter((k) => !required.includes(k)).length;
    }
    if (Array.isArray(value["anyOf"]) || (Array.isArray(value["type"]) && value["type"].length >= 2)) unionParameters++;
    const ref = value["$ref"];
    if (typeof ref === "string" && ref.startsWith("#")) {
      const fragment = decodeFragment(ref.slice(1));
      const tokens = fragment === undefined ? undefined : parsePointer(fragment);
      const target = tokens === undefined ? undefined : getAt(schema, tokens);
      if (target !== undefined && !active.has(ref)) visit(target.value, ref, new Set([...active, ref]), depth + 1);
    }
    forEachChild(value, at, (child, childAt, keyword) => {
      if (keyword !== "$defs" && keyword !== "definitions") visit(child, childAt, active, depth + 1);
    });
  };
  visit(schema, "", new Set(), 0);
  return { optionalParameters, unionParameters };
}
