/**
 * `openai@2026-10`: OpenAI function calling without `strict` (the schema guides the model and is not enforced), as
 * observed in public reports up to 2026-08. The Responses API may apply strict validation on its own when a schema
 * is compatible (openai-node 6.46.0 docstring, 2026-07-09); a host that needs the guarantee uses `openai-strict`.
 */

import type { ProfileSpec } from "./profile.js";
import { noLimits, noStructureRules, noValueRules, openaiToolName } from "./parts.js";

export const openai: ProfileSpec = {
  name: "openai",
  version: "2026-10",
  provider: "openai",
  format: "openai-function",
  strict: false,
  // Extra keywords pass as hints; the schema is still checked for shape.
  keywords: "any",
  structure: {
    ...noStructureRules,
    // `schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.`
    // (nspady/google-calendar-mcp#39, 2025-06; langchain-ai/langchainjs#9804, 2026-01). Kilo-Org/kilocode#12905
    // (2026-08) says a root `anyOf` works; anomalyco/opencode#35516 (2026-07) says it does not: the sources disagree,
    // so it stays refused.
    rootType: true,
    rootCombinators: new Set(["oneOf", "anyOf", "allOf", "enum", "not"]),
    // `array schema missing items` with gpt-4o (mark3labs/mcphost#35, 2025-04; apify/apify-mcp-server#36, 2025-03).
    arrayItems: true,
  },
  values: noValueRules,
  limits: noLimits,
  // 128 tools per request (zed-industries/zed#32946, 2025-06).
  budgets: { maxTools: 128 },
  toolName: openaiToolName,
};
