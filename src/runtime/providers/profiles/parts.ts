/**
 * Parts the built-in profiles share and a host may build its own from: tool-name rules, the annotation keywords
 * every profile carries, and the rules a provider without a given rule has (docs/reference/profiles.md).
 */

import type { NameRule, RequestBudgets, SchemaLimits, StructureRules, ValueRules } from "./profile.js";

/**
 * OpenAI function names: `^[a-zA-Z0-9_-]{1,64}$`. Sources: openai-node `src/resources/shared.ts`
 * `FunctionDefinition.name` (2026-08-21); observed `string does not match pattern … '^[a-zA-Z0-9_-]+$'` and
 * `string too long. Expected … maximum length 64` (5ire issue #403, 2026-01).
 */
export const openaiToolName: NameRule = Object.freeze({ character: /^[A-Za-z0-9_-]$/, maxLength: 64 });

/**
 * Anthropic tool names: `^[a-zA-Z0-9_-]{1,64}$`, observed as `tools.0.custom.name: String should match pattern
 * '^[a-zA-Z0-9_-]{1,64}$'` (aider-desk issue #205, 2025-06; ToolUniverse issue #3, 2025-06). A 2026 third-party copy
 * of the Define-tools page says 128 characters: the sources disagree, so the stricter 64 holds.
 */
export const anthropicToolName: NameRule = Object.freeze({ character: /^[A-Za-z0-9_-]$/, maxLength: 64 });

/**
 * Gemini function names: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores,
 * dots, colons and dashes" (python-genai `FunctionDeclaration.name`); 64 characters until SDK commit 29103464
 * (2026-05-20), 128 after it, while gemini-cli's `generateValidName` (packages/core/src/tools/mcp-tool.ts) keeps 63
 * because "actual limit seems to be 63". The sources disagree: the strictest, 63, holds.
 */
export const geminiToolName: NameRule = Object.freeze({
  first: /^[A-Za-z_]$/,
  character: /^[A-Za-z0-9_.:-]$/,
  maxLength: 63,
});

/** No structural rule at all: the starting point of a permissive profile. */
export const noStructureRules: StructureRules = Object.freeze({
  rootType: false,
  rootCombinators: new Set<string>(),
  requiredAll: false,
  closedObjects: false,
  refs: "pass",
  refSiblings: "any",
  noRefInAllOf: false,
  recursion: "allowed",
  arrayItems: false,
  booleanSchemas: true,
  anyOfAlone: false,
});

/** No value rule at all. */
export const noValueRules: ValueRules = Object.freeze({
  enumValues: "any",
  typeArrays: "any",
  nullType: true,
  nullable: false,
});

/** No schema limit stated. */
export const noLimits: SchemaLimits = Object.freeze({});

/** No request budget stated. */
export const noBudgets: RequestBudgets = Object.freeze({});
