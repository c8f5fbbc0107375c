/**
 * `anthropic-strict@2026-10`: Anthropic strict tool use (`strict: true`, GA 2026-01-29), which compiles
 * `input_schema` into a grammar with the structured-outputs pipeline. The primary "JSON Schema limitations" section
 * is read through four consistent public copies: anthropic-sdk-python `lib/_parse/_transform.py` (2025-11-14, fixes
 * 2026-03-20 and 2026-06-04), @ai-sdk/anthropic `sanitize-json-schema.ts` (2026-04-29, vercel/ai#14790), and the
 * LangSchema and claudex converter notes; and through errors observed up to 2026-07.
 */

import type { ProfileSpec } from "./profile.js";
import { anthropic, anthropicPropertyKeys } from "./anthropic.js";

export const anthropicStrict: ProfileSpec = {
  ...anthropic,
  name: "anthropic-strict",
  strict: true,
  // Supported: basic types, `enum`, `const`, `anyOf`, `allOf` (limited), local `$ref`/`$defs`/`definitions`,
  // `default`, `required`, `additionalProperties: false`, `format` (a list), `pattern` (a subset), `minItems` (0 or
  // 1). Refused: `minimum`, `maximum`, `multipleOf`, `exclusive*` (`For 'integer' type, property 'minimum' is not
  // supported`, agentjido/req_llm#302), `minLength`, `maxLength`, `maxItems`, `uniqueItems`, `min/maxProperties`
  // (@ai-sdk/anthropic DESCRIPTION_CONSTRAINT_KEYS). `oneOf` is not listed (the SDKs rewrite it to `anyOf`):
  // refused. Unlisted keywords are refused, the stricter reading.
  keywords: new Set([
    "type",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "default",
    "required",
    "additionalProperties",
    "properties",
    "items",
    "title",
    "description",
    "format",
    "pattern",
    "minItems",
  ]),
  structure: {
    ...anthropic.structure,
    rootType: true,
    rootCombinators: new Set(["oneOf", "allOf", "anyOf"]),
    requiredAll: false,
    // `additionalProperties` other than `false` is refused: it is mandatory on every object.
    closedObjects: true,
    // Local references only, and no recursive schema ("recursive schemas, external $ref: rejected").
    refs: "keep",
    refSiblings: "any",
    // "`allOf` (limited, no `allOf` with `$ref`)".
    noRefInAllOf: true,
    recursion: "none",
    arrayItems: false,
    // Not among the supported constructs: refused, the stricter reading (`additionalProperties: false` excepted).
    booleanSchemas: false,
    anyOfAlone: false,
    propertyKeys: anthropicPropertyKeys,
  },
  values: {
    // anthropic-sdk-python `SupportedStringFormats`; @ai-sdk/anthropic keeps the same list.
    formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
    // "`enum` (primitives only)".
    enumValues: "primitive",
    // `output_config.format.schema: For 'array' type, 'minItems' values other than 0 or 1 are not supported`
    // (memorize-everything#93, 2026-05).
    maxMinItems: 1,
    // Supported: `^…$`, `* + ?`, simple `{n,m}`, `[]`, `.`, `\d \w \s`, groups; not backreferences, lookahead or
    // lookbehind, `\b`/`\B`, "complex `{n,m}`" (lookaround also fails in strict mode: Dokploy/mcp#45, 2026-05).
    // "Complex" is not defined: a counted repetition inside another repetition is refused, the stricter reading.
    pattern: { lookaround: true, backreferences: true, wordBoundaries: true, nestedCounts: true },
    typeArrays: "any",
    nullType: true,
    nullable: false,
  },
  limits: {},
  // Per request, summed over all strict tools: 20 strict tools (`Too many strict tools`, camel-ai/camel#4171,
  // 2026-07), 24 optional parameters counted through nested objects and items (`Schemas contains too many optional
  // parameters (87) … (limit: 24)`, elie222/inbox-zero#2323, 2026-04), 16 parameters using `anyOf` or type arrays
  // (mozilla/bugbug#6129, 2026-06).
  budgets: { maxStrictTools: 20, maxOptionalParameters: 24, maxUnionParameters: 16 },
};
