/**
 * Rules on keyword values: `format` values (an annotation by default, Validation §7.2.1, so an unlisted one goes
 * exactly), `enum`/`const` values, the largest `minItems`, the regular-expression features of `pattern`
 * (ECMA-262, read from its parse tree), and property names.
 */

import { preview } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import { refusedFeature } from "../translation/pattern-features.js";
import { dropping, enumValueOk, entryJson } from "./helpers.js";
import type { Rule } from "./rule.js";

/** A `format` value outside the profile's list. */
export const format: Rule = (draft, _place, context) => {
  const formats = context.profile.values.formats;
  const entry = draft.get("format");
  if (formats === undefined || entry?.kind !== "value" || typeof entry.value !== "string") return undefined;
  if (formats.has(entry.value) || context.skip(entry.at, "format", "format")) return undefined;
  const base = {
    rule: "format",
    keyword: "format",
    at: entry.at,
    message: `format ${JSON.stringify(entry.value)} is not one ${context.profile.id} accepts`,
  };
  const drop = dropping(draft, "format", "format-dropped", `dropped format ${JSON.stringify(entry.value)}`);
  return context.formatAssertion ? { ...base, widen: drop } : { ...base, exact: drop };
};

/** `enum` and `const` values of a kind the profile cannot take. */
export const enumValues: Rule = (draft, _place, context) => {
  if (context.profile.values.enumValues === "any") return undefined;
  for (const keyword of ["enum", "const"]) {
    const entry = draft.get(keyword);
    if (entry === undefined || context.skip(entry.at, "enum-values", keyword)) continue;
    const value = entryJson(entry);
    const values = keyword === "enum" ? (Array.isArray(value) ? value : []) : [value];
    const bad = values.find((v) => !enumValueOk(v, context));
    if (bad === undefined && values.length > 0) continue;
    return {
      rule: "enum-values",
      keyword,
      at: entry.at,
      message: `${keyword} value ${preview(bad)}: ${context.profile.id} takes ${context.profile.values.enumValues}`,
      widen: dropping(draft, keyword, "keyword-dropped", `dropped ${keyword} ${preview(value)}`),
    };
  }
  return undefined;
};

/** A `minItems` above what the profile takes, lowered when widening. */
export const minItems: Rule = (draft, _place, context) => {
  const max = context.profile.values.maxMinItems;
  const entry = draft.get("minItems");
  if (max === undefined || entry?.kind !== "value" || typeof entry.value !== "number" || entry.value <= max)
    return undefined;
  if (context.skip(entry.at, "min-items", "minItems")) return undefined;
  return {
    rule: "min-items",
    keyword: "minItems",
    at: entry.at,
    message: `minItems ${entry.value}: ${context.profile.id} takes at most ${max}`,
    widen: {
      change: "min-items-lowered",
      message: `minItems ${entry.value} → ${max}`,
      dropped: { minItems: entry.value },
      apply: () => draft.setValue("minItems", max, entry.at),
    },
  };
};

/** A `pattern` using a regular-expression feature the profile refuses. */
export const patternSyntax: Rule = (draft, _place, context) => {
  const rules = context.profile.values.pattern;
  const entry = draft.get("pattern");
  if (rules === undefined || entry?.kind !== "value" || typeof entry.value !== "string") return undefined;
  const feature = refusedFeature(entry.value, rules);
  if (feature === undefined || context.skip(entry.at, "pattern-syntax", "pattern")) return undefined;
  const base = { rule: "pattern-syntax", keyword: "pattern", at: entry.at };
  if (feature === "invalid") return { ...base, message: `pattern ${preview(entry.value, 80)} is not a u-mode regex` };
  return {
    ...base,
    message: `pattern ${preview(entry.value, 80)} uses a ${feature}, which ${context.profile.id} refuses`,
    widen: dropping(draft, "pattern", "keyword-dropped", `dropped pattern ${preview(entry.value, 80)}`),
  };
};

/** A property name the profile's key pattern refuses; renaming it would rewrite the arguments, so it is refused. */
export const propertyKey: Rule = (draft, _place, context) => {
  const keys = context.profile.structure.propertyKeys;
  const entry = draft.get("properties");
  if (keys === undefined || entry?.kind !== "map") return undefined;
  for (const name of entry.children.keys()) {
    const at = appendPointer(entry.at, name);
    if (keys.test(name) || context.skip(at, "property-key", "properties")) continue;
    return {
      rule: "property-key",
      keyword: "properties",
      at,
      message: `property name ${preview(name)} does not match ${String(keys)}; renaming it would change the arguments`,
    };
  }
  return undefined;
};
