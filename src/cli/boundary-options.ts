/**
 * The options `validate` and `admit` share (docs/reference/cli.md): repeatable `--limit name=value` and `--format
 * name=module`, `--draft07 reject|upgrade`, `--legacy-dialects refuse|upgrade`, `--strict-schema`,
 * `--format-assertion` / `--no-format-assertion`, `--max-input-bytes`. Like the library's own options they fail closed:
 * an unknown limit, a malformed value, a format module that does not give a checker or a checker that would never be
 * called is a usage error, never ignored.
 */

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { errorMessage, isInstance } from "../engine/errors.js";
import { isPlainObject, preview } from "../engine/json/json.js";
import {
  defaultLimits,
  type Draft07Mode,
  type FormatDefinition,
  type FormatCheck,
  type LegacyDialectsMode,
  type Limits,
} from "../index.js";
import { CliError, errorCode, oneLine, type ArgSpec, type ParsedArgs } from "./args.js";
import { DEFAULT_MAX_INPUT_BYTES } from "./files.js";

export const BOUNDARY_ARGS = {
  flags: ["--strict-schema", "--format-assertion", "--no-format-assertion"],
  options: ["--draft07", "--legacy-dialects", "--max-input-bytes"],
  repeatable: ["--limit", "--format"],
} as const satisfies ArgSpec;

/** This module's own file, which Node names as the importer of a `--format` module it cannot find. */
const THIS_FILE = fileURLToPath(import.meta.url);

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

/** `--draft07 reject|upgrade` (absent: `--legacy-dialects` decides, and by default a draft-07 schema is refused). */
export function draft07Of(args: ParsedArgs): Draft07Mode | undefined {
  const given = args.options.get("--draft07");
  if (given !== undefined && !(DRAFT07_MODES as readonly string[]).includes(given))
    throw new CliError(`--draft07 must be one of ${DRAFT07_MODES.join(", ")} (got "${given}")`);
  return given as Draft07Mode | undefined;
}

const LEGACY_MODES: readonly LegacyDialectsMode[] = ["refuse", "upgrade"];

/** `--legacy-dialects refuse|upgrade` (default refuse: draft-04, -06, -07 and 2019-09 are `unsupported_capability`). */
export function legacyDialectsOf(args: ParsedArgs): LegacyDialectsMode {
  const given = args.options.get("--legacy-dialects") ?? "refuse";
  if (!(LEGACY_MODES as readonly string[]).includes(given))
    throw new CliError(`--legacy-dialects must be one of ${LEGACY_MODES.join(", ")} (got "${given}")`);
  return given as LegacyDialectsMode;
}

/** `--max-input-bytes <n>`: the cap on each file or stdin read (default `DEFAULT_MAX_INPUT_BYTES`). */
export function maxInputBytesOf(args: ParsedArgs): number {
  const text = args.options.get("--max-input-bytes");
  if (text === undefined) return DEFAULT_MAX_INPUT_BYTES;
  const bytes = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(bytes) || bytes < 1)
    throw new CliError(`--max-input-bytes must be a whole number of bytes from 1 to ${Number.MAX_SAFE_INTEGER}`);
  return bytes;
}

/**
 * Whether `format` asserts: only with `--format-assertion` (both commands annotate by default, as every entry point of
 * the library does); `--no-format-assertion`, the default spelled out, stays accepted. A `--format` checker is never
 * silently unused: given where format is an annotation, it is a usage error.
 */
export function formatAssertionOf(args: ParsedArgs): boolean {
  const on = args.flags.has("--format-assertion");
  const off = args.flags.has("--no-format-assertion");
  if (on && off) throw new CliError("--format-assertion and --no-format-assertion cannot both be given");
  const format = args.lists.get("--format")?.[0];
  if (!on && format !== undefined) {
    const why = off ? "--no-format-assertion makes format an annotation" : "format is an annotation by default";
    throw new CliError(
      `--format ${format} would check nothing: ${why}; ` +
        (off ? "drop --no-format-assertion or --format" : "add --format-assertion (or drop --format)"),
    );
  }
  return on;
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
    const checker = await importDefault(specifier, `--format ${text}`);
    if (typeof checker !== "function" && !isPlainObject(checker))
      throw new CliError(
        `--format ${text}: ${specifier} must export default a checker (value) => boolean or { check, types }, ` +
          `not ${described(checker)}`,
      );
    formats.set(name, checker as FormatCheck | FormatDefinition);
  }
  return formats;
}

/**
 * The default export of a `--format` module: a path (./, ../ or /) resolved against the working directory, else a
 * package. A failure names the user's path, never this module's file (which Node names as the importer).
 */
async function importDefault(specifier: string, flag: string): Promise<unknown> {
  const isPath = /^\.{0,2}\//.test(specifier);
  const path = resolve(specifier);
  try {
    return ((await import(isPath ? pathToFileURL(path).href : specifier)) as { default?: unknown }).default;
  } catch (e) {
    if (isPath && !existsSync(path))
      throw new CliError(`${flag}: no such file ${specifier}${path === specifier ? "" : ` (${path})`}`);
    let reason = oneLine(errorMessage(e)).replaceAll(` imported from ${THIS_FILE}`, "");
    if (!isPath && errorCode(e) === "ERR_MODULE_NOT_FOUND" && existsSync(path))
      reason += `; for the file, write ./${specifier}`;
    throw new CliError(`${flag}: cannot import ${specifier}: ${reason}`);
  }
}

/** How a message names a default export that is not a checker: a regular expression by its source. */
function described(value: unknown): string {
  if (value === undefined) return "nothing (no default export)";
  if (isInstance(value, RegExp))
    return `the regular expression ${String(value)}; write (s) => ${String(value)}.test(s)`;
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) {
    const name: unknown = Object.getPrototypeOf(value)?.constructor?.name;
    return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object with a prototype";
  }
  return `the ${typeof value} ${preview(value)}`;
}
