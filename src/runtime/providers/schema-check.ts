/**
 * One schema against one profile: the rewriting walk, then the limits the profile states for a schema as sent
 * (properties, nesting, enum values, characters, large enums) and the strict per-request budgets a single tool
 * can exceed alone. The outcome follows from what changed and what is refused.
 */

import { measure, strictUsage, type StrictUsage } from "./measure.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { refusal, type ProviderChange, type ProviderError, type ToolField, type ToolOutcome } from "./report.js";
import { walk, type WalkOptions, type WalkResult } from "./walk.js";

/** The resolved options of a check: how each of its schemas is walked, but for which field it is. */
export type CheckSettings = Omit<WalkOptions, "field">;

/** The output schema against a profile: reported, never sent, never changing the tool's outcome. */
export interface SchemaCheck {
  /** How the output schema fares. */
  readonly outcome: ToolOutcome;
  /** The schema as a provider's structured-output field would take it (absent when refused). */
  readonly schema?: unknown;
  /** Every change made, with pointers into the output schema. */
  readonly changes: readonly ProviderChange[];
  /** The first refusal. */
  readonly error?: ProviderError;
  /** Every refusal. */
  readonly problems: readonly ProviderError[];
}

/** The outcome of a check from its changes and refusals. */
export function outcomeOf(changes: readonly ProviderChange[], problems: readonly ProviderError[]): ToolOutcome {
  if (problems.length > 0) return "refused";
  if (changes.some((c) => c.kind === "widened")) return "widened";
  return changes.length > 0 ? "translated" : "fits";
}

/** What a strict profile counts of the schema as sent. */
export function usageOf(schema: unknown, settings: CheckSettings): StrictUsage {
  return strictUsage(schema, settings.maxNodes, settings.maxDepth);
}

/** A strict tool alone over a per-request budget can never be sent: refused here, not only by the catalog. */
export function budgetProblems(profile: ProviderProfile, usage: StrictUsage): ProviderError[] {
  const out: ProviderError[] = [];
  const { maxOptionalParameters, maxUnionParameters } = profile.budgets;
  const over = (rule: string, keyword: string, message: string) =>
    out.push(refusal({ profile: profile.id, field: "inputSchema", rule, keyword, schemaPointer: "", message }));
  if (maxOptionalParameters !== undefined && usage.optionalParameters > maxOptionalParameters)
    over(
      "max-optional-parameters",
      "required",
      `${usage.optionalParameters} optional parameters; ${profile.id} takes ${maxOptionalParameters} per request`,
    );
  if (maxUnionParameters !== undefined && usage.unionParameters > maxUnionParameters)
    over(
      "max-union-parameters",
      "anyOf",
      `${usage.unionParameters} anyOf or type-array parameters; ${profile.id} takes ${maxUnionParameters} a request`,
    );
  return out;
}

/** One schema through the walk and the profile's limits, before its refusals are worded. */
export interface SchemaInspection {
  readonly field: ToolField;
  /** The schema as published. */
  readonly schema: unknown;
  readonly profile: ProviderProfile;
  readonly walked: WalkResult;
  /** The limits the schema as sent exceeds. */
  readonly limits: readonly ProviderError[];
}

/** Walks one schema and measures what it would send. */
export function inspectSchema(
  field: ToolField,
  schema: unknown,
  profile: ProviderProfile,
  settings: CheckSettings,
): SchemaInspection {
  const walked = walk(schema, profile, { field, ...settings });
  return { field, schema, profile, walked, limits: limitProblems(field, walked.schema, profile, settings.maxNodes) };
}

/** Whether some refusal is one `widen: true` would remove. */
export function widenable(inspection: SchemaInspection): boolean {
  return inspection.walked.problems.some((p) => p.widenable);
}

/** The report of an inspection; `hint` is added to each refusal a widening would remove (whether that would do). */
export function schemaCheckOf(inspection: SchemaInspection, hint = ""): SchemaCheck {
  const { field, profile, walked } = inspection;
  const problems = [
    ...walked.problems.map((p) =>
      refusal({
        profile: profile.id,
        field,
        rule: p.rule,
        keyword: p.keyword,
        schemaPointer: p.pointer,
        message: p.widenable ? p.message + hint : p.message,
      }),
    ),
    ...inspection.limits,
  ];
  const outcome = outcomeOf(walked.changes, problems);
  return Object.freeze({
    outcome,
    ...(outcome === "refused" ? {} : { schema: outcome === "fits" ? inspection.schema : walked.schema }),
    changes: Object.freeze([...walked.changes]),
    problems: Object.freeze(problems),
    ...(problems[0] === undefined ? {} : { error: problems[0] }),
  });
}

function limitProblems(field: ToolField, schema: unknown, profile: ProviderProfile, maxNodes: number): ProviderError[] {
  const limits = profile.limits;
  if (Object.keys(limits).length === 0) return [];
  const m = measure(schema, maxNodes);
  const id = profile.id;
  const out: ProviderError[] = [];
  const over = (rule: string, keyword: string, schemaPointer: string, message: string) =>
    out.push(refusal({ profile: id, field, rule, keyword, schemaPointer, message }));
  if (limits.maxProperties !== undefined && m.properties > limits.maxProperties)
    over(
      "max-properties",
      "properties",
      "",
      `${m.properties} properties in total; ${id} takes at most ${limits.maxProperties}`,
    );
  if (limits.maxDepth !== undefined && m.depth > limits.maxDepth)
    over("max-depth", "", "", `${m.depth} levels of nesting; ${id} takes at most ${limits.maxDepth}`);
  if (limits.maxEnumValues !== undefined && m.enumValues > limits.maxEnumValues)
    over(
      "max-enum-values",
      "enum",
      "",
      `${m.enumValues} enum values in total; ${id} takes at most ${limits.maxEnumValues}`,
    );
  if (limits.maxStringBudget !== undefined && m.stringBudget > limits.maxStringBudget)
    over(
      "max-string-budget",
      "",
      "",
      `${m.stringBudget} characters of names and values; ${id} takes at most ${limits.maxStringBudget}`,
    );
  const large = limits.largeEnum;
  if (large !== undefined)
    for (const e of m.enums)
      if (e.values > large.over && e.length > large.maxLength)
        over(
          "large-enum",
          "enum",
          e.pointer,
          `an enum of ${e.values} values and ${e.length} characters (as sent); ${id} takes ` +
            `at most ${large.maxLength} characters in an enum of more than ${large.over} values`,
        );
  return out;
}
