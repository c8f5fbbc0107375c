/**
 * `gemini-json-schema@2026-10`: Gemini `FunctionDeclaration.parametersJsonSchema` (raw JSON Schema, python-genai
 * commit 624c8e75, 2025-06-13; what js-genai's `mcpToGeminiTool` sends since 2025-07-09), documented by the
 * docstring shared by python-genai, kotlin-genai and the googleapis Dart client, and the November 2025 JSON Schema
 * announcement.
 */

import type { ProfileSpec } from "./profile.js";
import { geminiToolName, noBudgets, noLimits } from "./parts.js";

export const geminiJsonSchema: ProfileSpec = {
  name: "gemini-json-schema",
  version: "2026-10",
  provider: "gemini",
  format: "gemini-parameters-json-schema",
  strict: false,
  // "only the following properties are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum
  // (for strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (interpreted
  // the same as anyOf), properties, additionalProperties, required", plus `propertyOrdering`. Whether other keywords
  // are ignored or refused is not stated (tetsuo-ai/agenc-core#1890, 2026-08, treats them as "not applied"): they
  // are refused, the stricter reading. `oneOf` is left out on purpose: read as `anyOf`, it would accept more than the
  // tool does, so it is sent only as a proven-exact or an explicitly widened `anyOf`.
  keywords: new Set([
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
  ]),
  structure: {
    // `parametersJsonSchema` "must describe an object".
    rootType: true,
    rootCombinators: new Set(),
    requiredAll: false,
    closedObjects: false,
    refs: "keep",
    // "If $ref is set on a sub-schema, no other properties, except for than those starting as a $, may be set."
    refSiblings: "dollar",
    noRefInAllOf: false,
    // "Cyclic references are unrolled to a limited degree and, as such, may only be used within non-required
    // properties. (Nullable properties are not sufficient.)"
    recursion: "optional-properties",
    arrayItems: false,
    // `additionalProperties` is documented as "bool or schema"; other boolean subschemas are not: refused.
    booleanSchemas: false,
    anyOfAlone: false,
  },
  values: {
    // `format` is listed without values. The conservative public reading (UnitVectorY-Labs/jsonschemaprofiles
    // `gemini_202602`, 2026-03-14) allows `date-time`, `date` and `time` only: that list, the stricter reading.
    formats: new Set(["date-time", "date", "time"]),
    enumValues: "string-number",
    // `type: 'null'` is supported since November 2025 (announcement, re-hosted 2025-11-06); `[T, "null"]` is the
    // documented nullable form. Other type arrays are not documented: split into `anyOf`, the stricter reading.
    typeArrays: "null-pair",
    nullType: true,
    nullable: false,
  },
  limits: noLimits,
  budgets: noBudgets,
  toolName: geminiToolName,
};
