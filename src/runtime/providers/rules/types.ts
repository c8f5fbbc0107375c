/**
 * Types and null (Validation §6.1.1), with OpenAPI's `nullable` where the profile speaks it: a `type` array becomes
 * one type, `[T, "null"]` becomes `nullable`, or several types become `anyOf` with one branch each
 * (`{type: [A, B], …}` is `anyOf: [{type: A, …}, {type: B, …}]`); a null `anyOf` branch becomes `nullable` on
 * another branch.
 */

import { isObject, preview } from "../../../engine/json/json.js";
import { Draft, draftOf, type Child, type Entry } from "../translation/draft.js";
import { merge, typeList } from "../translation/merge.js";
import { allowed, annotationLike, dropping, entryJson } from "./helpers.js";
import type { Finding, Rule, RuleContext } from "./rule.js";

/** Keywords that apply to an instance whatever its type (Validation §6.1, Core §10.2): they also see a null. */
export const TYPE_AGNOSTIC: readonly string[] = [
  "enum",
  "const",
  "anyOf",
  "allOf",
  "oneOf",
  "not",
  "if",
  "$ref",
  "$dynamicRef",
];

/** `type` arrays the profile cannot take: one type, `[T, "null"]` as `nullable`, or one `anyOf` branch per type. */
export const typeArray: Rule = (draft, _place, context) => {
  const mode = context.profile.values.typeArrays;
  if (mode === "any") return undefined;
  const entry = draft.get("type");
  if (entry?.kind !== "value" || !Array.isArray(entry.value) || context.skip(entry.at, "type-array", "type"))
    return undefined;
  const list = typeList(entry.value);
  const base = {
    rule: "type-array",
    keyword: "type",
    at: entry.at,
    message: `type ${preview(entry.value)}: ${context.profile.id} takes ${mode === "none" ? "one" : "one, [T, null]"}`,
  };
  if (list === undefined) return base;
  const found: TypeArray = { draft, entry, types: [...new Set(list)], base, context };
  if (found.types.length === 1) return unwrapped(found);
  const others = found.types.filter((t) => t !== "null");
  const single = others.length === 1 && others.length < found.types.length ? (others[0] as string) : undefined;
  if (single !== undefined && mode === "null-pair") return undefined;
  const pair = single !== undefined && context.profile.values.nullable ? nullablePair(found, single) : undefined;
  return pair ?? splitting(found);
};

/** A `type` array the profile refuses, in the draft the rule met it in. */
interface TypeArray {
  readonly draft: Draft;
  /** The `type` entry. */
  readonly entry: Entry;
  /** Its types, each once, in their order. */
  readonly types: readonly string[];
  /** The refusal, before a remedy is attached. */
  readonly base: Finding;
  readonly context: RuleContext;
}

/** `type: [T]` (or `[T, T]`) is `type: T`. */
function unwrapped({ draft, entry, types, base }: TypeArray): Finding {
  const message = `type [${JSON.stringify(types[0])}] → ${JSON.stringify(types[0])}`;
  return {
    ...base,
    exact: { change: "type-array-unwrapped", message, apply: () => draft.setValue("type", types[0], entry.at) },
  };
}

/**
 * `type: [T, "null"]` as `type: T, nullable: true` where nothing else sees the null; as `type: T` where only an
 * `enum`/`const` that excludes null does; undefined otherwise.
 */
function nullablePair({ draft, entry, base }: TypeArray, single: string): Finding | undefined {
  const agnostic = TYPE_AGNOSTIC.filter((k) => draft.has(k));
  if (agnostic.length === 0) {
    const apply = () => {
      draft.setValue("type", single, entry.at);
      draft.setValue("nullable", true, entry.at);
    };
    const message = `type [${JSON.stringify(single)}, "null"] → type ${JSON.stringify(single)}, nullable: true`;
    return { ...base, exact: { change: "type-null-to-nullable", message, apply } };
  }
  if (agnostic.every((k) => k === "enum" || k === "const") && !valuesAdmitNull(draft)) {
    const message = `type [${JSON.stringify(single)}, "null"] → ${JSON.stringify(single)}: enum/const exclude null`;
    return {
      ...base,
      exact: { change: "null-type-unreachable", message, apply: () => draft.setValue("type", single, entry.at) },
    };
  }
  return undefined;
}

function valuesAdmitNull(draft: Draft): boolean {
  const values = draft.has("const") ? [draft.value("const")] : draft.value("enum");
  return !Array.isArray(values) || values.includes(null);
}

/** Several types as `anyOf` with one branch each (`nullable` on the first where the profile has no null type). */
function splitting({ draft, entry, types, base, context }: TypeArray): Finding {
  const { nullable, nullType } = context.profile.values;
  if (!allowed("anyOf", context) || draft.has("anyOf")) return base;
  const hasNull = types.includes("null");
  if (hasNull && !nullType && (!nullable || TYPE_AGNOSTIC.some((k) => draft.has(k)))) return base;
  const branchTypes = hasNull && !nullType ? types.filter((t) => t !== "null") : types;
  const alone = context.profile.structure.anyOfAlone;
  const apply = () => {
    const kept = new Draft(draft.at);
    const moved: [string, Entry][] = [];
    for (const [k, e] of draft.entriesInOrder()) {
      if (k === "type") continue;
      if (!alone && annotationLike(k, context)) kept.set(k, e);
      else moved.push([k, e]);
    }
    const children: Child[] = branchTypes.map((t, i) => {
      const branch = new Draft(draft.at);
      for (const [k, e] of moved) branch.set(k, e);
      branch.setValue("type", t, entry.at);
      if (hasNull && !nullType && i === 0) branch.setValue("nullable", true, entry.at);
      return { value: branch, at: draft.at };
    });
    kept.set("anyOf", { kind: "array", children, at: entry.at, from: draft.at, synthetic: true });
    draft.adopt(kept);
  };
  return {
    ...base,
    exact: { change: "type-array-to-anyof", message: `type ${preview(types)} → anyOf, one branch per type`, apply },
  };
}

/** Null without a `null` type: a null `anyOf` branch becomes `nullable` on another; a `type: "null"` is refused. */
export const typeNull: Rule = (draft, _place, context) => {
  const values = context.profile.values;
  if (values.nullType) return undefined;
  const written = draft.get("nullable");
  if (
    values.nullable &&
    written !== undefined &&
    !written.synthetic &&
    !context.skip(written.at, "type-null", "nullable")
  )
    return {
      rule: "type-null",
      keyword: "nullable",
      at: written.at,
      message: "nullable is not a 2020-12 keyword (an annotation here), but the provider reads it as accepting null",
      exact: dropping(draft, "nullable", "foreign-keyword-dropped", "dropped nullable (an annotation in 2020-12)"),
    };
  const anyOf = draft.get("anyOf");
  if (values.nullable && anyOf?.kind === "array" && !context.skip(anyOf.at, "type-null", "anyOf")) {
    const finding = nullBranch(draft, anyOf, context);
    if (finding !== undefined) return finding;
  }
  const type = draft.get("type");
  if (type?.kind !== "value" || type.value !== "null" || context.skip(type.at, "type-null", "type")) return undefined;
  return {
    rule: "type-null",
    keyword: "type",
    at: type.at,
    message: `type "null": ${context.profile.id} has no null type`,
    widen: dropping(draft, "type", "keyword-dropped", `dropped type "null"`),
  };
};

function nullBranch(draft: Draft, entry: Entry & { kind: "array" }, context: RuleContext): Finding | undefined {
  const isNull = (c: Child) => {
    const d = draftOf(c);
    return (
      d instanceof Draft &&
      d.value("type") === "null" &&
      d.keys().every((k) => k === "type" || annotationLike(k, context))
    );
  };
  if (!entry.children.some(isNull)) return undefined;
  const base = {
    rule: "type-null",
    keyword: "anyOf",
    at: entry.at,
    message: `an anyOf branch of type "null": ${context.profile.id} says null with nullable`,
  };
  const others = entry.children.filter((c) => !isNull(c));
  const nullableAt = (index: number, without: readonly string[]) => () => {
    const children = others.map((c, i) => {
      if (i !== index) return c;
      const branch = (draftOf(c) as Draft).clone();
      for (const k of without) branch.delete(k);
      branch.setValue("nullable", true, entry.at);
      return { value: branch, at: c.at };
    });
    draft.set("anyOf", { ...entry, children, synthetic: true });
    // `anyOf: [X]` is X: merged into its schema when that is exact (else the one branch stays).
    const only = children.length === 1 ? draftOf(children[0] as Child) : undefined;
    if (!(only instanceof Draft)) return;
    const rest = draft.clone();
    rest.delete("anyOf");
    const merged = merge(rest, only, { widen: false, annotation: (k) => annotationLike(k, context) });
    if (merged.ok) draft.adopt(merged.draft);
  };
  const index = others.findIndex((c) => nullableBranch(c, context));
  if (index >= 0) {
    const message = `anyOf [T, {type: "null"}] → T with nullable: true`;
    return { ...base, exact: { change: "anyof-null-to-nullable", message, apply: nullableAt(index, []) } };
  }
  // OpenAPI 3.0.3 lets `enum` refuse a null that `nullable` admits: an enum branch takes `nullable` only without it.
  const listed = others.findIndex((c) => nullableBranch(c, context, ["enum", "const"]));
  if (listed < 0) return base;
  const branch = draftOf(others[listed] as Child) as Draft;
  const dropped = ["enum", "const"].filter((k) => branch.has(k));
  return {
    ...base,
    message: `${base.message}, and an enum beside nullable may still refuse null (OpenAPI 3.0.3)`,
    widen: {
      change: "anyof-null-to-nullable-widened",
      message: `anyOf [T, {type: "null"}] → T with nullable: true, dropping ${dropped.join(", ")}`,
      dropped: Object.fromEntries(dropped.map((k) => [k, entryJson(branch.get(k) as Entry)])),
      apply: nullableAt(listed, dropped),
    },
  };
}

/**
 * A branch that can carry `nullable: true` meaning "or null": one non-null type and nothing that also sees a null
 * (but the keywords `ignoring` names, which the caller drops).
 */
function nullableBranch(child: Child, context: RuleContext, ignoring: readonly string[] = []): boolean {
  const d = draftOf(child);
  if (!(d instanceof Draft) || d.has("nullable")) return false;
  if (d.size === 1 && d.has("$ref")) {
    if (ignoring.length > 0) return false;
    const target = context.graph.targetOf(d.value("$ref"));
    const raw = target === undefined ? undefined : context.graph.at(target);
    return isObject(raw) && nullableBranch({ value: raw, at: target as string }, context);
  }
  const types = typeList(d.value("type"));
  const seesNull = TYPE_AGNOSTIC.some((k) => d.has(k) && !ignoring.includes(k));
  return types?.length === 1 && types[0] !== "null" && !seesNull;
}
