/**
 * What the upgrade knows about each keyword: which keywords of draft-04 constrain an instance (Validation draft-04
 * §5), which keywords only 2020-12 defines (and what they would do there), and the value every kept keyword must have
 * for the 2020-12 meta-schema to accept it. dialects.ts assembles these per dialect.
 */
import { errorMessage } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { parsePattern } from "../../../engine/regex/parser.js";

/** Draft-04 keywords that assert or apply subschemas (later drafts add theirs): dropped beside `$ref`, one is lost. */
export const CLASSIC_CONSTRAINTS: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "items",
  "additionalItems",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "dependencies",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
]);

/**
 * Keywords that 2020-12 (or its meta-schema) gives a meaning or a value constraint and draft-07 (so no draft before
 * it) does not define: drafts 04–07 ignore them, so each is dropped, with what it would do in 2020-12. `$defs` is not
 * here: a `$ref` can point into it, so it is translated. An annotation (`ANNOTATIONS`) is kept when 2020-12
 * accepts its value.
 */
export const NEWER_THAN_CLASSIC: ReadonlyMap<string, string> = new Map([
  ["$anchor", "name this schema for $ref"],
  ["$dynamicAnchor", "name this schema for $ref and $dynamicRef"],
  ["$dynamicRef", "apply the schema it names"],
  ["$recursiveRef", "be checked as a reference (2019-09 applied it)"],
  ["$recursiveAnchor", "have to be an anchor name (2019-09 gave it dynamic scope)"],
  ["$vocabulary", "select the vocabularies of a meta-schema"],
  ["prefixItems", "constrain array items"],
  ["unevaluatedItems", "constrain array items"],
  ["unevaluatedProperties", "constrain object properties"],
  ["dependentSchemas", "constrain objects"],
  ["dependentRequired", "constrain objects"],
  ["minContains", "constrain arrays"],
  ["maxContains", "constrain arrays"],
  ["contentSchema", "hold a subschema whose $id and anchors count"],
  ["deprecated", "have to be a boolean"],
]);

/**
 * Keywords that only annotate in 2020-12 (Validation §9): where the source dialect does not define one, it is kept
 * when 2020-12 accepts its value (no verdict changes) and dropped otherwise; what 2020-12 requires of each.
 */
export const ANNOTATIONS: ReadonlyMap<string, string> = new Map([
  ["deprecated", "have to be a boolean"],
  ["readOnly", "have to be a boolean"],
  ["writeOnly", "have to be a boolean"],
  ["$comment", "have to be a string"],
  ["examples", "have to be an array"],
]);

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isString = (v: unknown): boolean => typeof v === "string";
const isBoolean = (v: unknown): boolean => typeof v === "boolean";

/** True for an array of distinct strings (`stringArray` in both meta-schemas). */
export function isStringSet(v: unknown): boolean {
  return Array.isArray(v) && v.every(isString) && new Set(v).size === v.length;
}

/** Why `source` is not an ECMA-262 `u` regular expression (Validation §4.3), or undefined. */
export function regexProblem(source: string): string | undefined {
  try {
    parsePattern(source);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

function typeProblem(v: unknown): string | undefined {
  const names = Array.isArray(v) ? v : [v];
  const known = names.length > 0 && names.every((n) => typeof n === "string" && SIMPLE_TYPES.has(n));
  if (!known || new Set(names).size !== names.length) return "must be a type name or a non-empty set of them";
  return undefined;
}

/** Kept keywords whose value the 2020-12 meta-schema constrains (Validation §6, §7, §8, §9). */
const VALUE_RULES: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map([
  ["type", typeProblem],
  ["enum", (v) => (Array.isArray(v) ? undefined : "must be an array")],
  ["multipleOf", (v) => (isNumber(v) && (v as number) > 0 ? undefined : "must be a number greater than 0")],
  ...["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"].map(
    (k) => [k, (v: unknown) => (isNumber(v) ? undefined : "must be a number")] as const,
  ),
  ...["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"].map(
    (k) => [k, (v: unknown) => (isCount(v) ? undefined : "must be a non-negative integer")] as const,
  ),
  ["pattern", (v) => (typeof v === "string" ? regexProblem(v) : "must be a string")],
  ["uniqueItems", (v) => (isBoolean(v) ? undefined : "must be a boolean")],
  ["required", (v) => (isStringSet(v) ? undefined : "must be an array of distinct strings")],
  ...["format", "contentMediaType", "contentEncoding", "$comment", "title", "description"].map(
    (k) => [k, (v: unknown) => (isString(v) ? undefined : "must be a string")] as const,
  ),
  ...["readOnly", "writeOnly"].map(
    (k) => [k, (v: unknown) => (isBoolean(v) ? undefined : "must be a boolean")] as const,
  ),
  ["examples", (v) => (Array.isArray(v) ? undefined : "must be an array")],
  ["deprecated", (v) => (isBoolean(v) ? undefined : "must be a boolean")],
  // Kept from 2019-09 only (the classic drafts drop them): Core 2019-09 §8.1.2, Validation 2019-09 §6.4.4-5, §6.5.4.
  ...["minContains", "maxContains"].map(
    (k) => [k, (v: unknown) => (isCount(v) ? undefined : "must be a non-negative integer")] as const,
  ),
  [
    "dependentRequired",
    (v) =>
      isObject(v) && Object.keys(v).every((k) => isStringSet(v[k]))
        ? undefined
        : "must map property names to arrays of distinct strings",
  ],
  [
    "$vocabulary",
    (v) => (isObject(v) && Object.keys(v).every((k) => isBoolean(v[k])) ? undefined : "must map URIs to booleans"),
  ],
]);

/**
 * Values the draft-04 meta-schema refuses though 2020-12 accepts them: such a schema has no draft-04 meaning to
 * translate (an empty `enum` or `required`; Validation draft-04 §5.5.1, §5.4.3).
 */
const DRAFT04_RULES: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map([
  ["enum", (v) => (Array.isArray(v) && v.length === 0 ? "must not be empty" : undefined)],
  ["required", (v) => (Array.isArray(v) && v.length === 0 ? "must not be empty" : undefined)],
]);

/** Draft-06 still requires a non-empty `enum` (Validation draft-06 §6.23); draft-07 dropped that. */
const DRAFT06_RULES: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map([
  ["enum", (v) => (Array.isArray(v) && v.length === 0 ? "must not be empty" : undefined)],
]);

/** Why a kept keyword's value is invalid in the source dialect alone (not in 2020-12), or undefined. */
export function draftValueProblem(dialect: string, keyword: string, value: unknown): string | undefined {
  const rules = dialect === "draft-04" ? DRAFT04_RULES : dialect === "draft-06" ? DRAFT06_RULES : undefined;
  return rules?.get(keyword)?.(value);
}

/** Why a kept keyword's value is invalid in its draft and 2020-12 alike (their rules agree here), or undefined. */
export function valueProblem(keyword: string, value: unknown): string | undefined {
  return VALUE_RULES.get(keyword)?.(value);
}

/** True for a value draft-06 and later read as a schema (Core draft-07 §4.3: an object or a boolean). */
export function isSchema(value: unknown): value is boolean | Record<string, unknown> {
  return typeof value === "boolean" || isObject(value);
}
