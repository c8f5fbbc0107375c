/**
 * What the references of one schema do (Core §8.2.3.1): where each local `$ref` leads, which targets are recursive
 * (inlining them would never end), and, walking from the root through references, which schema objects a reference
 * reaches from a position where accepting more is not accepting more: under `not`, `if`, `oneOf` or a bounded
 * `contains` (Core §10.2). A target is shared by every reference to it, so this is decided once for all of them;
 * the rewriting walk judges every other position by the keywords above it as rewritten.
 */

import { isObject } from "../../../engine/json/json.js";
import { appendPointer, decodeFragment, getAt, parsePointer } from "../../../engine/json/pointer.js";
import { SUBSCHEMA_POSITIONS } from "./keywords.js";

/** How accepting more in a subschema changes its parent: the same way, the opposite way, or either way. */
export type Polarity = "positive" | "negative" | "neutral";

/** The polarity of a subschema held by `keyword` in a schema object with keywords `siblings`, under `outer`. */
export function childPolarity(outer: Polarity, keyword: string, hasMaxContains: boolean): Polarity {
  if (keyword === "not") return outer === "positive" ? "negative" : outer === "negative" ? "positive" : "neutral";
  if (keyword === "if" || keyword === "oneOf") return "neutral";
  if (keyword === "contains" && hasMaxContains) return "neutral";
  return outer;
}

/** A bound the walk hit (schemas that reach a provider check are already within admission's limits). */
export class WalkLimit extends Error {
  constructor(
    readonly limit: string,
    readonly value: number,
  ) {
    super(`limit ${limit} (${value}) exceeded`);
  }
}

/** The references of one schema, resolved against the schema itself. */
export class RefGraph {
  /** Pointer of every schema object holding a `$ref`, with the `$ref` value. */
  readonly sites = new Map<string, unknown>();
  /** Schema objects a reference reaches in a non-positive position (themselves or below them). */
  readonly nonPositive = new Set<string>();
  /** Whether the schema has `unevaluatedProperties` or `unevaluatedItems` anywhere. */
  hasUnevaluated = false;
  /** Whether some `$id` below the root, or some `$ref` other than a `#…` fragment, exists. */
  hasForeignScope = false;
  private readonly recursive = new Map<string, boolean>();

  constructor(
    readonly root: unknown,
    private readonly maxDepth: number,
    private readonly maxNodes: number,
  ) {
    this.collect();
    this.walkPolarity();
  }

  /** The pointer a local reference names (`#` or `#/…`), or undefined for any other reference. */
  targetOf(ref: unknown): string | undefined {
    if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
    const fragment = decodeFragment(ref.slice(1));
    if (fragment === undefined) return undefined;
    const tokens = parsePointer(fragment);
    if (tokens === undefined) return undefined;
    const found = getAt(this.root, tokens);
    if (found === undefined || (typeof found.value !== "boolean" && !isObject(found.value))) return undefined;
    return tokens.reduce<string>((pointer, token) => appendPointer(pointer, token), "");
  }

  /** Whether some `$ref` names the schema object at `pointer`. */
  isTarget(pointer: string): boolean {
    for (const ref of this.sites.values()) if (this.targetOf(ref) === pointer) return true;
    return false;
  }

  /** The original schema at a pointer `targetOf` returned. */
  at(pointer: string): unknown {
    return getAt(this.root, parsePointer(pointer) ?? [])?.value;
  }

  /** Whether inlining the target would inline the target again (it lies on a cycle of references). */
  isRecursive(target: string): boolean {
    const known = this.recursive.get(target);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const pending = this.targetsWithin(target);
    let found = false;
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (next === target) {
        found = true;
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      pending.push(...this.targetsWithin(next));
    }
    this.recursive.set(target, found);
    return found;
  }

  /** The targets of the references inside the subschema at `pointer` (itself included). */
  private targetsWithin(pointer: string): string[] {
    const out: string[] = [];
    for (const [site, ref] of this.sites) {
      if (site !== pointer && !site.startsWith(pointer + "/")) continue;
      const target = this.targetOf(ref);
      if (target !== undefined) out.push(target);
    }
    return out;
  }

  private collect(): void {
    const pending: { value: unknown; at: string; depth: number }[] = [{ value: this.root, at: "", depth: 0 }];
    let nodes = 0;
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { value, at, depth } = next;
      if (!isObject(value)) continue;
      if (++nodes > this.maxNodes) throw new WalkLimit("maxSchemaNodes", this.maxNodes);
      if (depth > this.maxDepth) throw new WalkLimit("maxSchemaDepth", this.maxDepth);
      if (Object.hasOwn(value, "$ref")) {
        this.sites.set(at, value["$ref"]);
        if (typeof value["$ref"] !== "string" || !value["$ref"].startsWith("#")) this.hasForeignScope = true;
      }
      if (at !== "" && Object.hasOwn(value, "$id")) this.hasForeignScope = true;
      if (Object.hasOwn(value, "unevaluatedProperties") || Object.hasOwn(value, "unevaluatedItems"))
        this.hasUnevaluated = true;
      forEachChild(value, at, (child, childAt) => pending.push({ value: child, at: childAt, depth: depth + 1 }));
    }
  }

  private walkPolarity(): void {
    const seen = new Set<string>();
    const pending: { at: string; value: unknown; polarity: Polarity; viaRef: boolean }[] = [
      { at: "", value: this.root, polarity: "positive", viaRef: false },
    ];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { at, value, polarity, viaRef } = next;
      const key = `${polarity} ${viaRef} ${at}`;
      if (seen.has(key) || !isObject(value)) continue;
      if (seen.size > 6 * this.maxNodes) throw new WalkLimit("maxSchemaNodes", this.maxNodes);
      seen.add(key);
      if (viaRef && polarity !== "positive") this.nonPositive.add(at);
      const target = Object.hasOwn(value, "$ref") ? this.targetOf(value["$ref"]) : undefined;
      if (target !== undefined) pending.push({ at: target, value: this.at(target), polarity, viaRef: true });
      const hasMax = Object.hasOwn(value, "maxContains");
      forEachChild(value, at, (child, childAt, keyword) => {
        // Definitions are reached through references only.
        if (keyword === "$defs" || keyword === "definitions") return;
        pending.push({ at: childAt, value: child, polarity: childPolarity(polarity, keyword, hasMax), viaRef });
      });
    }
  }
}

/** Calls `visit` with each subschema of a schema object, its pointer and the keyword holding it. */
export function forEachChild(
  schema: Readonly<Record<string, unknown>>,
  at: string,
  visit: (child: unknown, at: string, keyword: string) => void,
): void {
  for (const keyword of Object.keys(schema)) {
    const shape = SUBSCHEMA_POSITIONS.get(keyword);
    const value = schema[keyword];
    const base = appendPointer(at, keyword);
    if (shape === "schema") visit(value, base, keyword);
    else if (shape === "array" && Array.isArray(value))
      value.forEach((v, i) => visit(v, appendPointer(base, i), keyword));
    else if (shape === "map" && isObject(value))
      for (const k of Object.keys(value)) visit(value[k], appendPointer(base, k), keyword);
  }
}
