/**
 * `gemini-parameters@2026-10`: Gemini `FunctionDeclaration.parameters` on the Developer API (generativelanguage
 * v1beta): the `Schema` proto, "a select subset of an OpenAPI 3.0 schema object" (@google-ai/generativelanguage
 * 3.7.0 `ISchema`), as observed in public reports up to 2026-09.
 */

import type { ProfileSpec } from "./profile.js";
import { geminiToolName, noBudgets, noLimits } from "./parts.js";

export const geminiParameters: ProfileSpec = {
  name: "gemini-parameters",
  version: "2026-10",
  provider: "gemini",
  format: "gemini-parameters",
  strict: false,
  // The proto's fields. Unknown fields are refused: `Invalid JSON payload received. Unknown name
  // "additionalProperties" at '…parameters.properties[1].value.items': Cannot find field.` (5ire issue #42, 2025-01;
  // ax-llm/ax#293, 2025-07; promptfoo/promptfoo#6902, 2026-01). LibreChat PR #13850 (2026-06-19) probed each keyword
  // live and found `$schema`, `const`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `uniqueItems`,
  // `prefixItems`, `propertyNames`, `patternProperties`, `not`, `if`/`then`/`else`, `dependent*`, `examples`,
  // `readOnly`, `writeOnly`, `deprecated`, `$comment`, `content*` refused (also openswarm#24; 9router#3018, 2026-08;
  // pizza-bot-app/pizza-bot#62, 2026-09). `$ref`/`$defs` are refused by the Developer API (vercel/ai google converter
  // comment, 2026-08-20; anomalyco/opencode#12295, 2026-02). `oneOf`/`allOf` are not proto fields: refused.
  keywords: new Set([
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
  ]),
  structure: {
    // An object is expected at the root (FunctionDeclaration docs).
    rootType: true,
    rootCombinators: new Set(),
    requiredAll: false,
    closedObjects: false,
    // No `$ref`: every reference is inlined, and a recursive one cannot be.
    refs: "inline",
    refSiblings: "any",
    noRefInAllOf: false,
    recursion: "none",
    // `…items: missing field` (DEEIX-AI/DEEIX-Chat#546, 2026-07).
    arrayItems: true,
    // The proto has no boolean schema.
    booleanSchemas: false,
    // `…schema specified other fields alongside any_of. When using any_of, it must be the only field set.` (Vertex,
    // quoted in a third-party doc). The Developer API is silent: the stricter reading holds there too.
    anyOfAlone: true,
    // "Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or
    // underscores with a maximum length of 64" (python-genai `FunctionDeclaration.parameters`). Enforcement was not
    // observed, and the docstring does not say whether nested objects count: every level, the stricter reading.
    propertyKeys: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  },
  values: {
    // `…format: only 'enum' and 'date-time' are supported for STRING type` (google-gemini/gemini-cli#2237, 2025-06).
    // The API reference now says "any value is allowed" while the Firebase reference still says requests fail: the
    // sources disagree, so the 2025 list holds.
    formats: new Set(["enum", "date-time"]),
    // `Invalid value at '…enum[0]' (TYPE_STRING), 2` (rikkahub#477, 2025-09; google-gemini/gemini-cli#4415).
    enumValues: "string",
    // `Unknown name "type" at '…properties[1].value': Proto field is not repeating, cannot start list.`
    // (n8n-io/n8n#15553; zed-industries/zed#44875, 2026-02; prism-php/prism#974).
    typeArrays: "none",
    // Null is `nullable` (the OpenAPI way); a `null` type is not documented for this surface: refused.
    nullType: false,
    nullable: true,
  },
  limits: noLimits,
  budgets: noBudgets,
  toolName: geminiToolName,
};
