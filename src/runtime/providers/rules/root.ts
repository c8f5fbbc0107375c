/**
 * The root's shape: `type: "object"` (for an input schema a missing one is added, as the boundary reads it), and
 * the combinators a provider refuses there (an `allOf` or a one-branch combinator merged, exactly; `required`-only
 * lists dropped, only when widening).
 */

import { isObject, preview } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import { annotationLike, dropping, entryJson, mergingBranches } from "./helpers.js";
import type { Rule, RuleContext } from "./rule.js";

/** The root says `type: "object"`; for an input schema a missing root type is added, as the boundary reads it. */
export const rootType: Rule = (draft, place, context) => {
  if (!place.root || !context.profile.structure.rootType) return undefined;
  const entry = draft.get("type");
  const at = entry?.at ?? appendPointer(draft.at, "type");
  if (context.skip(at, "root-type", "type")) return undefined;
  const base = { rule: "root-type", keyword: "type", at, message: `the root must be type "object"` };
  const set = (change: string, message: string) => ({
    ...base,
    exact: { change, message, apply: () => draft.setValue("type", "object", at) },
  });
  if (entry === undefined) {
    if (context.field !== "inputSchema") return { ...base, message: `the root has no type "object"` };
    // A `$ref: "#"` applies the root below it too, where the boundary requires nothing: adding a type there narrows.
    if (context.graph.isTarget(""))
      return { ...base, message: `the root has no type "object", and a $ref reuses the root, where adding it narrows` };
    // docs/guide/boundary.md: a root without `type` still requires the arguments to be an object.
    return set("root-type-added", `added type "object" at the root (the boundary accepts object arguments only)`);
  }
  const value = entryJson(entry);
  if (value === "object") return undefined;
  if (Array.isArray(value) && value.length === 1 && value[0] === "object")
    return set("root-type-unwrapped", `type ["object"] → "object"`);
  return { ...base, message: `the root's type is ${preview(value)}, not "object"` };
};

/** Combinators the root may not have: an `allOf` or one-branch combinator merged; `required`-only lists dropped. */
export const rootCombinator: Rule = (draft, place, context) => {
  if (!place.root) return undefined;
  for (const keyword of context.profile.structure.rootCombinators) {
    const entry = draft.get(keyword);
    if (entry === undefined || context.skip(entry.at, "root-combinator", keyword)) continue;
    const base = { rule: "root-combinator", keyword, at: entry.at, message: `"${keyword}" at the root` };
    if (keyword === "allOf") return mergingBranches(draft, keyword, base, context);
    if ((keyword === "anyOf" || keyword === "oneOf") && entry.kind === "array") {
      if (entry.children.length === 1) return mergingBranches(draft, keyword, base, context);
      if (entry.children.every((c) => requiredOnly(c.value, context))) {
        const message = `dropped the root ${keyword} of required lists (the boundary still checks which must be given)`;
        return { ...base, widen: dropping(draft, keyword, "root-combinator-dropped", message) };
      }
      return { ...base, message: `${base.message}, with branches that say more than which properties are required` };
    }
    return { ...base, widen: dropping(draft, keyword, "keyword-dropped", `dropped "${keyword}" at the root`) };
  }
  return undefined;
};

function requiredOnly(value: unknown, context: RuleContext): boolean {
  return isObject(value) && Object.keys(value).every((k) => k === "required" || annotationLike(k, context));
}
