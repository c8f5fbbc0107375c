/**
 * Provider targets at admission (docs/guide/providers.md "At admission"): every admitted tool checked against each
 * target's profile as admission hands it over (draft-07 schemas as upgraded), then the batch as one request per target
 * (name collisions, per-request budgets). A required target (the default) must take every admitted tool: strict mode
 * refuses the batch otherwise, quarantine omits the tool. An optional target is only reported. Never throws.
 */

import { isObject, preview } from "../../engine/json/json.js";
import { expecting, optionsProblem, type OptionTable } from "../../engine/options.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import { catalogOf, type CatalogCheck } from "./check-catalog.js";
import { checkTool, type CheckOptions, type ToolCheck } from "./check-tool.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { resolveTargets, type Target } from "./profiles/index.js";
import type { ProviderError } from "./report.js";

/**
 * A provider the batch is checked for: a built-in profile's id (`openai-strict@2026-10`) or bare name (its newest
 * version), a profile object, or that with how it is checked.
 */
export type AdmissionTarget =
  | Target
  | {
      /** The profile: a built-in's id or name, or a profile object. */
      readonly target: Target;
      /**
       * Every admitted tool must be sendable to this provider (the default): strict mode refuses a batch with a tool
       * it refuses, quarantine omits the tool. `false` only reports.
       */
      readonly required?: boolean;
      /** Send the model a wider schema where the provider refuses a constraint (the boundary enforces it). */
      readonly widen?: boolean;
      /** Send a narrower schema where the provider requires closed objects or required properties (`CheckOptions`). */
      readonly narrow?: boolean;
      /**
       * Send optional properties required and nullable where the provider requires every property (`CheckOptions`):
       * pass each model call through `forTarget(id).decodeCall` before `Execution.invoke`.
       */
      readonly encode?: boolean;
      /** Append what a widening removed to the description sent to the model. */
      readonly describeWidening?: boolean;
    };

/** One target's request: what `AdmittedBundle.forTarget` returns. */
export interface TargetRequest extends CatalogCheck {
  /** Whether every admitted tool had to fit this target. */
  readonly required: boolean;
}

/** A target resolved and read once. */
export interface ResolvedTarget {
  readonly profile: ProviderProfile;
  readonly required: boolean;
  readonly options: CheckOptions;
}

const isBoolean = expecting((v) => typeof v === "boolean", "a boolean");

const entryChecks: OptionTable = new Map([
  ["target", () => undefined],
  ["required", isBoolean],
  ["widen", isBoolean],
  ["narrow", isBoolean],
  ["encode", isBoolean],
  ["describeWidening", isBoolean],
]);

/** A target given as `{ target, … }` rather than as a profile or its id. */
function isEntry(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.hasOwn(value, "target");
}

/** The `targets` option's check: a non-empty array of targets, each resolvable, none named twice. */
function targetsProblem(value: unknown): string | undefined {
  const read = readTargets(value, {}, (problem) => problem);
  return read.ok ? undefined : read.error;
}

/** The engine options the provider checks follow: what the boundary asserts, and the walk's bounds. */
export interface TargetSettings {
  readonly formatAssertion?: boolean;
  readonly contentAssertion?: boolean;
  readonly limits?: { readonly maxSchemaDepth?: number; readonly maxSchemaNodes?: number };
}

/** The targets resolved, or the error `refuse` makes of what is wrong with them (`optionRefusal`). */
export function readTargets<E>(
  value: unknown,
  settings: TargetSettings,
  refuse: (problem: string) => E,
): Result<ResolvedTarget[], E> {
  if (!Array.isArray(value) || value.length === 0) {
    const kinds = 'an id such as "openai-strict", a profile, or { target, required, widen }';
    return err(refuse(`must be a non-empty array of provider profiles (${kinds}), got ${preview(value)}`));
  }
  const entries = (value as unknown[]).map((given) => (isEntry(given) ? given : { target: given }));
  for (const entry of entries) {
    const problem = optionsProblem(entry, entryChecks, "target");
    if (problem !== undefined) return err(refuse(problem));
  }
  const resolved = resolveTargets(entries.map((e) => e["target"]));
  if (!resolved.ok) return err(refuse(resolved.error.message));
  const limits = settings.limits;
  return ok(
    resolved.value.map((profile, i) => {
      const entry = entries[i] as Record<string, unknown>;
      const options: CheckOptions = {
        widen: entry["widen"] === true,
        narrow: entry["narrow"] === true,
        encode: entry["encode"] === true,
        describeWidening: entry["describeWidening"] === true,
        // Where the host asserts `format`, dropping one is a widening; otherwise it is an annotation (exact).
        formatAssertion: settings.formatAssertion === true,
        contentAssertion: settings.contentAssertion === true,
        limits: {
          ...(limits?.maxSchemaDepth === undefined ? {} : { maxSchemaDepth: limits.maxSchemaDepth }),
          ...(limits?.maxSchemaNodes === undefined ? {} : { maxSchemaNodes: limits.maxSchemaNodes }),
        },
      };
      return { profile, required: entry["required"] !== false, options };
    }),
  );
}

/** `admitBatch`'s `targets` option. */
export const targetOptionChecks: OptionTable = new Map([["targets", targetsProblem]]);

/** A tool as admission hands it to the provider checks: its bundle name, revision, and the MCP tool as compiled. */
export interface TargetCandidate {
  readonly name: string;
  readonly revision: string;
  /** The provider tool, with the upgraded schemas where draft-07 was translated. */
  readonly tool: Record<string, unknown>;
}

/** Checks of one tool against every target, in target order. */
export type TargetChecks = readonly ToolCheck[];

/** One tool against every target; the refusal that keeps it out (a required target's), if any. */
export function checkCandidate(
  candidate: TargetCandidate,
  targets: readonly ResolvedTarget[],
): { checks: TargetChecks; refusal?: ProviderError } {
  const checks = targets.map((t) => checkTool(candidate.tool, t.profile, t.options));
  const refusing = checks.find((c, i) => targets[i]?.required === true && c.outcome === "refused");
  return refusing?.error === undefined ? { checks } : { checks, refusal: refusing.error };
}

/** A tool checked against every target, and whether it is still in the bundle. */
export interface CheckedCandidate {
  readonly candidate: TargetCandidate;
  readonly checks: TargetChecks;
  /** False for a tool a required target refused on its own (quarantine): reported, never sent. */
  readonly kept: boolean;
}

/** The batch's requests by profile id, and the tools a required target's name collision keeps out. */
export interface TargetOutcome {
  readonly requests: ReadonlyMap<string, TargetRequest>;
  /** Tools a collision under a required target keeps out (quarantine), with why. */
  readonly omitted: ReadonlyMap<string, ProviderError>;
}

/**
 * The requests over the kept tools (in input order): a collision under a required target refuses the batch in strict
 * mode and omits both tools in quarantine; a required target's exceeded budget refuses the batch in strict mode and
 * is reported on the request (`errors`) in quarantine, where the host chooses what to send. Each request's report
 * has every tool checked, kept or not, in input order.
 */
export function assembleRequests(
  checked: readonly CheckedCandidate[],
  targets: readonly ResolvedTarget[],
  strict: boolean,
): Result<TargetOutcome, CatalogError> {
  const build = (tools: readonly CheckedCandidate[]) =>
    targets.map((t, i) =>
      catalogOf(
        tools.map((c) => c.checks[i] as ToolCheck),
        t.profile,
      ),
    );
  const kept = checked.filter((c) => c.kept);
  const first = build(kept);
  const omitted = new Map<string, ProviderError>();
  targets.forEach((t, i) => {
    if (!t.required) return;
    for (const [name, check] of (first[i] as CatalogCheck).report) {
      if (check.outcome === "refused" && check.error !== undefined && !omitted.has(name))
        omitted.set(name, check.error);
    }
  });
  let catalogs = first;
  if (omitted.size > 0) {
    const [name, error] = omitted.entries().next().value as [string, ProviderError];
    if (strict) return err(providerCatalogError(kept.find((c) => c.candidate.name === name)?.candidate, error));
    catalogs = build(kept.filter((c) => !omitted.has(c.candidate.name)));
  }
  const requests = new Map<string, TargetRequest>();
  for (const [i, t] of targets.entries()) {
    const catalog = catalogs[i] as CatalogCheck;
    const budget = catalog.errors[0];
    if (strict && t.required && budget !== undefined) return err(providerCatalogError(undefined, budget));
    const report = new Map<string, ToolCheck>();
    for (const { candidate, checks } of checked) {
      const name = candidate.name;
      report.set(
        name,
        catalog.report.get(name) ?? (first[i] as CatalogCheck).report.get(name) ?? (checks[i] as ToolCheck),
      );
    }
    requests.set(t.profile.id, Object.freeze({ ...catalog, report, required: t.required }));
  }
  return ok({ requests, omitted });
}

/** A required target's refusal as the batch's error (`unsupported_capability` / `provider_unsupported`). */
export function providerCatalogError(tool: TargetCandidate | undefined, error: ProviderError): CatalogError {
  const where = error.schemaPointer === "" ? "" : ` at ${error.field ?? "inputSchema"} "${error.schemaPointer}"`;
  const rule = error.rule === "" ? "" : ` (rule ${error.rule}${where})`;
  const subject = tool === undefined ? "the batch" : `tool "${tool.name}" (revision ${tool.revision})`;
  const message = `${subject} cannot be sent to ${error.profile}: ${error.message}${rule}`;
  const out = catalogError(
    error.class,
    error.code,
    message,
    tool === undefined ? undefined : { name: tool.name, revision: tool.revision },
  );
  out.provider = error;
  return out;
}
