/**
 * One schema against one profile: the rewriting walk, then the limits the profile states for a schema as sent
 * (properties, nesting, enum values, characters, large enums) and the strict per-request budgets a single tool
 * can exceed alone. The outcome follows from what changed and what is refused.
 */

import { measure, strictUsage, type StrictUsage } from "./measure.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { refusal, type ProviderChange, type ProviderError, type ToolField, type ToolOutcome } from "./report.js";
import { walk, type WalkProblem } from "./translation/walk.js";

/** The resolved options of a check. */
export interface CheckSettings {
  readonly widen: boolean;
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  readonly maxDepth: number;
  readonly maxNodes: number;
}

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
  if (maxOptionalParameters !== undefined && usage.optionalParameters > maxOptionalParameters)
    out.push(
      refusal(
        profile.id,
        "inputSchema",
        "max-optional-parameters",
        "required",
        "",
        `${usage.optionalParameters} optional parameters; ${profile.id} takes ${maxOptionalParameters} per request`,
      ),
    );
  if (maxUnionParameters !== undefined && usage.unionParameters > maxUnionParameters)
    out.push(
      refusal(
        profile.id,
        "inputSchema",
        "max-union-parameters",
        "anyOf",
        "",
        `${usage.unionParameters} anyOf or type-array parameters; ${profile.id} takes ${maxUnionParameters} a request`,
      ),
    );
  return out;
}

/** One schema through the walk and the profile's limits. */
export function checkSchema(
  field: ToolField,
  schema: unknown,
  profile: ProviderProfile,
  settings: CheckSettings,
): SchemaCheck {
  const { maxNodes } = settings;
  const result = walk(schema, profile, { field, ...settings });
  const toError = (p: WalkProblem) => refusal(profile.id, field, p.rule, p.keyword, p.pointer, p.message);
  const problems = [...result.problems.map(toError), ...limitProblems(field, result.schema, profile, maxNodes)];
  const outcome = outcomeOf(result.changes, problems);
  return Object.freeze({
    outcome,
    ...(outcome === "refused" ? {} : { schema: outcome === "fits" ? schema : result.schema }),
    changes: Object.freeze([...result.changes]),
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
  const over = (rule: string, keyword: string, pointer: string, message: string) =>
    out.push(refusal(id, field, rule, keyword, pointer, message));
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
