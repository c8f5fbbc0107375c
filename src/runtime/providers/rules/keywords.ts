/**
 * The allow-list rule (`keyword-unsupported`): a keyword the profile does not accept goes away exactly where it
 * changes no verdict (annotations, unknown keywords, keywords inert without their partner), is rewritten exactly
 * where an accepted spelling means the same (`const` → one-value `enum`, an integer `exclusiveMinimum` → `minimum`,
 * a provably disjoint `oneOf` → `anyOf`, `allOf` merged), can be dropped or loosened when widening (assertions;
 * applicators whose results nobody reads), and is refused otherwise.
 */

import { preview } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import type { Draft, Entry } from "../translation/draft.js";
import { KEYWORDS_2020_12, PLAIN_ASSERTIONS } from "../translation/keywords.js";
import { disjointBranches } from "../translation/oneof-proof.js";
import {
  acceptsAll,
  allowed,
  annotationLike,
  dropping,
  enumValueOk,
  entryJson,
  mergingBranches,
  unevaluatedSafe,
} from "./helpers.js";
import type { Finding, Place, Remedy, Rule, RuleContext } from "./rule.js";

/** Keywords other rules own: `$ref` (the reference rules), `$defs`/`definitions` (kept or dropped by the walk). */
const OWNED = new Set(["$ref", "$defs", "definitions"]);

/** Applicators that can be dropped when widening, provided `unevaluated*` reads nothing of theirs. */
const DROPPABLE_APPLICATORS = new Set([
  "items",
  "contains",
  "dependentSchemas",
  "if",
  "anyOf",
  "unevaluatedProperties",
  "unevaluatedItems",
]);

/** A keyword outside the profile's allow-list. */
export const keywordUnsupported: Rule = (draft, place, context) => {
  if (context.profile.keywords === "any") return undefined;
  for (const [keyword, entry] of draft.entriesInOrder()) {
    if (allowed(keyword, context) || OWNED.has(keyword)) continue;
    if (context.skip(entry.at, "keyword-unsupported", keyword)) continue;
    const base = {
      rule: "keyword-unsupported",
      keyword,
      at: entry.at,
      from: entry.from,
      message: `"${keyword}" is not accepted by ${context.profile.id}`,
    };
    return unsupported({ draft, keyword, entry, context, base }, place);
  }
  return undefined;
};

type Base = Omit<Finding, "exact" | "widen">;

/** A keyword the profile does not accept, in the draft the rule met it in. */
interface Offence {
  readonly draft: Draft;
  readonly keyword: string;
  readonly entry: Entry;
  readonly context: RuleContext;
  /** The refusal, before a remedy is attached. */
  readonly base: Base;
}

/** Dropped exactly where it decides no verdict, else rewritten or dropped as the keyword allows, else refused. */
function unsupported(offence: Offence, place: Place): Finding {
  return verdictFree(offence) ?? byKeyword(offence, place) ?? byKind(offence);
}

/** `$schema`, an annotation or a keyword 2020-12 does not define changes no verdict: dropped exactly. */
function verdictFree(offence: Offence): Finding | undefined {
  const { keyword, context } = offence;
  if (keyword === "$schema")
    return droppedExactly(offence, "annotation-dropped", "dropped $schema (2020-12 is the default)");
  if (annotationLike(keyword, context))
    return droppedExactly(offence, "annotation-dropped", `dropped the annotation "${keyword}"`);
  if (!KEYWORDS_2020_12.has(keyword))
    return droppedExactly(offence, "unknown-keyword-dropped", `dropped "${keyword}", which 2020-12 does not define`);
  return undefined;
}

/** The keywords with a rewrite of their own or a condition on dropping them (a table: one line per keyword). */
function byKeyword(offence: Offence, place: Place): Finding | undefined {
  switch (offence.keyword) {
    case "const":
      return constant(offence);
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return exclusive(offence);
    case "oneOf":
      return oneOf(offence);
    case "allOf":
      return mergingBranches(offence.draft, "allOf", offence.base, offence.context);
    case "$id":
      return rootId(offence, place);
    case "additionalProperties":
      return additionalProperties(offence);
    case "patternProperties":
      return patternProperties(offence);
    case "prefixItems":
      return prefixItems(offence);
    case "minContains":
    case "maxContains":
      return containsBound(offence);
    case "then":
    case "else":
      return conditionalBranch(offence);
    case "format":
    case "contentEncoding":
    case "contentMediaType":
    case "contentSchema":
    case "not":
    case "propertyNames":
      return widened(offence, `dropped "${offence.keyword}"`);
    default:
      return undefined;
  }
}

/** Any other keyword: a plain assertion widens, an applicator whose results nobody reads too; the rest is refused. */
function byKind(offence: Offence): Finding {
  const { keyword, entry, context, base } = offence;
  if (PLAIN_ASSERTIONS.has(keyword)) return widened(offence, `dropped "${keyword}" ${preview(entryJson(entry))}`);
  if (DROPPABLE_APPLICATORS.has(keyword) && unevaluatedSafe(context)) return widened(offence, `dropped "${keyword}"`);
  return base;
}

/** Removing the keyword, as a remedy. */
function drop(offence: Offence, change: string, message: string): Remedy {
  return dropping(offence.draft, offence.keyword, change, message);
}

function droppedExactly(offence: Offence, change: string, message: string): Finding {
  return { ...offence.base, exact: drop(offence, change, message) };
}

function widened(offence: Offence, message: string): Finding {
  return { ...offence.base, widen: drop(offence, "keyword-dropped", message) };
}

/** The root `$id` goes exactly when every reference is a local fragment. */
function rootId(offence: Offence, place: Place): Finding {
  if (!place.root || offence.context.graph.hasForeignScope) return offence.base;
  return droppedExactly(offence, "root-id-dropped", "dropped the root $id (every reference is a local fragment)");
}

function additionalProperties(offence: Offence): Finding {
  const { entry, context, base } = offence;
  if (acceptsAll(entry.kind === "schema" ? entry.child : undefined) && !context.graph.hasUnevaluated)
    return droppedExactly(offence, "additional-properties-dropped", "dropped additionalProperties that accepts all");
  return unevaluatedSafe(context)
    ? widened(offence, `dropped additionalProperties ${preview(entryJson(entry))}`)
    : base;
}

/** Dropping `patternProperties` widens only when `additionalProperties` does not take over its names. */
function patternProperties(offence: Offence): Finding {
  const { draft, context, base } = offence;
  const rest = draft.get("additionalProperties");
  const open = rest === undefined || acceptsAll(rest.kind === "schema" ? rest.child : undefined);
  if ((open || !allowed("additionalProperties", context)) && unevaluatedSafe(context))
    return widened(offence, "dropped patternProperties");
  return { ...base, message: `${base.message}, and dropping it would let additionalProperties refuse its names` };
}

/** Dropping `prefixItems` widens only when `items` accepts all (it would apply to the first items). */
function prefixItems(offence: Offence): Finding {
  const { draft, context, base } = offence;
  const items = draft.get("items");
  if (acceptsAll(items?.kind === "schema" ? items.child : undefined) && unevaluatedSafe(context))
    return widened(offence, "dropped prefixItems");
  return { ...base, message: `${base.message}, and dropping it would make items apply to the first items` };
}

function containsBound(offence: Offence): Finding {
  const { draft, keyword, entry, base } = offence;
  if (!draft.has("contains"))
    return droppedExactly(offence, "inert-keyword-dropped", `dropped "${keyword}" (no contains beside it)`);
  // Without minContains, contains needs one match (Validation §6.4.5): dropping `minContains: 0` narrows.
  if (keyword === "minContains" && !(typeof entryJson(entry) === "number" && (entryJson(entry) as number) >= 1))
    return base;
  return widened(offence, `dropped "${keyword}"`);
}

/** `then`/`else`: inert without `if`. */
function conditionalBranch(offence: Offence): Finding {
  const { draft, keyword, context, base } = offence;
  if (!draft.has("if"))
    return droppedExactly(offence, "inert-keyword-dropped", `dropped "${keyword}" (no if beside it)`);
  return unevaluatedSafe(context) ? widened(offence, `dropped "${keyword}"`) : base;
}

/** `const: x` is `enum: [x]` (Validation §6.1.3). */
function constant({ draft, entry, base, context }: Offence): Finding {
  const value = entryJson(entry);
  const widen = dropping(draft, "const", "keyword-dropped", `dropped const ${preview(value)}`);
  if (!allowed("enum", context) || !enumValueOk(value, context) || draft.has("enum")) return { ...base, widen };
  return {
    ...base,
    exact: {
      change: "const-to-enum",
      message: `const ${preview(value)} → enum [${preview(value)}]`,
      apply: () => {
        draft.rename("const", "enum");
        draft.setValue("enum", [value], entry.at);
      },
    },
    widen,
  };
}

/** For integers only, `exclusiveMinimum: x` is `minimum: ⌊x⌋ + 1` (and the mirror); else `minimum: x` widens. */
function exclusive({ draft, keyword, entry, base, context }: Offence): Finding {
  const x = entry.kind === "value" ? entry.value : undefined;
  const lower = keyword === "exclusiveMinimum";
  const inclusive = lower ? "minimum" : "maximum";
  const drop = dropping(draft, keyword, "keyword-dropped", `dropped ${keyword} ${preview(x)}`);
  if (typeof x !== "number" || !allowed(inclusive, context)) return { ...base, widen: drop };
  const existing = draft.value(inclusive);
  const tighter = (a: number) =>
    typeof existing !== "number" ? a : lower ? Math.max(existing, a) : Math.min(existing, a);
  const replace = (bound: number) => () => {
    draft.delete(keyword);
    draft.setValue(inclusive, tighter(bound), appendPointer(entry.from, inclusive));
  };
  const widen = {
    change: "exclusive-widened",
    message: `${keyword} ${x} → ${inclusive} ${x} (${x} itself is accepted too)`,
    dropped: { [keyword]: x },
    apply: replace(x),
  };
  const integral = lower ? Math.floor(x) + 1 : Math.ceil(x) - 1;
  if (draft.value("type") !== "integer" || !Number.isSafeInteger(integral)) return { ...base, widen };
  return {
    ...base,
    exact: {
      change: "exclusive-to-inclusive",
      message: `${keyword} ${x} → ${inclusive} ${integral} (the type is integer)`,
      apply: replace(integral),
    },
    widen,
  };
}

/** `oneOf` as `anyOf`: exact when no two branches can both match, a widening otherwise. */
function oneOf({ draft, entry, base, context }: Offence): Finding {
  if (!allowed("anyOf", context) || draft.has("anyOf") || entry.kind !== "array")
    return { ...base, widen: dropping(draft, "oneOf", "keyword-dropped", "dropped oneOf") };
  const rename = () => draft.rename("oneOf", "anyOf");
  const proof = disjointBranches(draft, entry.children, context.graph);
  const widen = {
    change: "oneof-widened",
    message: "oneOf → anyOf: an instance matching several branches is accepted too",
    apply: rename,
  };
  if (proof === undefined) return { ...base, widen };
  return { ...base, exact: { change: "oneof-to-anyof", message: `oneOf → anyOf: ${proof}`, apply: rename }, widen };
}
