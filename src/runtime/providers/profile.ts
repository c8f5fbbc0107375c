/**
 * Provider profiles as data (README "Provider profiles"): what one provider's tool API accepts, as of a date —
 * keywords, structural rules, value rules, limits, per-request budgets and the tool-name rule. The checker reads
 * nothing else, so a host builds its own profile from the same parts (`defineProfile`).
 */

import { preview } from "../../engine/json.js";
import { err, ok, type Result } from "../result.js";

/** The request shape a profile's tools are written in. */
export type RequestFormat =
  /** OpenAI: `{ type: "function", function: { name, description, parameters, strict } }`. */
  | "openai-function"
  /** Anthropic: `{ name, description, input_schema, strict? }`. */
  | "anthropic-tool"
  /** Gemini function declaration with `parameters` (the OpenAPI-subset `Schema`). */
  | "gemini-parameters"
  /** Gemini function declaration with `parametersJsonSchema` (JSON Schema). */
  | "gemini-parameters-json-schema";

/** What a tool name may be: each character, the first one, and the length. */
export interface NameRule {
  /** One character a name may hold (matched against each character alone). */
  readonly character: RegExp;
  /** What the first character must be, when the provider says. */
  readonly first?: RegExp;
  /** The longest name, in characters. */
  readonly maxLength: number;
}

/** Regular-expression features a provider's `pattern` refuses (`true`: refused). */
export interface PatternRules {
  /** `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`. */
  readonly lookaround: boolean;
  /** `\1`, `\k<name>`. */
  readonly backreferences: boolean;
  /** `\b`, `\B`. */
  readonly wordBoundaries: boolean;
  /** A counted repetition `{n,m}` inside another repetition. */
  readonly nestedCounts: boolean;
}

/** How a profile treats `$ref`. */
export type RefPolicy =
  /** Sent untouched and not analysed: the provider resolves (or ignores) references itself. */
  | "pass"
  /** Local JSON-Pointer references are kept (others refused); the rules on siblings and recursion apply. */
  | "keep"
  /** Every reference is inlined; a recursive one cannot be, and is refused. */
  | "inline";

/** Structural rules (each `false`/absent means the provider does not have the rule). */
export interface StructureRules {
  /** The root must say `type: "object"` (rule `root-type`). */
  readonly rootType: boolean;
  /** Keywords the root may not have (rule `root-combinator`). */
  readonly rootCombinators: ReadonlySet<string>;
  /** Every key of `properties` must be in `required`, and `required` names only those (rule `required-all`). */
  readonly requiredAll: boolean;
  /** Every object schema must have `additionalProperties: false` (rule `closed-objects`). */
  readonly closedObjects: boolean;
  /** How `$ref` is treated (rules `ref-local`, `recursion`). */
  readonly refs: RefPolicy;
  /** What may sit beside `$ref`: anything, nothing, or only `$`-keywords (rule `ref-siblings`). */
  readonly refSiblings: "any" | "none" | "dollar";
  /** A `$ref` may not be an `allOf` branch (rule `ref-in-allof`). */
  readonly noRefInAllOf: boolean;
  /** Recursion through `$ref`: allowed, only as a non-required property, or refused (rule `recursion`). */
  readonly recursion: "allowed" | "optional-properties" | "none";
  /** An array schema must have `items` (rule `array-items`). */
  readonly arrayItems: boolean;
  /** Boolean subschemas (`true`, `false`) are accepted (else rule `boolean-schema`). */
  readonly booleanSchemas: boolean;
  /** `anyOf` must be the only keyword of its schema (rule `anyof-alone`). */
  readonly anyOfAlone: boolean;
  /** What a property name must match (rule `property-key`). */
  readonly propertyKeys?: RegExp;
}

/** Rules on keyword values. */
export interface ValueRules {
  /** The `format` values accepted; absent: any (rule `format`). */
  readonly formats?: ReadonlySet<string>;
  /** What `enum` (and `const`) values may be (rule `enum-values`). */
  readonly enumValues: "any" | "primitive" | "string" | "string-number";
  /** The largest `minItems` accepted (rule `min-items`). */
  readonly maxMinItems?: number;
  /** Regular-expression features `pattern` refuses; absent: none (rule `pattern-syntax`). */
  readonly pattern?: PatternRules;
  /** `type` arrays: any, only `[T, "null"]`, or none (rule `type-array`). */
  readonly typeArrays: "any" | "null-pair" | "none";
  /** `type: "null"` is accepted (else rule `type-null`). */
  readonly nullType: boolean;
  /** OpenAPI `nullable: true` expresses null (Gemini `parameters`). */
  readonly nullable: boolean;
}

/** Limits of one schema, each counted over the schema as sent (absent: the provider states none). */
export interface SchemaLimits {
  /** Keys of all `properties` objects, in total (rule `max-properties`). */
  readonly maxProperties?: number;
  /** Nesting levels: the root is level 1, every subschema one more (rule `max-depth`). */
  readonly maxDepth?: number;
  /** `enum` values in total (rule `max-enum-values`). */
  readonly maxEnumValues?: number;
  /** Characters of property names, definition names, enum and const values, in total (rule `max-string-budget`). */
  readonly maxStringBudget?: number;
  /** One `enum` of more than `over` values may hold at most `maxLength` characters (rule `large-enum`). */
  readonly largeEnum?: {
    /** How many values make an enum large. */
    readonly over: number;
    /** The characters a large enum may hold in total. */
    readonly maxLength: number;
  };
}

/** Budgets of one request, summed over its tools (absent: the provider states none). */
export interface RequestBudgets {
  /** Tools in one request (rule `max-tools`). */
  readonly maxTools?: number;
  /** Strict tools in one request (rule `max-strict-tools`). */
  readonly maxStrictTools?: number;
  /** Non-required properties, through nested objects and items, over all strict tools (`max-optional-parameters`). */
  readonly maxOptionalParameters?: number;
  /** Schemas with `anyOf` or a `type` array, over all strict tools (rule `max-union-parameters`). */
  readonly maxUnionParameters?: number;
}

/** A profile without its `id` (which is `name@version`): what `defineProfile` takes. */
export interface ProfileSpec {
  /** The profile's name, e.g. `openai-strict`: lowercase letters, digits and `-`. */
  readonly name: string;
  /** The date the profile describes the provider as of, `YYYY-MM`. */
  readonly version: string;
  /** The provider, e.g. `openai`. */
  readonly provider: string;
  /** The request shape of its tools. */
  readonly format: RequestFormat;
  /** Whether its tools are sent with `strict: true` (OpenAI, Anthropic). */
  readonly strict: boolean;
  /** The keywords accepted anywhere (an allow-list), or `"any"`. */
  readonly keywords: ReadonlySet<string> | "any";
  /** Structural rules. */
  readonly structure: StructureRules;
  /** Rules on keyword values. */
  readonly values: ValueRules;
  /** Limits of one schema. */
  readonly limits: SchemaLimits;
  /** Budgets of one request. */
  readonly budgets: RequestBudgets;
  /** The tool-name rule. */
  readonly toolName: NameRule;
}

/** A provider profile: a dated, versioned value, `id` = `name@version` (e.g. `openai-strict@2026-10`). */
export interface ProviderProfile extends ProfileSpec {
  /** `name@version`. */
  readonly id: string;
}

/** Why a profile or a target could not be used: `validation` / `options_invalid`. */
export interface ProfileError {
  /** Always `validation`. */
  readonly class: "validation";
  /** Always `options_invalid`. */
  readonly code: "options_invalid";
  /** One line naming the problem. */
  readonly message: string;
}

/** The `options_invalid` error for a profile or a target. */
export function profileError(message: string): ProfileError {
  return Object.freeze({ class: "validation", code: "options_invalid", message });
}

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
  ["pattern", optional((v) => shapeProblem(v, patternShape) === undefined)],
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
  ["largeEnum", optional((v) => shapeProblem(v, largeEnumShape) === undefined)],
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

function shapeProblem(value: unknown, shape: Shape): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `must be an object`;
  for (const key of Object.keys(value)) if (!shape.has(key)) return `has the unknown field "${key}"`;
  for (const [key, check] of shape) {
    const field = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    if (!check(field)) return `has a malformed "${key}" (${preview(field)})`;
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
      const problem = shapeProblem(fields[key], shape);
      if (problem !== undefined) return err(profileError(`profile ${spec.name}@${spec.version}: "${key}" ${problem}`));
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

/**
 * The rules a profile has, by id, in the order the checker applies them: the ids a refusal's `rule` can name.
 * (`dialect` and `tool-name-collision` belong to every profile.)
 */
export function activeRules(profile: ProviderProfile): string[] {
  const { structure: s, values: v, limits: l, budgets: b } = profile;
  const rules: [string, boolean][] = [
    ["dialect", true],
    ["ref-local", s.refs !== "pass"],
    ["ref-siblings", s.refSiblings !== "any"],
    ["ref-in-allof", s.noRefInAllOf],
    ["recursion", s.refs === "inline" || s.recursion !== "allowed"],
    ["boolean-schema", !s.booleanSchemas],
    ["root-type", s.rootType],
    ["root-combinator", s.rootCombinators.size > 0],
    ["keyword-unsupported", profile.keywords !== "any"],
    ["type-array", v.typeArrays !== "any"],
    ["type-null", !v.nullType],
    ["anyof-alone", s.anyOfAlone],
    ["closed-objects", s.closedObjects],
    ["required-all", s.requiredAll],
    ["array-items", s.arrayItems],
    ["format", v.formats !== undefined],
    ["enum-values", v.enumValues !== "any"],
    ["min-items", v.maxMinItems !== undefined],
    ["pattern-syntax", v.pattern !== undefined],
    ["property-key", s.propertyKeys !== undefined],
    ["max-properties", l.maxProperties !== undefined],
    ["max-depth", l.maxDepth !== undefined],
    ["max-enum-values", l.maxEnumValues !== undefined],
    ["max-string-budget", l.maxStringBudget !== undefined],
    ["large-enum", l.largeEnum !== undefined],
    ["tool-name", true],
    ["tool-name-collision", true],
    ["max-tools", b.maxTools !== undefined],
    ["max-strict-tools", b.maxStrictTools !== undefined],
    ["max-optional-parameters", b.maxOptionalParameters !== undefined],
    ["max-union-parameters", b.maxUnionParameters !== undefined],
  ];
  return rules.filter(([, on]) => on).map(([id]) => id);
}
