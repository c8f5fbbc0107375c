/**
 * `checkCatalog` (docs/guide/providers.md "Check a tool or a catalog"): a batch of MCP tools against one profile, as
 * one request — each tool checked by `checkTool`, then what only the whole request shows: two tools with one provider
 * name (both refused), the tool count, and Anthropic's strict budgets summed over the batch. The name map and the call
 * decoder take a provider's tool call back to its MCP tool and arguments. Never throws.
 */

import type { Result } from "../errors/result.js";
import { callDecoder, type CallDecodeError, type DecodedCall } from "./call-decoder.js";
import { checkSetup, checkTool, decodePlanOf, type CheckOptions, type ToolCheck } from "./check-tool.js";
import type { ProviderProfile } from "./profiles/profile.js";
import type { Target } from "./profiles/index.js";
import { providerError, refusal, type ProviderError } from "./report.js";
import type { ProviderRequestTool } from "./profiles/request-format.js";
import { ToolNameMap } from "./tool-names.js";

/** What one request spends of a profile's per-request budgets. */
export interface CatalogUsage {
  /** Tools in the request. */
  readonly tools: number;
  /** Strict tools in the request (all of them for a strict profile). */
  readonly strictTools: number;
  /** Optional parameters over the strict tools. */
  readonly optionalParameters: number;
  /** Union parameters over the strict tools. */
  readonly unionParameters: number;
}

/** A batch against one profile. */
export interface CatalogCheck {
  /** The profile's id (empty when the target was unusable). */
  readonly profile: string;
  /** The provider-ready tools, in input order; refused tools are left out. */
  readonly tools: readonly ProviderRequestTool[];
  /** Each tool's report by MCP name. */
  readonly report: ReadonlyMap<string, ToolCheck>;
  /** MCP name ↔ provider name for the tools sent. */
  readonly names: ToolNameMap;
  /** What the tools sent spend of the per-request budgets. */
  readonly usage: CatalogUsage;
  /** Why the request cannot be sent as it is (a budget exceeded, bad options); empty when it can. */
  readonly errors: readonly ProviderError[];
  /**
   * A model's tool call (`{ name, arguments }`, the provider's tool name and the parsed arguments) back to the call
   * to hand `Execution.invoke`: the MCP tool name, and the arguments with every null an encoded optional property
   * carries removed (`encode: true`), so that the boundary judges them by the original schema. Arguments with no
   * such null come back as the very same value. Never throws: a value that is no call, a tool the request does not
   * list, or arguments over the engine's instance limits are an error.
   */
  decodeCall(call: unknown): Result<DecodedCall, CallDecodeError>;
}

/**
 * A batch of MCP tools against one profile (a `ProviderProfile`, or a built-in's id or name), as one request:
 * per-tool reports, the provider-ready tool list, the name map, and the per-request budgets over the tools sent.
 */
export function checkCatalog(tools: readonly unknown[], target: Target, options?: CheckOptions): CatalogCheck {
  const setup = checkSetup(target, options, "checkCatalog");
  if (!setup.ok) return empty("", [setup.error]);
  const profile = setup.profile;
  if (!Array.isArray(tools))
    return empty(profile.id, [
      providerError({
        class: "validation",
        code: "tool_invalid",
        message: "tools must be an array of MCP tools",
        profile: profile.id,
        rule: "",
        keyword: "",
        schemaPointer: "",
      }),
    ]);
  return catalogOf(
    tools.map((tool) => checkTool(tool, profile, options)),
    profile,
  );
}

/**
 * A request from tools already checked against `profile` (in input order): two tools with one provider name are
 * both refused, and the budgets are summed over the tools sent. What admission's provider targets build on.
 */
export function catalogOf(checks: readonly ToolCheck[], profile: ProviderProfile): CatalogCheck {
  const byName = new Map<string, ToolCheck[]>();
  for (const c of checks) {
    const key = c.providerName ?? `\u0000${c.name}`;
    byName.set(key, [...(byName.get(key) ?? []), c]);
  }
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const final = checks.map((c) => {
    const clash =
      (c.providerName !== undefined && (byName.get(c.providerName)?.length ?? 0) > 1) || (counts.get(c.name) ?? 0) > 1;
    return clash && c.outcome !== "refused" ? collided(c, byName.get(c.providerName as string) ?? [c], profile) : c;
  });
  const sent = final.filter((c) => c.tool !== undefined);
  const usage: CatalogUsage = Object.freeze({
    tools: sent.length,
    strictTools: profile.strict ? sent.length : 0,
    optionalParameters: sent.reduce((n, c) => n + c.usage.optionalParameters, 0),
    unionParameters: sent.reduce((n, c) => n + c.usage.unionParameters, 0),
  });
  const report = new Map<string, ToolCheck>();
  for (const c of final) if (!report.has(c.name) || c.outcome === "refused") report.set(c.name, c);
  const decoders = sent.map((c) => {
    const plan = decodePlanOf(c);
    return [c.providerName as string, { name: c.name, ...(plan === undefined ? {} : { plan }) }] as const;
  });
  return Object.freeze({
    profile: profile.id,
    tools: Object.freeze(sent.map((c) => c.tool as ProviderRequestTool)),
    report,
    names: new ToolNameMap(sent.map((c) => [c.name, c.providerName as string] as const)),
    usage,
    errors: Object.freeze(budgetErrors(profile, usage)),
    decodeCall: callDecoder(new Map(decoders)),
  });
}

function empty(profile: string, errors: ProviderError[]): CatalogCheck {
  return Object.freeze({
    profile,
    tools: Object.freeze([]),
    report: new Map(),
    names: new ToolNameMap([]),
    usage: Object.freeze({ tools: 0, strictTools: 0, optionalParameters: 0, unionParameters: 0 }),
    errors: Object.freeze(errors),
    decodeCall: callDecoder(new Map()),
  });
}

function collided(check: ToolCheck, group: readonly ToolCheck[], profile: ProviderProfile): ToolCheck {
  const others = group.filter((c) => c !== check).map((c) => `"${c.name}"`);
  const with_ = others.length > 0 ? others.join(", ") : "another tool of the same name";
  const error = refusal({
    profile: profile.id,
    field: "name",
    rule: "tool-name-collision",
    keyword: "name",
    schemaPointer: "",
    message: `"${check.name}" and ${with_} are all "${check.providerName}" for ${profile.id}`,
  });
  const { tool: _tool, ...rest } = check;
  return Object.freeze({ ...rest, outcome: "refused", error, problems: Object.freeze([error, ...check.problems]) });
}

function budgetErrors(profile: ProviderProfile, usage: CatalogUsage): ProviderError[] {
  const { maxTools, maxStrictTools, maxOptionalParameters, maxUnionParameters } = profile.budgets;
  const id = profile.id;
  const out: ProviderError[] = [];
  const over = (rule: string, used: number, max: number | undefined, what: string) => {
    if (max !== undefined && used > max)
      out.push(
        providerError({
          class: "unsupported_capability",
          code: "provider_unsupported",
          message: `${used} ${what} in one request; ${id} takes at most ${max}`,
          profile: id,
          rule,
          keyword: "",
          schemaPointer: "",
        }),
      );
  };
  over("max-tools", usage.tools, maxTools, "tools");
  if (profile.strict) {
    over("max-strict-tools", usage.strictTools, maxStrictTools, "strict tools");
    over("max-optional-parameters", usage.optionalParameters, maxOptionalParameters, "optional parameters");
    over("max-union-parameters", usage.unionParameters, maxUnionParameters, "union parameters");
  }
  return out;
}
