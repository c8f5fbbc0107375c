/**
 * `defineProfile` (docs/guide/providers.md "Your own profile"): a host's profile checked field by field — every part,
 * every field of it, nothing unknown — and frozen, so that a typo in a profile fails closed
 * (`options_invalid`) instead of switching a rule off.
 */

import { preview } from "../../../engine/json/json.js";
import { err, ok, type Result } from "../../errors/result.js";
import { profileError, type ProfileError, type ProfileSpec, type ProviderProfile } from "./profile.js";

const FORMATS: ReadonlySet<string> = new Set([
  "openai-function",
  "anthropic-tool",
  "gemini-parameters",
  "gemini-parameters-json-schema",
]);

type Check = (value: unknown) => boolean;

const isBoolean: Check = (v) => typeof v === "boolean";
/** A stateless regular expression (`g` and `y` make `test` remember where it stopped). */
const isRegExp: Check = (v) => v instanceof RegExp && !v.global && !v.sticky;
const isCount: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const isStringSet: Check = (v) => v instanceof Set && [...(v as Set<unknown>)].every((k) => typeof k === "string");
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === "string" && values.includes(v);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);

/** Field → check, for one part of a spec; every field listed must pass and no other field may appear. */
type Shape = ReadonlyMap<string, Check>;

const structureShape: Shape = new Map([
  ["rootType", isBoolean],
  ["rootCombinators", isStringSet],
  ["requiredAll", isBoolean],
  ["closedObjects", isBoolean],
  ["refs", oneOf("pass", "keep", "inline")],
  ["refSiblings", oneOf("any", "none", "dollar")],
  ["noRefInAllOf", isBoolean],
  ["recursion", oneOf("allowed", "optional-properties", "none")],
  ["arrayItems", isBoolean],
  ["booleanSchemas", isBoolean],
  ["anyOfAlone", isBoolean],
  ["propertyKeys", optional(isRegExp)],
  ["propertyKeyScope", optional(oneOf("top-level", "every-level"))],
]);

const patternShape: Shape = new Map([
  ["lookaround", isBoolean],
  ["backreferences", isBoolean],
  ["wordBoundaries", isBoolean],
  ["nestedCounts", isBoolean],
]);

const valuesShape: Shape = new Map([
  ["formats", optional(isStringSet)],
  ["enumValues", oneOf("any", "primitive", "string", "string-number")],
  ["maxMinItems", optional(isCount)],
  ["pattern", optional((v) => shapeError(v, patternShape, "pattern") === undefined)],
  ["typeArrays", oneOf("any", "null-pair", "none")],
  ["nullType", isBoolean],
  ["nullable", isBoolean],
]);

const largeEnumShape: Shape = new Map([
  ["over", isCount],
  ["maxLength", isCount],
]);

const limitsShape: Shape = new Map([
  ["maxProperties", optional(isCount)],
  ["maxDepth", optional(isCount)],
  ["maxEnumValues", optional(isCount)],
  ["maxStringBudget", optional(isCount)],
  ["largeEnum", optional((v) => shapeError(v, largeEnumShape, "largeEnum") === undefined)],
]);

const budgetsShape: Shape = new Map([
  ["maxTools", optional(isCount)],
  ["maxStrictTools", optional(isCount)],
  ["maxOptionalParameters", optional(isCount)],
  ["maxUnionParameters", optional(isCount)],
]);

const nameShape: Shape = new Map([
  ["character", isRegExp],
  ["first", optional(isRegExp)],
  ["maxLength", (v) => isCount(v) && (v as number) > 0],
]);

const specShape: Shape = new Map<string, Check>([
  ["id", () => true],
  ["name", (v) => typeof v === "string" && /^[a-z0-9][a-z0-9-]*$/.test(v)],
  ["version", (v) => typeof v === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(v)],
  ["provider", (v) => typeof v === "string" && v !== ""],
  ["format", (v) => typeof v === "string" && FORMATS.has(v)],
  ["strict", isBoolean],
  ["keywords", (v) => v === "any" || isStringSet(v)],
]);

const partShapes: ReadonlyMap<string, Shape> = new Map([
  ["structure", structureShape],
  ["values", valuesShape],
  ["limits", limitsShape],
  ["budgets", budgetsShape],
  ["toolName", nameShape],
]);

/** The `options_invalid` error of a part that does not have `shape`, its message opening with `what`; or undefined. */
function shapeError(value: unknown, shape: Shape, what: string): ProfileError | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return profileError(`${what} must be an object`);
  for (const key of Object.keys(value))
    if (!shape.has(key)) return profileError(`${what} has the unknown field "${key}"`);
  for (const [key, check] of shape) {
    const field = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    if (!check(field)) return profileError(`${what} has a malformed "${key}" (${preview(field)})`);
  }
  return undefined;
}

/**
 * A profile from its parts, checked field by field and frozen, with `id` = `name@version` (an `id` given is
 * replaced); a malformed spec is an `options_invalid` error naming the field. Spread a built-in profile and change
 * what differs to make one's own.
 */
export function defineProfile(spec: ProfileSpec): Result<ProviderProfile, ProfileError> {
  try {
    if (typeof spec !== "object" || spec === null) return err(profileError("a profile must be an object"));
    for (const key of Object.keys(spec)) {
      if (!specShape.has(key) && !partShapes.has(key))
        return err(profileError(`a profile has the unknown field "${key}"`));
    }
    const fields = spec as unknown as Record<string, unknown>;
    for (const [key, check] of specShape) {
      if (!check(fields[key])) return err(profileError(`a profile has a malformed "${key}" (${preview(fields[key])})`));
    }
    for (const [key, shape] of partShapes) {
      const error = shapeError(fields[key], shape, `profile ${spec.name}@${spec.version}: "${key}"`);
      if (error !== undefined) return err(error);
    }
    // The id is derived: one a spread built-in carried along is replaced, never trusted.
    const id = `${spec.name}@${spec.version}`;
    return ok(
      Object.freeze({
        id,
        name: spec.name,
        version: spec.version,
        provider: spec.provider,
        format: spec.format,
        strict: spec.strict,
        keywords: spec.keywords === "any" ? "any" : new Set(spec.keywords),
        structure: Object.freeze({ ...spec.structure, rootCombinators: new Set(spec.structure.rootCombinators) }),
        values: Object.freeze({
          ...spec.values,
          ...(spec.values.formats === undefined ? {} : { formats: new Set(spec.values.formats) }),
          ...(spec.values.pattern === undefined ? {} : { pattern: Object.freeze({ ...spec.values.pattern }) }),
        }),
        limits: Object.freeze({
          ...spec.limits,
          ...(spec.limits.largeEnum === undefined ? {} : { largeEnum: Object.freeze({ ...spec.limits.largeEnum }) }),
        }),
        budgets: Object.freeze({ ...spec.budgets }),
        toolName: Object.freeze({ ...spec.toolName }),
      }),
    );
  } catch {
    return err(profileError("a profile could not be read as plain data"));
  }
}
