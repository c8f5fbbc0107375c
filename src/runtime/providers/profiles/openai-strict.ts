/**
 * `openai-strict@2026-10`: OpenAI function calling with `strict: true` (Structured Outputs), as documented in the
 * Structured Outputs guide, "Supported schemas" (developers.openai.com/api/docs/guides/structured-outputs
 * #supported-schemas, limits as of 2026) and observed in public reports up to 2026-09.
 */

import type { ProfileSpec } from "./profile.js";
import { noBudgets, openaiToolName } from "./parts.js";

export const openaiStrict: ProfileSpec = {
  name: "openai-strict",
  version: "2026-10",
  provider: "openai",
  format: "openai-function",
  strict: true,
  // The guide's "Supported types" and "Supported properties" lists; an allow-list, since a deny-list misses keywords
  // (`'propertyNames' is not permitted`, can1357/oh-my-pi#209, 2026-02). Refused although JSON Schema has them:
  // `allOf`, `not`, `if`/`then`/`else`, `dependent*` ("not yet supported"; `'allOf' is not permitted`,
  // makenotion/notion-mcp-server#102, 2025-08); `oneOf` (docker/docker-agent#4106, 2026-09); `uniqueItems`
  // (`'uniqueItems' is not permitted`, 1jehuang/jcode#687, 2026-07-31); `patternProperties`, `propertyNames`,
  // `min/maxProperties`, `unevaluated*`, `contains`, `prefixItems`, `$anchor`, `$dynamic*` (openai-node
  // src/lib/transform.ts JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS, 2026-08-21). `minLength`/`maxLength` are disputed
  // (not in the supported list, listed as "additionally unsupported for fine-tuned models"; `maxLength is not
  // permitted`, jina-ai/node-DeepResearch#79, 2025-03): refused, the stricter reading. `default` was refused in 2024
  // (`'default' is not permitted`, zenn.dev/nicopin) and its status now is unknown: refused, the stricter reading.
  // `definitions` is unknown: refused.
  keywords: new Set([
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$defs",
    "$ref",
    "title",
    "description",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
  ]),
  structure: {
    // "the root level object must be type: object" and must not be `anyOf` (guide); observed `schema must be a JSON
    // Schema of 'type: "object"', got 'type: "None"'`. `oneOf`/`allOf`/`not`/`enum` at the root are refused as in
    // non-strict mode (nspady/google-calendar-mcp#39, 2025-06).
    rootType: true,
    rootCombinators: new Set(["anyOf", "oneOf", "allOf", "not", "enum"]),
    // `In context=(), 'required' is required to be supplied and to be an array including every key in properties.
    // Missing 'folderId'.` (vercel/ai#7888, 2025-08); openai-node also refuses `required` naming an undeclared key.
    requiredAll: true,
    // `'additionalProperties' is required to be supplied and to be false.` (ravitemer/mcphub.nvim#124, 2025-05).
    closedObjects: true,
    // "Definitions are supported", "Recursive schemas are supported" (guide): local references are kept.
    refs: "keep",
    // `$ref cannot have keywords {'description'}` (camel-ai/camel#3001, 2025-08; langchain-ai/langchainjs#11381,
    // 2026-08; defog-ai/defog#244, 2026-03).
    refSiblings: "none",
    noRefInAllOf: false,
    recursion: "allowed",
    // `array schema missing items` (mark3labs/mcphost#35, 2025-04; ruvnet/ruflo#1294, 2026-03).
    arrayItems: true,
    // Not among the supported types; openai-node refuses them. Silent in the guide: refused, the stricter reading.
    // `additionalProperties: false` is the documented exception.
    booleanSchemas: false,
    anyOfAlone: false,
  },
  values: {
    // The guide's `format` list; other formats (e.g. `uri`) are unlisted, so refused.
    formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
    // The guide lists `enum` without saying of what; enums of objects or arrays are refused, the stricter reading.
    enumValues: "primitive",
    // `Invalid JSON schema: regex lookaround is not supported. Found at $.properties.fileKey.pattern.`
    // (anomalyco/opencode#32073, 2026-06; vercel/ai#21037, 2026-09). No report names backreferences or `\b`, which
    // Anthropic's subset refuses: the sources are silent, so they are refused, the stricter reading.
    pattern: { lookaround: true, backreferences: true, wordBoundaries: true, nestedCounts: false },
    // "null via type union": `type: ["string", "null"]` is the documented way to say "optional".
    typeArrays: "any",
    nullType: true,
    nullable: false,
  },
  // The guide's limits (2026): 5000 properties, 10 levels, 120,000 characters of names and values, 1000 enum
  // values, and a string enum of more than 250 values within 15,000 characters. How depth is counted is not
  // documented (community.openai.com/t/918388): every subschema counts as a level, `items`, `anyOf` and `$defs`
  // included, the stricter reading.
  limits: {
    maxProperties: 5000,
    maxDepth: 10,
    maxEnumValues: 1000,
    maxStringBudget: 120_000,
    largeEnum: { over: 250, maxLength: 15_000 },
  },
  // `Invalid 'tools': array too long. Expected an array with maximum length 128` (zed-industries/zed#32946, 2025-06;
  // anomalyco/opencode#4909, 2025-11).
  budgets: { ...noBudgets, maxTools: 128 },
  toolName: openaiToolName,
};
