/**
 * Rules on objects, arrays and `anyOf`: `anyOf` standing alone (its siblings moved into each branch,
 * exactly: `X ∧ (B₁ ∨ B₂)` is `(X ∧ B₁) ∨ (X ∧ B₂)`), closed objects, every property required,
 * arrays with `items`.
 * Closing an object or requiring a property refuses arguments the tool takes, so neither is exact: closing is a
 * narrowing (`narrow: true`), and so is requiring a property that accepts null already; an optional property that
 * refuses null is sent required and nullable, a null meaning "absent" (`encode: true`, undone by the call decoder).
 */

import { preview } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import { Draft, draftOf, type Child, type Entry } from "../translation/draft.js";
import { ANNOTATION_KEYWORDS } from "../translation/keywords.js";
import { merge, typeList, type Dropped } from "../translation/merge.js";
import { acceptsNull } from "../translation/null-acceptance.js";
import { keptOpen } from "./declared.js";
import { annotationLike, entryJson, mergingBranches, widenedMerge } from "./helpers.js";
import type { Finding, Rule, RuleContext } from "./rule.js";
import { TYPE_AGNOSTIC } from "./types.js";

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

/**
 * Every object schema has `additionalProperties: false`. Closing an open one refuses arguments the tool takes: a
 * narrowing, done only when asked; never where `required` names a property the object does not declare (closed, no
 * object could satisfy it), nor, for closed arguments, where it would refuse a property declared elsewhere.
 */
export const closedObjects: Rule = (draft, place, context) => {
  if (!context.profile.structure.closedObjects || !describesObjects(draft)) return undefined;
  const entry = draft.get("additionalProperties");
  if (entry?.kind === "schema" && entry.child.value === false) return undefined;
  const at = entry?.at ?? appendPointer(draft.at, "additionalProperties");
  if (context.skip(at, "closed-objects", "additionalProperties")) return undefined;
  const finding: Finding = {
    rule: "closed-objects",
    keyword: "additionalProperties",
    at,
    message:
      entry === undefined
        ? "an object schema without additionalProperties: false; adding it would refuse properties the tool accepts"
        : `additionalProperties ${preview(entryJson(entry))} must be false, refusing properties the tool takes`,
  };
  const names = declared(draft);
  const required = draft.value("required");
  if (Array.isArray(required) && required.some((n) => typeof n !== "string" || !names.includes(n))) return finding;
  // Closed arguments close only where nothing declared is refused (declared.ts); a provider's narrowing need not.
  const open = context.declaredOnly ? keptOpen(draft, place, context.graph) : undefined;
  if (open !== undefined) return { ...finding, message: open };
  const empty = names.length === 0 && !place.root;
  const close = () =>
    draft.set("additionalProperties", {
      kind: "schema",
      child: { value: false, at },
      at,
      from: draft.at,
      synthetic: true,
    });
  return {
    ...finding,
    narrow: {
      change: empty ? "map-closed" : "object-closed",
      message: empty
        ? "closed an object that declares no properties: the model can send only {} there"
        : "closed the object: the model can send only its declared properties",
      apply: close,
    },
  };
};

function declared(draft: Draft): string[] {
  const properties = draft.get("properties");
  return properties?.kind === "map" ? [...properties.children.keys()] : [];
}

/**
 * Every property is required. An optional property that accepts null is made required (a narrowing: the model
 * says "none" with null, which the tool takes as it is); one that refuses null is encoded, required and nullable;
 * one of which that cannot be told, or whose null something other than the decoder would see, is refused.
 */
export const requiredAll: Rule = (draft, _place, context) => {
  if (!context.profile.structure.requiredAll || !describesObjects(draft)) return undefined;
  const properties = draft.get("properties");
  const names = declared(draft);
  const required = draft.value("required");
  const listed = Array.isArray(required) ? required : [];
  const at = draft.get("required")?.at ?? appendPointer(draft.at, "required");
  if (context.skip(at, "required-all", "required")) return undefined;
  const optional = names.find((n) => !listed.includes(n));
  const base = { rule: "required-all", keyword: "required", at };
  if (optional !== undefined && properties?.kind === "map") {
    const message = `property "${optional}" is optional; making every property required would refuse calls without it`;
    const child = properties.children.get(optional) as Child;
    const require = () => draft.setValue("required", [...listed, optional], at);
    const nullable = acceptsNull(child, context.graph);
    if (nullable === true) {
      const done = `made "${optional}" required: it accepts null already, which the model sends for none`;
      return { ...base, message, narrow: { change: "nullable-required", at: child.at, message: done, apply: require } };
    }
    const reads = presenceReaders(draft, context);
    // A reference naming the property's schema would take the null too, where nothing decodes it.
    const shared = context.graph.isTarget(child.at);
    if (nullable === false && reads.length === 0 && !shared) {
      const encode = () => {
        require();
        const children = new Map(properties.children);
        children.set(optional, nullableChild(child));
        draft.set("properties", { ...properties, children });
        draft.markEncoded(optional);
      };
      const done = `sent "${optional}" required and nullable; the call decoder removes its null (absent, as before)`;
      return { ...base, message, encode: { change: "optional-encoded", at: child.at, message: done, apply: encode } };
    }
    if (!context.narrow && !context.encode) return { ...base, message };
    const why =
      nullable === undefined
        ? "whether it accepts null cannot be told, so a null cannot stand for its absence"
        : reads.length > 0
          ? `${reads.map((k) => `"${k}"`).join(", ")} beside it would see the null that stands for its absence`
          : "a $ref elsewhere names its schema, which would then take the null where nothing decodes it";
    return { ...base, message: `${message}; ${why}` };
  }
  const undeclared = listed.find((n) => !names.includes(n as string));
  if (undeclared !== undefined)
    return { ...base, message: `required names ${preview(undeclared)}, which properties does not declare` };
  return undefined;
};

/**
 * Keywords of an object schema that see a property only through its own subschema (`additionalProperties` applies to
 * the others, Core §10.3.2.3; `required` is rewritten with the encoding) or do not see the instance at all (Core §8).
 */
const PRESENCE_BLIND = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "$defs",
  "definitions",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
]);

/** The keywords beside `properties` that would see the null standing for an absent property. */
function presenceReaders(draft: Draft, context: RuleContext): string[] {
  return draft.keys().filter((k) => !PRESENCE_BLIND.has(k) && !annotationLike(k, context));
}

/**
 * The property's schema or null: `type` gains `"null"` where nothing else sees a null, an `anyOf` (beside
 * annotations only) gains a null branch, else `anyOf: [schema, {type: "null"}]`; a `false` schema (the property must
 * be absent) becomes `{type: "null"}`.
 */
function nullableChild(child: Child): Child {
  const d = draftOf(child);
  const none = () => {
    const only = new Draft(child.at);
    only.setValue("type", "null", child.at);
    return { value: only, at: child.at };
  };
  if (d === false) return none();
  if (d instanceof Draft) {
    const anyOf = d.get("anyOf");
    if (anyOf?.kind === "array" && d.keys().every((k) => k === "anyOf" || ANNOTATION_KEYWORDS.has(k))) {
      const copy = d.clone();
      copy.set("anyOf", { ...anyOf, children: [...anyOf.children, none()], synthetic: true });
      return { value: copy, at: child.at };
    }
    const types = typeList(d.value("type"));
    if (types !== undefined && TYPE_AGNOSTIC.every((k) => !d.has(k))) {
      const copy = d.clone();
      copy.setValue("type", [...types, "null"], (d.get("type") as Entry).at);
      return { value: copy, at: child.at };
    }
  }
  const wrapper = new Draft(child.at);
  wrapper.set("anyOf", {
    kind: "array",
    children: [child, none()],
    at: child.at,
    from: child.at,
    synthetic: true,
  });
  return { value: wrapper, at: child.at };
}

/** An array schema says what its items are. */
export const arrayItems: Rule = (draft, _place, context) => {
  if (!context.profile.structure.arrayItems) return undefined;
  const types = typeList(draft.value("type"));
  if (types === undefined || !types.includes("array") || draft.has("items")) return undefined;
  const at = appendPointer(draft.at, "items");
  if (context.skip(at, "array-items", "items")) return undefined;
  return { rule: "array-items", keyword: "items", at, message: "an array schema without items" };
};
