/**
 * The one place an `AdmittedBundle` is built: from the batch's candidates in input order, after every stage ran.
 * Admitted tools go to the registry, the provider tools, the accepted names, the pins and the upgrade list; rejected
 * ones to the diagnostics with their status; the provider targets' requests are assembled over the tools they kept,
 * and a tool a required target's name collision keeps out (quarantine) is rejected there.
 */

import { defineOwn } from "../../engine/json/json.js";
import type { CatalogError } from "../errors/catalog-error.js";
import type { ProviderError } from "../errors/details.js";
import { ok, type Result } from "../errors/result.js";
import type { ProviderTool, ToolDescriptor } from "../descriptor/tool-descriptor.js";
import { assembleRequests, type CheckedCandidate, type TargetRequest } from "../providers/admission-targets.js";
import {
  AdmittedBundle,
  HiddenTextReport,
  RejectedTool,
  type AdmittedTool,
  type UpgradedSchema,
} from "./admitted-bundle.js";
import { narrowAuthority } from "./authority.js";
import type { BatchSettings } from "./batch.js";
import type { Candidate } from "./candidate.js";
import { hasOutputSchema } from "./stages.js";

/** The bundle of a batch whose every candidate went through the stages, or the batch's error from the targets. */
export function buildBundle(
  candidates: readonly Candidate[],
  batch: BatchSettings,
): Result<AdmittedBundle, CatalogError> {
  let requests: ReadonlyMap<string, TargetRequest> = new Map();
  let omitted: ReadonlyMap<string, ProviderError> = new Map();
  if (batch.targets !== undefined) {
    const checked = candidates.flatMap((c) => (c.checked === undefined ? [] : [c.checked as CheckedCandidate]));
    const outcome = assembleRequests(checked, batch.targets, batch.mode === "strict");
    if (!outcome.ok) return outcome;
    ({ requests, omitted } = outcome.value);
  }
  const registry = new Map<string, AdmittedTool>();
  const tools: ProviderTool[] = [];
  const accepted: string[] = [];
  const rejected: RejectedTool[] = [];
  const upgraded: UpgradedSchema[] = [];
  const pins: Record<string, string> = {};
  const hiddenText: HiddenTextReport[] = [];
  for (const candidate of candidates) {
    const { tool, rejection } = candidate;
    const collision = rejection === undefined ? omitted.get(tool.name) : undefined;
    if (collision !== undefined) {
      // Quarantine: a name collision under a required target keeps both tools out.
      const field =
        collision.field === "inputSchema" || collision.field === "outputSchema" ? collision.field : undefined;
      const fields = { name: tool.name, revision: tool.revision, status: "quarantined" as const, error: collision };
      rejected.push(new RejectedTool(field === undefined ? fields : { ...fields, schema: field }));
      continue;
    }
    if (candidate.hidden.length > 0 && (rejection === undefined || rejection.status === "held")) {
      hiddenText.push(new HiddenTextReport(tool.name, tool.revision, candidate.hidden));
    }
    if (rejection !== undefined) {
      rejected.push(rejection);
      continue;
    }
    const admitted = admittedTool(candidate);
    registry.set(tool.name, admitted);
    tools.push(admitted.provider);
    accepted.push(tool.name);
    defineOwn(pins, tool.name, candidate.pin as string);
    for (const [schema, compiled] of [
      ["inputSchema", candidate.input],
      ["outputSchema", candidate.output],
    ] as const) {
      const changes = compiled?.upgraded;
      if (changes !== undefined) upgraded.push({ name: tool.name, revision: tool.revision, schema, changes });
    }
  }
  const authority = narrowAuthority(batch.authority, (name) => registry.has(name));
  return ok(
    new AdmittedBundle({ registry, tools, authority, accepted, rejected, upgraded, pins, hiddenText, requests }),
  );
}

/** An admitted candidate as the registry holds it: frozen, with the descriptor's fields and its compiled schemas. */
function admittedTool(candidate: Candidate): AdmittedTool {
  const { tool } = candidate;
  const out: { -readonly [K in keyof AdmittedTool]?: AdmittedTool[K] } = {
    name: tool.name,
    serverName: candidate.serverName,
    revision: tool.revision,
    inputSchema: tool.inputSchema,
  };
  if (tool.backend !== undefined) out.backend = tool.backend;
  if (Object.hasOwn(tool, "description")) out.description = tool.description;
  if (hasOutputSchema(tool)) out.outputSchema = tool.outputSchema;
  if (Object.hasOwn(tool, "annotations")) out.annotations = tool.annotations;
  if (Object.hasOwn(tool, "_meta") && tool._meta !== undefined) out.meta = tool._meta;
  out.headers = candidate.headers;
  const support = taskSupport(tool);
  if (support !== undefined) out.taskSupport = support;
  out.provider = candidate.provider as ProviderTool;
  out.compiled = candidate.input as AdmittedTool["compiled"];
  if (candidate.output !== undefined) out.compiledOutput = candidate.output;
  if (candidate.closed !== undefined) out.closedArguments = candidate.closed;
  return Object.freeze(out as AdmittedTool);
}

/** `execution.taskSupport` as the descriptor declares it (its value was checked with the metadata). */
function taskSupport(tool: ToolDescriptor): AdmittedTool["taskSupport"] {
  const execution = tool.execution;
  const support = execution === undefined ? undefined : execution["taskSupport"];
  return support === "forbidden" || support === "optional" || support === "required" ? support : undefined;
}
