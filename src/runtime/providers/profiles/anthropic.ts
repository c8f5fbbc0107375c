/**
 * `anthropic@2026-10`: Anthropic tool use without `strict` (`tools[].input_schema`, guidance for the model, not
 * enforced), as typed by anthropic-sdk-python `types/tool_param.py` (2026-08-08) and observed up to 2026-09.
 */

import type { ProfileSpec } from "./profile.js";
import { anthropicToolName, noBudgets, noLimits, noStructureRules, noValueRules } from "./parts.js";

/**
 * Property keys: `tools.14.custom.input_schema.properties: Property keys should match pattern
 * '^[a-zA-Z0-9_.-]{1,64}$'` (beautyfree/appstore-connect-mcp#2, 2026-04; decocms/studio#6874, 2026-09; Bedrock:
 * aws-solutions IDP #709, 2026-08). Observed at the top level only; the sources are silent on nested objects, so
 * the rule holds at every level, the stricter reading.
 */
export const anthropicPropertyKeys = /^[a-zA-Z0-9_.-]{1,64}$/;

export const anthropic: ProfileSpec = {
  name: "anthropic",
  version: "2026-10",
  provider: "anthropic",
  format: "anthropic-tool",
  strict: false,
  // Any valid 2020-12 schema is accepted as guidance (an explicit draft-07 `$schema` is not: `JSON schema is
  // invalid. It must match JSON Schema draft 2020-12`, anthropics/claude-code#586, 2025-07: rule `dialect`).
  keywords: "any",
  structure: {
    ...noStructureRules,
    // `input_schema.type` is `Required[Literal["object"]]` (anthropic-sdk-python types/tool_param.py, 2026-08-08).
    rootType: true,
    // `input_schema does not support oneOf, allOf, or anyOf at the top level` (anthropics/claude-code#5319, 2025-08;
    // #40075, 2026-03; langchain-ai/langchain#39271, 2026-08).
    rootCombinators: new Set(["oneOf", "allOf", "anyOf"]),
    propertyKeys: anthropicPropertyKeys,
  },
  values: noValueRules,
  limits: noLimits,
  budgets: noBudgets,
  toolName: anthropicToolName,
};
