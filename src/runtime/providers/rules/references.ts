/**
 * The dialect rule and the reference rules: a `$schema` other than 2020-12 cannot be sent as it means something
 * else (Core §8.1.1); a `$ref` (Core §8.2.3.1) the provider cannot take as it stands is inlined when its target is
 * not recursive (the conjunction of the target and the `$ref`'s siblings, exactly), and otherwise refused.
 */

import { preview } from "../../../engine/json/json.js";
import { Draft } from "../translation/draft.js";
import { is2020_12, PLAIN_ASSERTIONS } from "../translation/keywords.js";
import { merge } from "../translation/merge.js";
import { annotationLike, dropping, entryJson, widenedMerge } from "./helpers.js";
import type { Finding, Place, Rule, RuleContext } from "./rule.js";

/** `$schema` must mean 2020-12: a draft-07 schema is upgraded first (`draft07: "upgrade"`), never reinterpreted. */
export const dialect: Rule = (draft, _place, context) => {
  const entry = draft.get("$schema");
  if (entry === undefined || (entry.kind === "value" && is2020_12(entry.value))) return undefined;
  if (context.skip(entry.at, "dialect", "$schema")) return undefined;
  return {
    rule: "dialect",
    keyword: "$schema",
    at: entry.at,
    message: `$schema ${preview(entryJson(entry), 80)} is not JSON Schema 2020-12 (upgrade a draft-07 schema first)`,
  };
};

/** Why the `$ref` of this draft cannot stay as it is, or undefined when it can. */
function inlineReason(draft: Draft, place: Place, context: RuleContext): string | undefined {
  const s = context.profile.structure;
  if (s.refs === "inline") return "recursion";
  if (s.noRefInAllOf && place.via === "allOf") return "ref-in-allof";
  if (offendingSiblings(draft, context).length > 0) return "ref-siblings";
  return undefined;
}

function offendingSiblings(draft: Draft, context: RuleContext): string[] {
  const mode = context.profile.structure.refSiblings;
  if (mode === "any") return [];
  return draft.keys().filter((k) => k !== "$ref" && (mode === "none" || !k.startsWith("$")));
}

const WHY: Readonly<Record<string, string>> = Object.freeze({
  recursion: "the provider takes no $ref",
  "ref-in-allof": "the provider takes no $ref as an allOf branch",
  "ref-siblings": "the provider takes no keyword beside $ref",
});

/** A `$ref` the profile cannot send as it is: inlined, or its siblings dropped, or refused. */
export const references: Rule = (draft, place, context) => {
  if (context.profile.structure.refs === "pass") return undefined;
  const entry = draft.get("$ref");
  if (entry === undefined || entry.kind !== "value") return undefined;
  const ref = entry.value;
  const target = context.graph.targetOf(ref);
  if (target === undefined) {
    if (context.skip(entry.at, "ref-local", "$ref")) return undefined;
    return {
      rule: "ref-local",
      keyword: "$ref",
      at: entry.at,
      message: `$ref ${preview(ref, 80)} is not a JSON Pointer into this schema; only those can be checked and sent`,
    };
  }
  const site = { draft, place, context, at: entry.at, ref, target, recursive: context.graph.isRecursive(target) };
  const reason = inlineReason(draft, place, context);
  if (reason === undefined) return keptRef(site);
  if (context.skip(entry.at, reason, "$ref")) return undefined;
  if (!site.recursive) return inlining(site, reason);
  if (reason === "ref-siblings") {
    const sibling = offendingSiblings(draft, context).find(
      (k) => !context.skip(draft.get(k)?.at ?? entry.at, reason, k),
    );
    if (sibling !== undefined) return droppingSibling(site, sibling);
  }
  const message = `$ref ${preview(ref, 80)} is recursive, so it cannot be inlined, and ${WHY[reason]}`;
  return { rule: reason, keyword: "$ref", at: entry.at, message };
};

/** A `$ref` the reference rules examine: the draft holding it, where that sits, and what it names. */
interface RefSite {
  readonly draft: Draft;
  readonly place: Place;
  readonly context: RuleContext;
  /** The `$ref`'s pointer in the original schema. */
  readonly at: string;
  /** The `$ref`'s value. */
  readonly ref: unknown;
  /** The target's pointer in the original schema. */
  readonly target: string;
  readonly recursive: boolean;
}

/** A non-recursive `$ref` the profile cannot take as it stands (`rule` says why): inlined, exactly or widened. */
function inlining({ draft, context, at, target, ref: value }: RefSite, rule: string): Finding {
  const base = { rule, keyword: "$ref", at };
  const ref = String(value);
  const why = `${WHY[rule]}`;
  const raw = context.graph.at(target);
  const rest = draft.clone();
  rest.delete("$ref");
  if (raw === false) return { ...base, message: `$ref ${preview(ref, 80)} names the false schema, and ${why}` };
  const targetDraft = raw === true ? new Draft(target) : Draft.of(raw as Record<string, unknown>, target);
  const annotation = (k: string) => annotationLike(k, context);
  const exact = merge(rest, targetDraft, { widen: false, annotation });
  if (exact.ok) {
    return {
      ...base,
      message: why,
      exact: {
        change: "ref-inlined",
        message: `inlined $ref "${ref}" (its target is not recursive)`,
        apply: () => draft.adopt(exact.draft),
      },
    };
  }
  const conflict = `${why}, and inlining it is not exact: "${exact.keyword}" at ${exact.at} conflicts with a sibling`;
  const widened = merge(rest, targetDraft, { widen: true, annotation });
  if (!widened.ok) return { ...base, message: conflict };
  const apply = () => draft.adopt(widened.draft);
  return {
    ...base,
    message: conflict,
    widen: widenedMerge("ref-inlined-widened", `inlined $ref "${ref}"`, widened.dropped, apply),
  };
}

/** A sibling of a recursive `$ref`: an annotation goes exactly, an assertion only when widening. */
function droppingSibling({ draft, context, at: refAt }: RefSite, sibling: string): Finding {
  const entry = draft.get(sibling);
  const base = {
    rule: "ref-siblings",
    keyword: sibling,
    at: entry?.at ?? refAt,
    message: `"${sibling}" beside a recursive $ref, which the provider refuses`,
  };
  if (annotationLike(sibling, context))
    return {
      ...base,
      exact: dropping(draft, sibling, "ref-sibling-dropped", `dropped the annotation "${sibling}" beside $ref`),
    };
  if (PLAIN_ASSERTIONS.has(sibling))
    return { ...base, widen: dropping(draft, sibling, "keyword-dropped", `dropped "${sibling}" beside $ref`) };
  return base;
}

/** A `$ref` that stays: the profile's recursion rule. */
function keptRef({ place, context, at, recursive }: RefSite): Finding | undefined {
  const rule = context.profile.structure.recursion;
  if (!recursive || rule === "allowed" || context.skip(at, "recursion", "$ref")) return undefined;
  const optionalProperty =
    place.via === "properties" && place.key !== undefined && !(place.parentRequired ?? []).includes(place.key);
  if (rule === "optional-properties" && optionalProperty) return undefined;
  return {
    rule: "recursion",
    keyword: "$ref",
    at,
    message:
      rule === "none"
        ? "a recursive $ref: the provider refuses recursive schemas"
        : "a recursive $ref that is not the schema of a non-required property (the only place recursion is unrolled)",
  };
}
