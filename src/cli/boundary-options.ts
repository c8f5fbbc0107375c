/**
 * The options `validate` and `admit` share (README "CLI"): repeatable `--limit name=value` and
 * `--draft07 reject|upgrade`. Like the library's own options they fail closed: an unknown limit or a
 * malformed value is a usage error, never ignored.
 */

import { defaultLimits, type Draft07Mode, type Limits } from "../index.js";
import { CliError, type ArgSpec, type ParsedArgs } from "./args.js";

export const BOUNDARY_ARGS = { options: ["--draft07"], repeatable: ["--limit"] } as const satisfies Omit<
  ArgSpec,
  "flags"
>;

const DRAFT07_MODES: readonly Draft07Mode[] = ["reject", "upgrade"];

/** The `limits` option from every `--limit name=value`, or undefined when none was given. */
export function limitsOf(args: ParsedArgs): Partial<Limits> | undefined {
  const given = args.lists.get("--limit");
  if (given === undefined) return undefined;
  const limits = new Map<string, number>();
  for (const text of given) {
    const eq = text.indexOf("=");
    if (eq < 0) throw new CliError(`--limit ${text}: expected name=value, e.g. maxEvaluationSteps=10000`);
    const name = text.slice(0, eq);
    const value = text.slice(eq + 1);
    if (!Object.hasOwn(defaultLimits, name))
      throw new CliError(`--limit ${text}: unknown limit "${name}" (known: ${Object.keys(defaultLimits).join(", ")})`);
    if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)))
      throw new CliError(`--limit ${text}: the value must be a non-negative integer, got "${value}"`);
    if (limits.has(name)) throw new CliError(`--limit ${name} given more than once`);
    limits.set(name, Number(value));
  }
  return Object.fromEntries(limits) as Partial<Limits>;
}

/** `--draft07 reject|upgrade` (default reject: a draft-07 schema is `unsupported_capability`). */
export function draft07Of(args: ParsedArgs): Draft07Mode {
  const given = args.options.get("--draft07") ?? "reject";
  if (!(DRAFT07_MODES as readonly string[]).includes(given))
    throw new CliError(`--draft07 must be one of ${DRAFT07_MODES.join(", ")} (got "${given}")`);
  return given as Draft07Mode;
}
