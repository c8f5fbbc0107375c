/**
 * The options `validate` and `admit` share (docs/reference/cli.md): repeatable `--limit name=value` and `--format
 * name=module`, `--draft07 reject|upgrade`, `--strict-schema`. Like the library's own options they fail closed: an
 * unknown limit, a malformed value or a format module that does not give a checker is a usage error, never ignored.
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { errorMessage } from "../engine/errors.js";
import { defaultLimits, type Draft07Mode, type FormatDefinition, type FormatCheck, type Limits } from "../index.js";
import { CliError, oneLine, type ArgSpec, type ParsedArgs } from "./args.js";

export const BOUNDARY_ARGS = {
  flags: ["--strict-schema"],
  options: ["--draft07"],
  repeatable: ["--limit", "--format"],
} as const satisfies ArgSpec;

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

/**
 * The `formats` option from every `--format name=module`: the module (a path, or a package name) is imported and its
 * default export is the checker, a function of a string or `{ check, types?, override? }` as `compile` takes it.
 */
export async function formatsOf(args: ParsedArgs): Promise<Map<string, FormatCheck | FormatDefinition> | undefined> {
  const given = args.lists.get("--format");
  if (given === undefined) return undefined;
  const formats = new Map<string, FormatCheck | FormatDefinition>();
  for (const text of given) {
    const eq = text.indexOf("=");
    if (eq <= 0 || eq === text.length - 1)
      throw new CliError(`--format ${text}: expected name=module, e.g. sku=./formats/sku.mjs`);
    const name = text.slice(0, eq);
    const specifier = text.slice(eq + 1);
    if (formats.has(name)) throw new CliError(`--format ${name} given more than once`);
    const url = /^\.{0,2}\//.test(specifier) ? pathToFileURL(resolve(specifier)).href : specifier;
    let loaded: { default?: unknown };
    try {
      loaded = (await import(url)) as { default?: unknown };
    } catch (e) {
      throw new CliError(`--format ${text}: cannot import ${specifier}: ${oneLine(errorMessage(e))}`);
    }
    const checker = loaded.default;
    if (typeof checker !== "function" && (typeof checker !== "object" || checker === null))
      throw new CliError(
        `--format ${text}: ${specifier} must export default a checker (value) => boolean or { check, types }`,
      );
    formats.set(name, checker as FormatCheck | FormatDefinition);
  }
  return formats;
}
