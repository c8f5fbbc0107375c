/**
 * Provider profiles (docs/guide/providers.md): which JSON Schema each model provider's tool API accepts, checks of
 * MCP tools against them, exact translations, explicit widening, tool-name mapping and per-request budgets.
 */

export { checkCatalog, type CatalogCheck, type CatalogUsage } from "./check-catalog.js";
export { checkTool, type CheckOptions, type ToolCheck } from "./check-tool.js";
export type { SchemaCheck } from "./schema-check.js";
export type { StrictUsage } from "./measure.js";
export { defineProfile } from "./profiles/define-profile.js";
export {
  activeRules,
  type NameRule,
  type PatternRules,
  type ProfileError,
  type ProfileSpec,
  type ProviderProfile,
  type RefPolicy,
  type RequestBudgets,
  type RequestFormat,
  type SchemaLimits,
  type StructureRules,
  type ValueRules,
} from "./profiles/profile.js";
export { profiles, resolveProfile, resolveTargets, type Target } from "./profiles/index.js";
export {
  anthropicToolName,
  geminiToolName,
  noBudgets,
  noLimits,
  noStructureRules,
  noValueRules,
  openaiToolName,
} from "./profiles/parts.js";
export type { ProviderChange, ProviderError, ToolField, ToolOutcome } from "./report.js";
export type {
  AnthropicTool,
  GeminiFunctionDeclaration,
  OpenAIFunctionTool,
  ProviderRequestTool,
} from "./profiles/request-format.js";
export { ToolNameMap } from "./tool-names.js";
