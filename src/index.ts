/**
 * backplane-agent-runtime: an eval-free JSON Schema 2020-12 engine and the MCP tool-call boundary on it.
 * @module backplane-agent-runtime
 */

import type { CompileOptions } from "./engine/compile/compile-options.js";
import { compileWith } from "./engine/compile-with.js";
import { Validator } from "./engine/validator.js";
import { dialect2020_12 } from "./vocabularies/dialect-2020-12.js";

export type { CompileOptions, SchemaRegistry } from "./engine/compile/compile-options.js";
export type { ErrorClass, ErrorFields } from "./engine/errors.js";
export { LimitError, SchemaError } from "./engine/errors.js";
export type { Limits } from "./engine/limits.js";
export { defaultLimits } from "./engine/limits.js";
export type {
  Annotation,
  FlagOutput,
  InvalidOutput,
  KeywordResult,
  Located,
  NodeResult,
  OutputFormat,
  OutputUnit,
  Params,
  ValidationOutput,
  ValidOutput,
} from "./engine/output/output.js";
export {
  compareInstanceLocations,
  errorsText,
  type ErrorsTextOptions,
  type MessageInput,
  type MessageRenderer,
} from "./engine/output/error-text.js";
export type { BuiltinFormat, FormatCheck, FormatDefinition, Formats } from "./engine/compile/formats.js";
export type { JsonTypeName } from "./engine/json/json.js";
export type { VocabularyDefinition } from "./engine/compile/host-vocabularies.js";
export {
  annotation,
  assertion,
  type AssertionExtras,
  type CompileContext,
  type Evaluator,
  type EvaluatorKind,
  type Failure,
  type KeywordDefinition,
} from "./engine/evaluate/keyword.js";
export { applicator, type ApplicatorSpec, type MemberKey } from "./engine/evaluate/applicator.js";
export type { CompiledPattern, RegexMeter } from "./engine/regex/index.js";
export type { Applier, Run, Subschema } from "./engine/evaluate/run.js";
export type { Marks } from "./engine/evaluate/marks.js";
export type {
  StandardFailure,
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardJsonSchemaOptions,
  StandardResult,
  StandardSchemaProps,
  StandardSuccess,
} from "./engine/output/standard-schema.js";
export type { AnnotationsOptions, UnitsOptions, ValidateOptions } from "./engine/validator.js";
export { Validator };

/**
 * Compiles a JSON Schema 2020-12 schema (an object or a boolean) into an immutable, reusable `Validator`; every
 * reference is resolved now. Throws a `SchemaError` when the schema or an option cannot be used
 * (docs/reference/errors.md). `T` is the type valid instances have, as the caller declares it: `isValid` narrows to it.
 */
export function compile<T = unknown>(schema: unknown, options?: CompileOptions): Validator<T> {
  return compileWith<T>(dialect2020_12, schema, options);
}

export type { Result } from "./runtime/errors/result.js";
export { InputSchema, CompiledInputSchema, type InputSchemaOptions } from "./runtime/boundary/input-schema.js";
export type { SchemaBoundaryOptions } from "./runtime/boundary/schema-boundary.js";
export { OutputSchema, CompiledOutputSchema, type OutputSchemaOptions } from "./runtime/boundary/output-schema.js";
export type { Draft07Mode } from "./runtime/boundary/dialects/mode.js";
export { InputSchemaError } from "./runtime/errors/input-schema-error.js";
export {
  ElicitationSchema,
  CompiledElicitationSchema,
  type DeprecatedForm,
  type ElicitationError,
  type ElicitationSchemaOptions,
  type ElicitResult,
} from "./runtime/elicitation/elicitation-schema.js";
export { SchemaCache } from "./runtime/boundary/schema-cache.js";
export type { CatalogError } from "./runtime/errors/catalog-error.js";
export {
  ToolCatalog,
  type AdmissionMode,
  type AdmitOptions,
  type McpHeaderPolicy,
} from "./runtime/admission/tool-catalog.js";
export type { McpHeader } from "./runtime/descriptor/mcp-headers.js";
export type { AdmissionTarget, TargetRequest } from "./runtime/providers/admission-targets.js";
export {
  AdmittedBundle,
  HiddenTextReport,
  RejectedTool,
  type AdmittedTool,
  type RejectedToolFields,
  type RejectionStatus,
  type SchemaField,
  type UpgradedSchema,
} from "./runtime/admission/admitted-bundle.js";
export type { Authority } from "./runtime/admission/authority.js";
export type { ProviderTool, ToolDescriptor } from "./runtime/descriptor/tool-descriptor.js";
export {
  Execution,
  type ExecutionError,
  type ExecutionHost,
  type Stage,
  type StageContext,
  type StageName,
  type StageVerdict,
  type ToolCall,
} from "./runtime/gateway/execution.js";
export {
  Conversation,
  CatalogAdmissionError,
  type CatalogAdmitted,
  type CatalogListener,
  type CatalogUpdatedEvent,
  type CatalogUpdate,
} from "./runtime/conversation/conversation.js";
export type { Checkpoint, ConversationOptions, UpdateOptions } from "./runtime/conversation/conversation-input.js";
export type { CatalogChanges, ChangedTool, HeldTool } from "./runtime/conversation/catalog-review.js";
export type { HiddenTextPolicy, IdentityError, Pins, UnpinnedPolicy } from "./runtime/identity/pins.js";
export type { Namespace } from "./runtime/descriptor/namespace.js";
export type { HiddenText } from "./runtime/identity/hidden-text.js";
export {
  upgradeDraft07,
  upgradeDraft07Documents,
  type UpgradeChange,
  type UpgradeResult,
  type UpgradeDocumentsResult,
  type UpgradedDocument,
  type UpgradeBlocked,
  type UpgradeFailed,
} from "./runtime/boundary/dialects/upgrade.js";
export {
  activeRules,
  anthropicToolName,
  checkCatalog,
  checkTool,
  defineProfile,
  geminiToolName,
  noBudgets,
  noLimits,
  noStructureRules,
  noValueRules,
  openaiToolName,
  profiles,
  resolveProfile,
  resolveTargets,
  ToolNameMap,
  type AnthropicTool,
  type CatalogCheck,
  type CatalogUsage,
  type CheckOptions,
  type GeminiFunctionDeclaration,
  type NameRule,
  type OpenAIFunctionTool,
  type PatternRules,
  type ProfileError,
  type ProfileSpec,
  type ProviderChange,
  type ProviderError,
  type ProviderProfile,
  type ProviderRequestTool,
  type RefPolicy,
  type RequestBudgets,
  type RequestFormat,
  type SchemaCheck,
  type SchemaLimits,
  type StrictUsage,
  type StructureRules,
  type Target,
  type ToolCheck,
  type ToolField,
  type ToolOutcome,
  type ValueRules,
} from "./runtime/providers/index.js";
