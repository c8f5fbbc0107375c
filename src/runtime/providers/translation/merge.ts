/**
 * The conjunction of two schema objects as one (what inlining a `$ref` beside siblings, merging `allOf` branches or
 * distributing `anyOf` siblings need): exact when no keyword of one changes what a keyword of the other means
 * (Core §10.3.2, §11: the sibling groups) and every shared keyword has an exact meet (`required` ∪, `type` ∩,
 * `enum` ∩, the larger lower bound, the smaller upper bound). Otherwise the merge is refused, or, when widening, the
 * other schema's conflicting keyword is dropped, which can only accept more.
 */

import { jsonEqual, UNMETERED } from "../../../engine/json/json.js";
import { Draft, type Child, type Entry } from "./draft.js";
import { is2020_12, RESOURCE_KEYWORDS, SIBLING_GROUPS } from "./keywords.js";

/** A keyword the other schema loses in a widened merge. */
export interface Dropped {
  readonly keyword: string;
  readonly entry: Entry;
}

/** The merged draft and what a widened merge dropped, or the keyword that prevents an exact merge. */
export type MergeResult =
  | { readonly ok: true; readonly draft: Draft; readonly dropped: readonly Dropped[] }
  | { readonly ok: false; readonly keyword: string; readonly at: string };

/** How a merge may resolve a conflict. */
export interface MergeOptions {
  /** Drop the other schema's conflicting keyword instead of failing. */
  readonly widen: boolean;
  /** Keywords that never change a verdict (the first schema's value is kept). */
  readonly annotation: (keyword: string) => boolean;
}

/** Schema values are bounded by admission's depth limit long before this. */
const EQUAL_DEPTH = 1_000;

const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

/** `into ∧ other` as one draft (annotations of `into` win), or why not. Neither input is modified. */
export function merge(into: Draft, other: Draft, options: MergeOptions): MergeResult {
  const result = into.clone();
  const dropped: Dropped[] = [];
  const skip = new Set<string>();
  const conflict = (keyword: string, entry: Entry): MergeResult | undefined => {
    if (!options.widen) return { ok: false, keyword, at: entry.at };
    dropped.push({ keyword, entry });
    skip.add(keyword);
    return undefined;
  };
  for (const key of other.keys()) {
    if (RESOURCE_KEYWORDS.has(key)) {
      const failed = conflict(key, other.get(key) as Entry);
      if (failed !== undefined) return failed;
    }
  }
  for (const group of SIBLING_GROUPS) {
    const mine = into.keys().filter((k) => group.has(k));
    const theirs = other.keys().filter((k) => group.has(k) && !skip.has(k));
    if (mine.length === 0 || theirs.length === 0) continue;
    if ([...mine, ...theirs].every((k) => k === "properties")) continue;
    if (sameKeys(mine, theirs) && theirs.every((k) => sameEntry(into.get(k), other.get(k)))) {
      for (const k of theirs) skip.add(k);
      continue;
    }
    for (const k of theirs) {
      const failed = conflict(k, other.get(k) as Entry);
      if (failed !== undefined) return failed;
    }
  }
  for (const [key, entry] of other.entriesInOrder()) {
    if (skip.has(key)) continue;
    if (key === "$schema" && entry.kind === "value" && is2020_12(entry.value)) continue;
    const mine = result.get(key);
    if (mine === undefined) {
      result.set(key, entry);
      continue;
    }
    if (sameEntry(mine, entry) || options.annotation(key)) continue;
    const met = meet(key, mine, entry);
    if (met !== undefined) {
      result.set(key, met);
      continue;
    }
    const failed = conflict(key, entry);
    if (failed !== undefined) return failed;
  }
  return { ok: true, draft: result, dropped };
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k) => b.includes(k));
}

/** Whether two entries hold the same JSON (entries holding rewritten drafts are never judged the same). */
function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === undefined || b === undefined || a.kind !== b.kind) return false;
  const json = (e: Entry): unknown => {
    switch (e.kind) {
      case "value":
        return e.value;
      case "schema":
        return e.child.value;
      case "array":
        return e.children.map((c) => c.value);
      case "map":
        return Object.fromEntries([...e.children].map(([k, c]) => [k, c.value]));
    }
  };
  const left = json(a);
  const right = json(b);
  if (containsDraft(left) || containsDraft(right)) return false;
  return jsonEqual(left, right, EQUAL_DEPTH, UNMETERED);
}

function containsDraft(value: unknown): boolean {
  if (value instanceof Draft) return true;
  if (Array.isArray(value)) return value.some((v) => v instanceof Draft);
  if (typeof value === "object" && value !== null) return Object.values(value).some((v) => v instanceof Draft);
  return false;
}

/** The exact meet of two values of one keyword, or undefined when there is none in one keyword. */
function meet(key: string, a: Entry, b: Entry): Entry | undefined {
  const synthetic = { at: a.at, from: a.from, synthetic: true };
  if (a.kind === "value" && b.kind === "value") {
    const x = a.value;
    const y = b.value;
    if (LOWER_BOUNDS.has(key) && typeof x === "number" && typeof y === "number")
      return { ...synthetic, kind: "value", value: Math.max(x, y) };
    if (UPPER_BOUNDS.has(key) && typeof x === "number" && typeof y === "number")
      return { ...synthetic, kind: "value", value: Math.min(x, y) };
    if (key === "required" && Array.isArray(x) && Array.isArray(y))
      return { ...synthetic, kind: "value", value: [...new Set([...x, ...y])] };
    if (key === "uniqueItems" && typeof x === "boolean" && typeof y === "boolean")
      return { ...synthetic, kind: "value", value: x || y };
    if (key === "type") {
      const types = typeMeet(x, y);
      return types === undefined ? undefined : { ...synthetic, kind: "value", value: types };
    }
    if (key === "enum" && Array.isArray(x) && Array.isArray(y)) {
      const both = x.filter((v) => y.some((w) => jsonEqual(v, w, EQUAL_DEPTH, UNMETERED)));
      return both.length === 0 ? undefined : { ...synthetic, kind: "value", value: both };
    }
    return undefined;
  }
  if (key === "allOf" && a.kind === "array" && b.kind === "array")
    return { ...synthetic, kind: "array", children: [...a.children, ...b.children] };
  if (key === "properties" && a.kind === "map" && b.kind === "map") {
    const children = new Map(a.children);
    for (const [name, child] of b.children) {
      const mine = children.get(name);
      children.set(name, mine === undefined ? child : conjunction(mine, child));
    }
    return { ...synthetic, kind: "map", children };
  }
  if ((key === "$defs" || key === "definitions") && a.kind === "map" && b.kind === "map") {
    if ([...b.children.keys()].some((name) => a.children.has(name))) return undefined;
    return { ...synthetic, kind: "map", children: new Map([...a.children, ...b.children]) };
  }
  return undefined;
}

/** `allOf: [a, b]` as a new subschema standing where `a` stood. */
function conjunction(a: Child, b: Child): Child {
  const draft = new Draft(a.at);
  draft.set("allOf", { kind: "array", children: [a, b], at: a.at, from: a.at, synthetic: true });
  return { value: draft, at: a.at };
}

/** The JSON types both `type` values allow (`integer` is within `number`), or undefined when none or malformed. */
function typeMeet(x: unknown, y: unknown): string | string[] | undefined {
  const a = typeList(x);
  const b = typeList(y);
  if (a === undefined || b === undefined) return undefined;
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if ((t === "integer" && b.includes("number")) || (t === "number" && b.includes("integer")))
      out.push("integer");
  }
  const unique = [...new Set(out)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : unique;
}

/** A `type` value as a list of type names, or undefined when malformed. */
export function typeList(type: unknown): string[] | undefined {
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type as string[];
  return undefined;
}
