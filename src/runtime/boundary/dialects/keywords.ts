/**
 * What the draft-07 upgrade knows about each keyword: which draft-07 keywords constrain an instance
 * (Validation draft-07 §6), which keywords only 2020-12 defines (and what they would do
 * there), and the value every kept keyword must have for the 2020-12 meta-schema to accept it.
 */
import { errorMessage } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { parsePattern } from "../../../engine/regex/parser.js";

/** Draft-07 keywords that assert or apply subschemas: dropping one beside `$ref` drops a constraint. */
export const DRAFT07_CONSTRAINTS: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "const",
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
  "contains",
  "maxProperties",
  "minProperties",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "dependencies",
  "propertyNames",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
]);

/**
 * Keywords that 2020-12 (or its meta-schema) gives a meaning or a value constraint and draft-07 does not
 * define: draft-07 ignores them, so each is dropped, with what it would do in 2020-12. `$defs` is not
 * here: a draft-07 `$ref` can point into it, so it is translated. `deprecated` is kept when it is a boolean.
 */
export const NEWER_KEYWORDS: ReadonlyMap<string, string> = new Map([
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

/** Kept draft-07 keywords whose value the 2020-12 meta-schema constrains (Validation §6, §7, §8, §9). */
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
]);

/** Why a kept keyword's value is invalid in draft-07 and 2020-12 alike, or undefined. */
export function valueProblem(keyword: string, value: unknown): string | undefined {
  return VALUE_RULES.get(keyword)?.(value);
}

/** True for a value draft-07 reads as a schema (Core draft-07 §4.3: an object or a boolean). */
export function isSchema(value: unknown): value is boolean | Record<string, unknown> {
  return typeof value === "boolean" || isObject(value);
}
