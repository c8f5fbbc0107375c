/**
 * backplane-agent-runtime: an eval-free JSON Schema 2020-12 engine and the MCP tool-call boundary on it.
 * @module backplane-agent-runtime
 */

import { compileWith } from "./engine/compile-with.js";
import { isInstance, LimitError, SchemaError as SchemaErrorClass } from "./engine/errors.js";
import { resolveLimits } from "./engine/limits.js";
import type { ErrorCode } from "./runtime/errors/codes.js";
import { checkOptions, compileOptionChecks } from "./engine/options.js";
import { Validator } from "./engine/validator.js";
import { dialect2020_12 } from "./vocabularies/dialect-2020-12.js";
import {
  dialectHint,
  dialectOptionChecks,
  prepareLegacy,
  type CompileOptions,
  type DialectOptions,
} from "./runtime/boundary/dialects/mode.js";

export type { SchemaRegistry } from "./engine/compile/compile-options.js";
export type { BackplaneError, EngineCode, ErrorClass, ErrorFields } from "./engine/errors.js";
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

export type { CompileOptions, DialectOptions, LegacyDialectsMode } from "./runtime/boundary/dialects/mode.js";

const publicCompileChecks = new Map([...compileOptionChecks, ...dialectOptionChecks]);

/**
 * Compiles a JSON Schema 2020-12 schema (an object or a boolean) into an immutable, reusable `Validator`; every
 * reference is resolved now. Throws a `SchemaError` when the schema or an option cannot be used
 * (docs/reference/errors.md). A schema declaring an older dialect is `unsupported_capability` unless
 * `legacyDialects: "upgrade"` (or, for draft-07, `draft07: "upgrade"`) translates it exactly first, with the registry
 * and loader documents it reaches (docs/guide/older-dialects.md). `T` is the type valid instances have, as the caller
 * declares it: `isValid` narrows to it.
 */
export function compile<T = unknown>(schema: unknown, options?: CompileOptions): Validator<T> {
  checkOptions(options, publicCompileChecks, "compile");
  const { legacyDialects, draft07, ...engineOptions } = options ?? {};
  const modes: DialectOptions = { legacyDialects, draft07 };
  const prepared = prepareLegacy(schema, engineOptions, modes, resolveLimits(engineOptions.limits));
  if (!prepared.ok) {
    const { limit, ...fields } = prepared.error;
    if (limit !== undefined) throw new LimitError(limit.name, limit.value, { schemaPointer: fields.schemaPointer });
    throw new SchemaErrorClass<ErrorCode<"boundary">>(fields);
  }
  try {
    return compileWith<T>(dialect2020_12, prepared.value.schema, prepared.value.options);
  } catch (e) {
    const hint = isInstance(e, SchemaErrorClass) ? dialectHint(e.code, e.message, modes) : "";
    if (hint === "") throw e;
    const error = e as SchemaErrorClass;
    throw new SchemaErrorClass({ ...error.toJSON(), message: error.message + hint });
  }
}

export type { Result } from "./runtime/errors/result.js";
export { InputSchema, CompiledInputSchema, type InputSchemaOptions } from "./runtime/boundary/input-schema.js";
export type { SchemaBoundaryOptions } from "./runtime/boundary/schema-boundary.js";
export { OutputSchema, CompiledOutputSchema, type OutputSchemaOptions } from "./runtime/boundary/output-schema.js";
export type { Draft07Mode } from "./runtime/boundary/dialects/mode.js";
export type { LegacyDialect } from "./runtime/boundary/dialects/dialects.js";
export { BoundaryError, InputSchemaError } from "./runtime/errors/boundary-error.js";
export {
  ElicitationSchema,
  CompiledElicitationSchema,
  type DeprecatedForm,
  type ElicitationError,
  type ElicitationSchemaOptions,
  type ElicitResult,
} from "./runtime/elicitation/elicitation-schema.js";
export type { ModelFacingError } from "./runtime/errors/backplane-error.js";
export type { ErrorCode, ErrorCodes } from "./runtime/errors/codes.js";
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
  type ClosedArgumentsCheck,
  type ClosedArgumentsReport,
  type OpenObject,
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
} from "./runtime/execution/execution.js";
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
  upgradeLegacyDocuments,
  upgradeLegacySchema,
  type UpgradeBudget,
  type UpgradeOptions,
  type UpgradeSetOptions,
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
  type CallDecodeError,
  type CatalogCheck,
  type CatalogUsage,
  type ChangeKind,
  type CheckOptions,
  type DecodedCall,
  type GeminiFunctionDeclaration,
  type NameRule,
  type OpenAIFunctionTool,
  type PatternRules,
  type ProfileError,
  type ProfileSpec,
  type PropertyKeyScope,
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
