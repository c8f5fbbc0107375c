/**
 * Helpers the profile rules share: what a keyword is for the current check (an annotation unless the host asserts
 * `format`/`content*`, Validation §7.2.1, §8.1), whether a profile accepts it, what `enum` values it accepts, and the
 * rewrites several rules make (dropping a keyword, merging branches into their parent).
 */

import { defineOwn, isObject } from "../../../engine/json/json.js";
import { Draft, draftOf, type Child, type Entry } from "../translation/draft.js";
import { ANNOTATION_KEYWORDS, CONTENT_KEYWORDS, FORMAT_KEYWORDS } from "../translation/keywords.js";
import { merge, type Dropped } from "../translation/merge.js";
import type { Finding, Remedy, RuleContext } from "./rule.js";

/** Whether the keyword never changes a verdict in this check. */
export function annotationLike(keyword: string, context: RuleContext): boolean {
  return (
    ANNOTATION_KEYWORDS.has(keyword) ||
    (!context.formatAssertion && FORMAT_KEYWORDS.has(keyword)) ||
    (!context.contentAssertion && CONTENT_KEYWORDS.has(keyword))
  );
}

/** Whether the profile accepts the keyword. */
export function allowed(keyword: string, context: RuleContext): boolean {
  const keywords = context.profile.keywords;
  return keywords === "any" || keywords.has(keyword);
}

/** Whether the profile accepts `value` as an `enum` or `const` value. */
export function enumValueOk(value: unknown, context: RuleContext): boolean {
  switch (context.profile.values.enumValues) {
    case "any":
      return true;
    case "primitive":
      return value === null || typeof value !== "object";
    case "string":
      return typeof value === "string";
    case "string-number":
      return typeof value === "string" || typeof value === "number";
  }
}

/** Whether dropping an applicator that annotates cannot change what `unevaluated*` sees (Core §11). */
export function unevaluatedSafe(context: RuleContext): boolean {
  return (
    !context.graph.hasUnevaluated ||
    (!allowed("unevaluatedProperties", context) && !allowed("unevaluatedItems", context))
  );
}

/** JSON for a draft or an original value (for `dropped` and messages; rewritten parts shown as they stand). */
function toJson(value: unknown): unknown {
  if (value instanceof Draft) {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of value.entriesInOrder()) defineOwn(out, key, entryJson(entry));
    return out;
  }
  return value;
}

/** The JSON of one entry. */
export function entryJson(entry: Entry): unknown {
  switch (entry.kind) {
    case "value":
      return entry.value;
    case "schema":
      return toJson(entry.child.value);
    case "array":
      return entry.children.map((c) => toJson(c.value));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [key, child] of entry.children) defineOwn(out, key, toJson(child.value));
      return out;
    }
  }
}

/** The remedy of a widened merge: `done`, dropping what it lists (each with its pointer and value). */
export function widenedMerge(change: string, done: string, dropped: readonly Dropped[], apply: () => void): Remedy {
  return {
    change,
    message: `${done}, dropping ${dropped.map((d) => `"${d.keyword}" at ${d.entry.at}`).join(", ")}`,
    dropped: dropped.map((d) => ({ pointer: d.entry.at, keyword: d.keyword, value: entryJson(d.entry) })),
    apply,
  };
}

/** A remedy that removes one keyword. */
export function dropping(draft: Draft, keyword: string, change: string, message: string): Remedy {
  const entry = draft.get(keyword);
  return {
    change,
    message,
    ...(entry === undefined ? {} : { dropped: entryJson(entry) }),
    apply: () => draft.delete(keyword),
  };
}

/** Whether a child is `true` or `{}` (accepts everything). */
export function acceptsAll(child: Child | undefined): boolean {
  if (child === undefined) return true;
  const value = child.value;
  if (value === true) return true;
  if (value instanceof Draft) return value.size === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/**
 * The finding for a combinator whose branches must go into their parent (`allOf`, a single `anyOf`/`oneOf`
 * branch): merged exactly when they can be, else merged widened (the later schema's conflicting keyword dropped).
 */
export function mergingBranches(
  draft: Draft,
  keyword: string,
  base: Omit<Finding, "exact" | "widen">,
  context: RuleContext,
): Finding {
  const entry = draft.get(keyword);
  const children = entry?.kind === "array" ? entry.children : undefined;
  if (children === undefined) return base;
  type Attempt = { ok: true; draft: Draft; dropped: Dropped[] } | { ok: false; keyword: string; at: string };
  const attempt = (widen: boolean): Attempt => {
    let acc = draft.clone();
    acc.delete(keyword);
    const dropped: Dropped[] = [];
    for (const child of children) {
      const branch = draftOf(child);
      if (branch === true) continue;
      if (branch === false || branch === undefined) return { ok: false, keyword, at: child.at };
      const merged = merge(acc, branch, { widen, annotation: (k) => annotationLike(k, context) });
      if (!merged.ok) return merged;
      acc = merged.draft;
      dropped.push(...merged.dropped);
    }
    return { ok: true, draft: acc, dropped };
  };
  const exact = attempt(false);
  if (exact.ok) {
    return {
      ...base,
      exact: {
        change: `${keyword.toLowerCase()}-merged`,
        message: `merged the ${keyword} branches into their schema (no keyword of one changes another)`,
        apply: () => draft.adopt(exact.draft),
      },
    };
  }
  const widened = attempt(true);
  const why = `${base.message}; "${exact.keyword}" at ${exact.at} cannot be merged exactly`;
  if (!widened.ok) return { ...base, message: why };
  const done = `merged the ${keyword} branches`;
  const apply = () => draft.adopt(widened.draft);
  return {
    ...base,
    message: why,
    widen: widenedMerge(`${keyword.toLowerCase()}-merged-widened`, done, widened.dropped, apply),
  };
}
