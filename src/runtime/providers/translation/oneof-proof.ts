/**
 * When `oneOf` accepts exactly what `anyOf` accepts (Core §10.2.1.2–3): when no instance can match two branches.
 * Proven only from what the branches say outright: disjoint `type`s, disjoint `const`/`enum` values, or (for objects)
 * one required property whose `const`/`enum` values differ between branches — a discriminated union.
 */

import { isObject, jsonEqual, UNMETERED } from "../../../engine/json/json.js";
import { Draft, type Child } from "./draft.js";
import { typeList } from "./merge.js";
import type { RefGraph } from "./ref-graph.js";

const EQUAL_DEPTH = 1_000;

/** Why the branches are pairwise disjoint, or undefined when that cannot be shown. */
export function disjointBranches(parent: Draft, children: readonly Child[], graph: RefGraph): string | undefined {
  const views: (Record<string, unknown> | boolean)[] = [];
  for (const child of children) {
    const view = rawView(child.value, graph);
    if (view === undefined) return undefined;
    views.push(view);
  }
  const live = views.filter((v) => v !== false);
  if (live.length <= 1) return "at most one branch can match anything";
  const objects: Record<string, unknown>[] = [];
  for (const view of live) {
    if (view === true) return undefined;
    objects.push(view);
  }
  const types = objects.map((o) => typeList(o["type"]));
  if (pairwise(types, (a, b) => a !== undefined && b !== undefined && !typesOverlap(a, b)))
    return "their types are disjoint";
  const values = objects.map((o) => constants(o));
  if (pairwise(values, disjointValues)) return "their const/enum values are distinct";
  const onlyObjects =
    parent.value("type") === "object" || types.every((t) => t !== undefined && t.length === 1 && t[0] === "object");
  if (!onlyObjects) return undefined;
  const first = objects[0] as Record<string, unknown>;
  const names = isObject(first["properties"]) ? Object.keys(first["properties"]) : [];
  for (const name of names) {
    const tags = objects.map((o) => discriminator(o, name, graph));
    if (pairwise(tags, disjointValues)) return `the required property "${name}" has distinct values in each branch`;
  }
  return undefined;
}

/** The original JSON of a branch, through one `$ref`-only indirection; undefined for rewritten drafts. */
function rawView(value: unknown, graph: RefGraph): Record<string, unknown> | boolean | undefined {
  if (value instanceof Draft) return undefined;
  if (typeof value === "boolean") return value;
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$ref") {
    const target = graph.targetOf(value["$ref"]);
    if (target === undefined) return undefined;
    const resolved = graph.at(target);
    return typeof resolved === "boolean" || isObject(resolved) ? resolved : undefined;
  }
  return value;
}

function typesOverlap(a: readonly string[], b: readonly string[]): boolean {
  const numeric = (t: string) => t === "number" || t === "integer";
  return a.some((x) => b.some((y) => x === y || (numeric(x) && numeric(y))));
}

/** The values `const` or `enum` allow, or undefined when the schema allows more than a list. */
function constants(schema: Record<string, unknown>): unknown[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema["const"]];
  if (Array.isArray(schema["enum"])) return schema["enum"];
  return undefined;
}

function discriminator(schema: Record<string, unknown>, name: string, graph: RefGraph): unknown[] | undefined {
  const required = schema["required"];
  const properties = schema["properties"];
  if (!Array.isArray(required) || !required.includes(name) || !isObject(properties)) return undefined;
  if (!Object.hasOwn(properties, name)) return undefined;
  const view = rawView(properties[name], graph);
  return isObject(view) ? constants(view) : undefined;
}

function disjointValues(a: unknown[] | undefined, b: unknown[] | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return !a.some((x) => b.some((y) => jsonEqual(x, y, EQUAL_DEPTH, UNMETERED)));
}

function pairwise<T>(items: readonly T[], disjoint: (a: T, b: T) => boolean): boolean {
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) if (!disjoint(items[i] as T, items[j] as T)) return false;
  return true;
}
