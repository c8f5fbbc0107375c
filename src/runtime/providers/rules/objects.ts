/**
 * Rules on objects, arrays and `anyOf`: `anyOf` standing alone (its siblings moved into each branch,
 * exactly: `X ∧ (B₁ ∨ B₂)` is `(X ∧ B₁) ∨ (X ∧ B₂)`), closed objects, every property required,
 * arrays with `items`.
 * Closing an object or requiring a property would refuse arguments the tool takes: those are refused, never done.
 */

import { preview } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import { Draft, draftOf, type Child } from "../translation/draft.js";
import { merge, typeList, type Dropped } from "../translation/merge.js";
import { annotationLike, entryJson, mergingBranches, widenedMerge } from "./helpers.js";
import type { Rule } from "./rule.js";

/** `anyOf` alone: one branch merged into its parent, several given the parent's other keywords each. */
export const anyOfAlone: Rule = (draft, place, context) => {
  if (!context.profile.structure.anyOfAlone) return undefined;
  const entry = draft.get("anyOf");
  if (entry?.kind !== "array" || draft.size === 1 || context.skip(entry.at, "anyof-alone", "anyOf")) return undefined;
  const base = { rule: "anyof-alone", keyword: "anyOf", at: entry.at, message: `anyOf beside other keywords` };
  if (place.root) return { ...base, message: `${base.message}, at the root, which needs its type "object"` };
  if (entry.children.length === 1) return mergingBranches(draft, "anyOf", base, context);
  const rest = draft.clone();
  rest.delete("anyOf");
  const annotation = (k: string) => annotationLike(k, context);
  const attempt = (widen: boolean) => {
    const children: Child[] = [];
    const dropped: Dropped[] = [];
    for (const child of entry.children) {
      const branch = draftOf(child);
      if (branch === false) continue;
      if (branch === undefined) return undefined;
      const merged = merge(branch === true ? new Draft(child.at) : branch, rest, { widen, annotation });
      if (!merged.ok) return undefined;
      dropped.push(...merged.dropped);
      children.push({ value: merged.draft, at: child.at });
    }
    return children.length === 0 ? undefined : { children, dropped };
  };
  const distribute = (children: Child[]) => () => {
    const only = new Draft(draft.at);
    only.set("anyOf", { ...entry, children, synthetic: true });
    draft.adopt(only);
  };
  const exact = attempt(false);
  if (exact !== undefined) {
    const message = "moved the keywords beside anyOf into each branch";
    return { ...base, exact: { change: "anyof-siblings-distributed", message, apply: distribute(exact.children) } };
  }
  const widened = attempt(true);
  if (widened === undefined) return base;
  const done = "moved the keywords beside anyOf into each branch";
  return {
    ...base,
    message: `${base.message}, which cannot all be moved into the branches exactly`,
    widen: widenedMerge("anyof-siblings-distributed-widened", done, widened.dropped, distribute(widened.children)),
  };
};

/** Whether a schema object describes objects: its type says so, or (untyped) it has object keywords. */
function describesObjects(draft: Draft): boolean {
  const types = typeList(draft.value("type"));
  if (types !== undefined) return types.includes("object");
  return ["properties", "patternProperties", "additionalProperties", "required", "minProperties", "maxProperties"].some(
    (k) => draft.has(k),
  );
}

/** Every object schema has `additionalProperties: false`. Closing an open one would refuse arguments: refused. */
export const closedObjects: Rule = (draft, _place, context) => {
  if (!context.profile.structure.closedObjects || !describesObjects(draft)) return undefined;
  const entry = draft.get("additionalProperties");
  if (entry?.kind === "schema" && entry.child.value === false) return undefined;
  const at = entry?.at ?? appendPointer(draft.at, "additionalProperties");
  if (context.skip(at, "closed-objects", "additionalProperties")) return undefined;
  return {
    rule: "closed-objects",
    keyword: "additionalProperties",
    at,
    message:
      entry === undefined
        ? "an object schema without additionalProperties: false; adding it would refuse properties the tool accepts"
        : `additionalProperties ${preview(entryJson(entry))} must be false, refusing properties the tool takes`,
  };
};

/** Every property is required. Making an optional one required would refuse calls without it: refused. */
export const requiredAll: Rule = (draft, _place, context) => {
  if (!context.profile.structure.requiredAll || !describesObjects(draft)) return undefined;
  const properties = draft.get("properties");
  const names = properties?.kind === "map" ? [...properties.children.keys()] : [];
  const required = draft.value("required");
  const listed = Array.isArray(required) ? required : [];
  const at = draft.get("required")?.at ?? appendPointer(draft.at, "required");
  if (context.skip(at, "required-all", "required")) return undefined;
  const optional = names.find((n) => !listed.includes(n));
  const base = { rule: "required-all", keyword: "required", at };
  if (optional !== undefined)
    return {
      ...base,
      message: `property "${optional}" is optional; making every property required would refuse calls without it`,
    };
  const undeclared = listed.find((n) => !names.includes(n as string));
  if (undeclared !== undefined)
    return { ...base, message: `required names ${preview(undeclared)}, which properties does not declare` };
  return undefined;
};

/** An array schema says what its items are. */
export const arrayItems: Rule = (draft, _place, context) => {
  if (!context.profile.structure.arrayItems) return undefined;
  const types = typeList(draft.value("type"));
  if (types === undefined || !types.includes("array") || draft.has("items")) return undefined;
  const at = appendPointer(draft.at, "items");
  if (context.skip(at, "array-items", "items")) return undefined;
  return { rule: "array-items", keyword: "items", at, message: "an array schema without items" };
};
