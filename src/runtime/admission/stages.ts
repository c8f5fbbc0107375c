/**
 * The stages every tool of a batch goes through, in order, once the batch's settings and every descriptor are read:
 * its schemas (through `InputSchema` and `OutputSchema`), its `x-mcp-header` annotations, its identity against the
 * pins, and its fit with the provider targets. A stage either records what it found on the candidate, rejects the
 * tool (`refuse`: its status on the bundle in quarantine mode) or refuses the whole batch.
 */

import { InputSchema, type CompiledInputSchema } from "../boundary/input-schema.js";
import { OutputSchema } from "../boundary/output-schema.js";
import type { BoundaryError } from "../errors/boundary-error.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { mcpHeaders } from "../descriptor/mcp-headers.js";
import {
  descriptorLimitError,
  providerTool,
  type ProviderTool,
  type ToolDescriptor,
} from "../descriptor/tool-descriptor.js";
import { checkIdentity, identityCatalogError } from "../identity/pins.js";
import { checkCandidate, providerCatalogError } from "../providers/admission-targets.js";
import { closeArguments } from "../providers/closed-arguments.js";
import type { ClosedArgumentsCheck, SchemaField } from "./admitted-bundle.js";
import type { BatchSettings } from "./batch.js";
import { refuse, type Candidate, type StageOutcome } from "./candidate.js";

/** A stage over one candidate that no earlier stage rejected. */
type Stage = (candidate: Candidate, batch: BatchSettings) => StageOutcome;

/** The stages in the order they run. */
export const STAGES: readonly Stage[] = [schemas, headers, identity, providers];

/**
 * Both schemas compile (the input schema first): an `unsupported_capability` quarantines the tool, any other error
 * refuses the batch whatever the mode.
 */
function schemas(candidate: Candidate, batch: BatchSettings): StageOutcome {
  const { tool } = candidate;
  const input = InputSchema.validateSchema(tool.inputSchema, batch.schemaOptions);
  const output = hasOutputSchema(tool)
    ? OutputSchema.validateSchema(tool.outputSchema, batch.schemaOptions)
    : undefined;
  const problems: [SchemaField, BoundaryError][] = [];
  if (!input.ok) problems.push(["inputSchema", input.error]);
  if (output !== undefined && !output.ok) problems.push(["outputSchema", output.error]);
  // Strict mode reports the first problem; quarantine the first it cannot omit the tool for, if any.
  const fatal = problems.find(([, e]) => e.class !== "unsupported_capability");
  const chosen = batch.mode === "strict" ? problems[0] : (fatal ?? problems[0]);
  if (chosen !== undefined) {
    const [schema, error] = chosen;
    return refuse(candidate, batch, {
      status: "quarantined",
      error,
      schema,
      batchError: () => schemaRejected(tool, schema, error),
      alwaysFatal: error.class !== "unsupported_capability",
    });
  }
  candidate.input = (input as { value: NonNullable<Candidate["input"]> }).value;
  if (output?.ok === true) candidate.output = output.value;
  candidate.provider = providerTool(tool);
  if (batch.closedArguments) candidate.closed = closedArguments(candidate.input, batch);
  return undefined;
}

/**
 * The input schema as admission compiled it (a draft-07 one as upgraded) with its objects closed, compiled with the
 * batch's options: its report, and the compiled schema when something was closed.
 */
function closedArguments(input: CompiledInputSchema, batch: BatchSettings): ClosedArgumentsCheck {
  const { schema, report } = closeArguments(input.validator.schema, batch.limits);
  if (schema === undefined || report.closed.length === 0) return Object.freeze({ ...report });
  const compiled = InputSchema.validateSchema(schema, batch.schemaOptions);
  if (compiled.ok) return Object.freeze({ ...report, compiled: compiled.value });
  const reason = `kept open: the closed schema did not compile (${compiled.error.code})`;
  return Object.freeze({
    closed: [],
    open: [...report.open, ...report.closed.map((pointer) => ({ pointer, reason }))],
  });
}

/** `x-mcp-header` annotations follow the 2026-07-28 rules (unless the batch ignores them): else the tool is refused. */
function headers(candidate: Candidate, batch: BatchSettings): StageOutcome {
  if (batch.mcpHeaders === "ignore") return undefined;
  // The schema as admission compiled it (a draft-07 schema as upgraded), so that pointers agree with the compiler's.
  const found = mcpHeaders(candidate.input?.validator.schema);
  if (Array.isArray(found)) {
    candidate.headers = Object.freeze(found);
    return undefined;
  }
  const { tool } = candidate;
  const id = { name: tool.name, revision: tool.revision };
  const error = catalogError("validation", "header_invalid", `tool "${tool.name}": ${found.message}`, id);
  error.schemaPointer = found.schemaPointer;
  return refuse(candidate, batch, { status: "refused", error, schema: "inputSchema", batchError: () => error });
}

/**
 * What a host reviews of the tool (its model-facing part and its backend) against its pin, and its hidden text:
 * a changed or unpinned tool is held, hidden text under `hiddenText: "refuse"` refuses it. In a reviewed update
 * (a conversation's) changed and unpinned tools are held whatever the mode.
 */
function identity(candidate: Candidate, batch: BatchSettings): StageOutcome {
  const { tool } = candidate;
  const outcome = checkIdentity(candidate.provider as ProviderTool, tool.backend, tool.revision, batch.identity);
  // No identity (not JSON, over the canonical form's budget), or data outside the schemas nested past the limits:
  // the batch's error, or the tool's alone in isolate mode.
  if (outcome.kind === "failed") return refuseTool(candidate, batch, outcome.error);
  const deep = descriptorLimitError(tool, batch.limits);
  if (deep !== undefined) return refuseTool(candidate, batch, deep);
  candidate.pin = outcome.pin;
  candidate.hidden = outcome.hidden;
  if (outcome.kind === "admitted") return undefined;
  const { error } = outcome;
  const held = error.code !== "hidden_text";
  return refuse(candidate, batch, {
    status: held ? "held" : "refused",
    error,
    pin: outcome.pin,
    batchError: () => identityCatalogError({ name: tool.name, revision: tool.revision }, error),
    keptInStrict: held && batch.review,
  });
}

/** An error that refuses the batch, unless isolate mode refuses the tool alone. */
function refuseTool(candidate: Candidate, batch: BatchSettings, error: CatalogError): StageOutcome {
  return refuse(candidate, batch, { status: "refused", error, batchError: () => error, alwaysFatal: true });
}

/** A required provider target that refuses the tool quarantines it (strict mode refuses the batch). */
function providers(candidate: Candidate, batch: BatchSettings): StageOutcome {
  if (batch.targets === undefined) return undefined;
  const { tool } = candidate;
  // Checked as admission compiled it: a draft-07 schema as upgraded, so that pointers and verdicts agree.
  const target = { name: tool.name, revision: tool.revision, tool: compiledView(candidate) };
  const { checks, refusal } = checkCandidate(target, batch.targets);
  candidate.checked = { candidate: target, checks, kept: refusal === undefined };
  if (refusal === undefined) return undefined;
  const field = refusal.field === "inputSchema" || refusal.field === "outputSchema" ? refusal.field : undefined;
  return refuse(candidate, batch, {
    status: "quarantined",
    error: refusal,
    ...(field === undefined ? {} : { schema: field }),
    batchError: () => providerCatalogError(target, refusal),
    alwaysFatal: refusal.class !== "unsupported_capability",
  });
}

/** The MCP tool as admission compiled it: a draft-07 schema replaced by its upgrade (the published one unchanged). */
function compiledView(candidate: Candidate): Record<string, unknown> {
  const { provider, input, output } = candidate;
  const mcp = provider as unknown as Record<string, unknown>;
  if (input?.upgraded === undefined && output?.upgraded === undefined) return mcp;
  const view: Record<string, unknown> = { ...mcp };
  if (input?.upgraded !== undefined) view["inputSchema"] = input.validator.schema;
  if (output?.upgraded !== undefined) view["outputSchema"] = output.validator.schema;
  return view;
}

/** MCP makes `outputSchema` optional; an own `undefined` counts as absent. */
export function hasOutputSchema(tool: ToolDescriptor): boolean {
  return Object.hasOwn(tool, "outputSchema") && tool.outputSchema !== undefined;
}

function schemaRejected(tool: ToolDescriptor, schema: SchemaField, e: BoundaryError): CatalogError {
  const error = catalogError(
    e.class,
    "schema_rejected",
    `tool "${tool.name}" (revision ${tool.revision}), ${schema}: ${e.message}`,
    { name: tool.name, revision: tool.revision },
  );
  error.cause = e;
  error.schema = schema;
  return error;
}
