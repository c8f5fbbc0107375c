/**
 * `checkTool` (docs/guide/providers.md "Check a tool or a catalog"): one MCP tool against one profile. The input schema
 * decides the outcome — it fits as published, is translated (exactly, or narrowed and encoded when asked: see
 * docs/guide/providers-openai-strict.md), is widened (only with `widen: true`), or is refused with the rule, keyword
 * and pointer. The output schema, which no provider request carries, is reported against the same profile (its
 * structured-output subset) without changing the outcome. A refusal says `widen: true` would remove it only when the
 * tool checked again widened would be sent. Never throws.
 */

import { errorMessage, LimitError } from "../../engine/errors.js";
import { checkJson } from "../../engine/json/host-json.js";
import { isObject, preview } from "../../engine/json/json.js";
import { defaultLimits } from "../../engine/limits.js";
import { expecting, optionsProblem, type OptionTable } from "../../engine/options.js";
import type { StrictUsage } from "./measure.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { resolveProfile, type Target } from "./profiles/index.js";
import { WalkLimit } from "./translation/ref-graph.js";
import { providerError, refusal, type ProviderChange, type ProviderError, type ToolOutcome } from "./report.js";
import { requestTool, type ProviderRequestTool } from "./profiles/request-format.js";
import { providerName } from "./tool-names.js";
import {
  budgetProblems,
  inspectSchema,
  outcomeOf,
  schemaCheckOf,
  usageOf,
  widenable,
  type CheckSettings,
  type SchemaCheck,
  type SchemaInspection,
} from "./schema-check.js";
import type { DecodeNode } from "./translation/decode-plan.js";

/** Options of `checkTool` and `checkCatalog`. */
export interface CheckOptions {
  /** Send a wider schema where the provider refuses a constraint the boundary enforces (default false). */
  readonly widen?: boolean;
  /**
   * Send a narrower schema where the provider requires it (default false): an open object closed, an optional
   * property that accepts null made required. The model can then send fewer calls, each one the tool accepts.
   */
  readonly narrow?: boolean;
  /**
   * Send an optional property that refuses null as required and nullable where the provider requires every property
   * (default false). A null then means "absent": pass each model call through `decodeCall` of the request before
   * `Execution.invoke`.
   */
  readonly encode?: boolean;
  /** Append what a widening removed to the tool description, for the model (default false). */
  readonly describeWidening?: boolean;
  /** The boundary asserts `format` (as the engine's option): dropping one is then a widening (default false). */
  readonly formatAssertion?: boolean;
  /** The boundary asserts `content*` (as the engine's option): dropping one is then a widening (default false). */
  readonly contentAssertion?: boolean;
  /** Bounds of the walk (defaults: the engine's `maxSchemaDepth` and `maxSchemaNodes`). */
  readonly limits?: {
    /** Nesting of subschemas, references followed included. */
    readonly maxSchemaDepth?: number;
    /** Schema objects visited, rewritten copies included. */
    readonly maxSchemaNodes?: number;
  };
}

/** One tool against one profile. */
export interface ToolCheck {
  /** The profile's id. */
  readonly profile: string;
  /** The MCP tool name. */
  readonly name: string;
  /** fits, translated, widened or refused. */
  readonly outcome: ToolOutcome;
  /** The name the provider knows the tool by (the MCP name when it fits the provider's rule). */
  readonly providerName?: string;
  /** The tool in the provider's request format (absent when refused). */
  readonly tool?: ProviderRequestTool;
  /** Every change made to the name and the input schema, with pointers into the original. */
  readonly changes: readonly ProviderChange[];
  /** The first refusal (`unsupported_capability` / `provider_unsupported`), or the error that stopped the check. */
  readonly error?: ProviderError;
  /** Every refusal found. */
  readonly problems: readonly ProviderError[];
  /** The output schema's own report, when the tool has one. */
  readonly output?: SchemaCheck;
  /** What the input schema as sent counts against a strict profile's per-request budgets. */
  readonly usage: StrictUsage;
}

const isBoolean = expecting((v) => typeof v === "boolean", "a boolean");

const limitChecks: OptionTable = new Map([
  ["maxSchemaDepth", expecting((v) => Number.isInteger(v) && (v as number) >= 0, "a non-negative integer")],
  ["maxSchemaNodes", expecting((v) => Number.isInteger(v) && (v as number) >= 0, "a non-negative integer")],
]);

/** `checkTool` / `checkCatalog` options, checked fail closed. */
const checkOptionChecks: OptionTable = new Map([
  ["widen", isBoolean],
  ["narrow", isBoolean],
  ["encode", isBoolean],
  ["describeWidening", isBoolean],
  ["formatAssertion", isBoolean],
  ["contentAssertion", isBoolean],
  ["limits", (v) => optionsProblem(v, limitChecks, "limits")],
]);

const NO_USAGE: StrictUsage = Object.freeze({ optionalParameters: 0, unionParameters: 0 });

/** Longest text a description gets for widenings. */
const WIDENING_TEXT = 1_000;

/** What a refusal that a widening removes says when checking the tool widened sends it. */
const WIDENING_WOULD_DO = " (widen: true would drop it for the model; the boundary enforces it)";

/** The decode plans of checks whose input schema encoded optional properties (`encode: true`). */
const decodePlans = new WeakMap<ToolCheck, DecodeNode>();

/** The decode plan of a check, when its sent schema encoded optional properties. */
export function decodePlanOf(check: ToolCheck): DecodeNode | undefined {
  return decodePlans.get(check);
}

/** The profile and options of a check, or the error that stops it. */
export function checkSetup(
  target: Target,
  options: CheckOptions | undefined,
  what: string,
): { ok: true; profile: ProviderProfile } | { ok: false; error: ProviderError } {
  const problem = optionsProblem(options, checkOptionChecks, what);
  if (problem !== undefined) return { ok: false, error: invalidOptions(problem) };
  const resolved = resolveProfile(target);
  if (!resolved.ok) return { ok: false, error: invalidOptions(resolved.error.message) };
  return { ok: true, profile: resolved.value };
}

function invalidOptions(message: string): ProviderError {
  return providerError({
    class: "validation",
    code: "options_invalid",
    message,
    profile: "",
    rule: "",
    keyword: "",
    schemaPointer: "",
  });
}

/**
 * One MCP tool (`name`, `description`, `inputSchema`, `outputSchema`, …) against one profile (a `ProviderProfile`,
 * or a built-in's id or name). Returns the outcome, the provider-ready tool, every change and every refusal; bad
 * options or an unknown profile are an `options_invalid` error, never a throw.
 */
export function checkTool(tool: unknown, target: Target, options?: CheckOptions): ToolCheck {
  const setup = checkSetup(target, options, "checkTool");
  const name = safeName(tool);
  if (!setup.ok) return failed("", name, setup.error);
  try {
    return check(tool, setup.profile, options ?? {});
  } catch (error) {
    const id = setup.profile.id;
    if (error instanceof WalkLimit || error instanceof LimitError)
      return failed(id, name, {
        class: "execution_failure",
        code: "limit_exceeded",
        message: `checking tool "${name}" for ${id}: ${error.message}`,
        profile: id,
        rule: "",
        keyword: "",
        schemaPointer: "",
      });
    return failed(id, name, {
      class: "validation",
      code: "tool_invalid",
      message: `tool "${name}" could not be read as plain data: ${errorMessage(error)}`,
      profile: id,
      rule: "",
      keyword: "",
      schemaPointer: "",
    });
  }
}

function settingsOf(options: CheckOptions): CheckSettings {
  return {
    widen: options.widen ?? false,
    narrow: options.narrow ?? false,
    encode: options.encode ?? false,
    formatAssertion: options.formatAssertion ?? false,
    contentAssertion: options.contentAssertion ?? false,
    maxDepth: options.limits?.maxSchemaDepth ?? defaultLimits.maxSchemaDepth,
    maxNodes: options.limits?.maxSchemaNodes ?? defaultLimits.maxSchemaNodes,
  };
}

function safeName(tool: unknown): string {
  try {
    return isObject(tool) && typeof tool["name"] === "string" ? tool["name"] : "";
  } catch {
    return "";
  }
}

function failed(profile: string, name: string, error: ProviderError): ToolCheck {
  const frozen = providerError(error);
  return Object.freeze({
    profile,
    name,
    outcome: "refused",
    changes: [],
    error: frozen,
    problems: [frozen],
    usage: NO_USAGE,
  });
}

/** What a check reads of a tool: its name, its description, and its schemas, checked to be plain JSON. */
interface ToolParts {
  readonly name: string;
  readonly description: string | undefined;
  readonly inputSchema: unknown;
  /** Absent (undefined) when the tool has none. */
  readonly outputSchema: unknown;
}

function toolParts(tool: unknown): ToolParts {
  if (!isObject(tool)) throw new TypeError("a tool must be an object");
  const name = typeof tool["name"] === "string" ? tool["name"] : "";
  const description = typeof tool["description"] === "string" ? tool["description"] : undefined;
  const inputSchema = tool["inputSchema"];
  const outputSchema = Object.hasOwn(tool, "outputSchema") ? tool["outputSchema"] : undefined;
  const parts = { name, description, inputSchema, outputSchema };
  const schemas: [string, unknown][] = [["inputSchema", inputSchema]];
  if (outputSchema !== undefined) schemas.push(["outputSchema", outputSchema]);
  for (const [field, schema] of schemas) {
    const json = checkJson(schema);
    if (!json.ok) throw new TypeError(`${field} at "${json.pointer}": ${json.message}`);
  }
  return parts;
}

function check(tool: unknown, profile: ProviderProfile, options: CheckOptions): ToolCheck {
  const parts = toolParts(tool);
  const { name } = parts;
  const changes: ProviderChange[] = [];
  const problems: ProviderError[] = [];
  const sentName = providerName(name, profile.toolName);
  if (sentName === undefined) problems.push(nameRefused(name, profile));
  else if (sentName !== name) changes.push(renamed(name, sentName));
  const settings = settingsOf(options);
  const { inspection, input } = inputCheck(tool, parts.inputSchema, profile, options);
  changes.push(...input.changes);
  problems.push(...input.problems);
  const usage = profile.strict && input.schema !== undefined ? usageOf(input.schema, settings) : NO_USAGE;
  problems.push(...budgetProblems(profile, usage));
  // The output schema is no tool argument a model sends: narrowed maybe, never encoded (nothing would decode it).
  const output =
    parts.outputSchema !== undefined
      ? outputCheck(parts.outputSchema, profile, { ...settings, encode: false })
      : undefined;
  const outcome = outcomeOf(changes, problems);
  const base = {
    profile: profile.id,
    name,
    outcome,
    ...(sentName === undefined ? {} : { providerName: sentName }),
    changes: Object.freeze(changes),
    problems: Object.freeze(problems),
    ...(problems[0] === undefined ? {} : { error: problems[0] }),
    ...(output === undefined ? {} : { output }),
    usage,
  };
  if (outcome === "refused" || sentName === undefined) return Object.freeze(base);
  const sent = input.outcome === "fits" ? parts.inputSchema : input.schema;
  const text = options.describeWidening ? describeWidening(parts.description, changes) : parts.description;
  const result = Object.freeze({
    ...base,
    tool: requestTool(profile, { name: sentName, description: text, schema: sent }),
  });
  const plan = inspection.walked.decoder;
  if (plan !== undefined) decodePlans.set(result, plan);
  return result;
}

function nameRefused(name: string, profile: ProviderProfile): ProviderError {
  const { maxLength } = profile.toolName;
  return refusal({
    profile: profile.id,
    field: "name",
    rule: "tool-name",
    keyword: "name",
    schemaPointer: "",
    message: `the tool name ${preview(name)} cannot be made to fit ${profile.id} (at most ${maxLength} characters)`,
  });
}

function renamed(name: string, sentName: string): ProviderChange {
  return Object.freeze({
    field: "name",
    pointer: "",
    keyword: "name",
    rule: "tool-name",
    kind: "exact",
    change: "tool-renamed",
    message: `renamed "${name}" → "${sentName}" (the name map takes calls back)`,
  });
}

/**
 * The inspection and report of the tool's input schema (`schema`); its widening hint comes from the whole tool
 * checked again widened.
 */
function inputCheck(
  tool: unknown,
  schema: unknown,
  profile: ProviderProfile,
  options: CheckOptions,
): { inspection: SchemaInspection; input: SchemaCheck } {
  const inspection = inspectSchema("inputSchema", schema, profile, settingsOf(options));
  const hint = widenable(inspection) ? widenHint(check(tool, profile, { ...options, widen: true }).error, "tool") : "";
  return { inspection, input: schemaCheckOf(inspection, hint) };
}

/**
 * What a refusal a widening removes adds to its message: that `widen: true` would do, when the check widened is
 * not refused; else the refusal that would remain (the check without widening is the caller's).
 */
function widenHint(widenedError: ProviderError | undefined, subject: string): string {
  if (widenedError === undefined) return WIDENING_WOULD_DO;
  const where = widenedError.schemaPointer === "" ? "" : ` at "${widenedError.schemaPointer}"`;
  const rule = widenedError.rule === "" ? widenedError.code : `rule ${widenedError.rule}`;
  return ` (widen: true would drop it, but ${rule}${where} would still refuse the ${subject})`;
}

/** The output schema's report; its widening hint comes from the output schema checked again widened. */
function outputCheck(schema: unknown, profile: ProviderProfile, settings: CheckSettings): SchemaCheck {
  const inspection = inspectSchema("outputSchema", schema, profile, settings);
  if (settings.widen || !widenable(inspection)) return schemaCheckOf(inspection);
  const widened = schemaCheckOf(inspectSchema("outputSchema", schema, profile, { ...settings, widen: true }));
  return schemaCheckOf(inspection, widenHint(widened.error, "output schema"));
}

/** The description with what the widenings removed, for the model (the boundary enforces it either way). */
function describeWidening(description: string | undefined, changes: readonly ProviderChange[]): string | undefined {
  const widened = changes.filter((c) => c.kind === "widened");
  if (widened.length === 0) return description;
  let text = "Also checked when called (not expressible here):";
  for (const change of widened) {
    const where = change.pointer === "" ? "the root" : change.pointer;
    const line = ` ${where}: ${change.message};`;
    if (text.length + line.length > WIDENING_TEXT) {
      text += " …";
      break;
    }
    text += line;
  }
  return description === undefined || description === "" ? text : `${description}\n\n${text}`;
}
