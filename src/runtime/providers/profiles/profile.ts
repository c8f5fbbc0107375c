/**
 * Provider profiles as data (docs/reference/profiles.md): what one provider's tool API accepts, as of a date —
 * keywords, structural rules, value rules, limits, per-request budgets and the tool-name rule. The checker reads
 * nothing else, so a host builds its own profile from the same parts (`defineProfile`).
 */

import type { BackplaneError } from "../../errors/backplane-error.js";

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
  /**
   * Where the public record shows `propertyKeys` applied: to the root's `properties` only (`top-level`), or to the
   * `properties` of every object schema (`every-level`). Absent: `every-level`, the stricter reading.
   */
  readonly propertyKeyScope?: PropertyKeyScope;
}

/** Which property names a profile's key rule is known to apply to. */
export type PropertyKeyScope =
  /** The root object's property names only (the tool's parameters). */
  | "top-level"
  /** The property names of every object schema, however deep. */
  | "every-level";

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

/**
 * Why a profile or a target could not be used: `validation` / `options_invalid`, a member of the error family with
 * a code of the provider checks' (`ErrorCode<"provider">`).
 */
export interface ProfileError extends BackplaneError<"options_invalid"> {
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
