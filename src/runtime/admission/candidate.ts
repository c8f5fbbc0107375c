/**
 * One tool on its way through admission: the descriptor as read once, and what each stage made of it — its compiled
 * schemas, its model-facing part, its headers, its identity, its provider checks — or the rejection that stopped it,
 * with its status, so that nothing downstream has to work out from an error code why a tool is not in the bundle.
 */

import type { CompiledInputSchema } from "../boundary/input-schema.js";
import type { CompiledOutputSchema } from "../boundary/output-schema.js";
import type { CatalogError } from "../errors/catalog-error.js";
import type { HiddenText } from "../errors/details.js";
import type { McpHeader } from "../descriptor/mcp-headers.js";
import type { ProviderTool, ToolDescriptor } from "../descriptor/tool-descriptor.js";
import type { CheckedCandidate } from "../providers/admission-targets.js";
import type { ClosedArgumentsCheck } from "./admitted-bundle.js";
import { RejectedTool, type RejectionStatus, type SchemaField } from "./admitted-bundle.js";
import type { BatchSettings } from "./batch.js";

/** A tool of the batch and what admission has found out about it so far. */
export interface Candidate {
  /** Its place in the batch. */
  readonly index: number;
  /** The descriptor as read once (its name with the namespace prefix, when the batch has one). */
  readonly tool: ToolDescriptor;
  /** The name its server knows it by. */
  readonly serverName: string;
  input?: CompiledInputSchema;
  output?: CompiledOutputSchema;
  /** What a model is shown of it. */
  provider?: ProviderTool;
  /** Its `x-mcp-header` annotations (none when the batch ignores them). */
  headers: readonly McpHeader[];
  /** Its pin from now on (its canonical text), once its identity is checked. */
  pin?: string;
  /** Hidden text in what a model reads of it. */
  hidden: readonly HiddenText[];
  /** Its arguments closed (`closedArguments`): the objects closed and left open, and the closed schema. */
  closed?: ClosedArgumentsCheck;
  /** Its checks against the provider targets. */
  checked?: CheckedCandidate;
  /** Why it is not admitted, once a stage refused it. */
  rejection?: RejectedTool;
}

/** A stage's verdict on one candidate: go on (undefined), or the error that refuses the whole batch. */
export type StageOutcome = CatalogError | undefined;

/** A tool-level refusal as a stage states it. */
export interface Refusal {
  readonly status: RejectionStatus;
  readonly error: RejectedTool["error"];
  /** Which schema, when a schema was refused. */
  readonly schema?: SchemaField;
  /** For an identity refusal: what approving the tool's current definition pins. */
  readonly pin?: string;
  /** The batch's error when the refusal is fatal. */
  readonly batchError: () => CatalogError;
  /** Whether it fails the batch whatever the mode (strict mode fails it on every refusal). */
  readonly alwaysFatal?: boolean;
  /** Whether a strict batch keeps the tool, rejected, rather than failing (a reviewed update holds changed tools). */
  readonly keptInStrict?: boolean;
}

/**
 * Applies a stage's refusal: the batch's error when it is fatal (strict mode, or an error quarantine does not
 * omit), else the candidate is rejected with its status and the batch goes on. In isolate mode no refusal of one tool
 * is fatal: one quarantine would not omit rejects the tool as `refused`.
 */
export function refuse(candidate: Candidate, batch: BatchSettings, refusal: Refusal): StageOutcome {
  const strict = batch.mode === "strict" && refusal.keptInStrict !== true;
  const isolated = batch.mode === "isolate" && refusal.alwaysFatal === true;
  if (strict || (refusal.alwaysFatal === true && !isolated)) return refusal.batchError();
  const { tool } = candidate;
  candidate.rejection = new RejectedTool({
    name: typeof tool.name === "string" ? tool.name : "",
    revision: typeof tool.revision === "string" ? tool.revision : "",
    status: isolated ? "refused" : refusal.status,
    error: refusal.error,
    ...(refusal.schema === undefined ? {} : { schema: refusal.schema }),
    ...(refusal.pin === undefined ? {} : { pin: refusal.pin }),
  });
  return undefined;
}
