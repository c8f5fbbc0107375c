/** Command-line parsing for `backplane-schema`: positionals, boolean flags and valued options, in any order. */

import { errorMessage, isInstance } from "../engine/errors.js";
import { isBackplaneError } from "../runtime/errors/backplane-error.js";

/** The exit statuses of `backplane-schema` (docs/reference/cli.md "Exit codes"). */
export const ExitCode = Object.freeze({
  /** Every instance valid, the batch admitted. */
  ok: 0,
  /** An instance invalid, the batch refused. */
  invalid: 1,
  /** A usage error, or input that cannot be read (file, JSON, schema that does not compile, MCP server). */
  usage: 2,
  /** `execution_failure`: a limit was hit or the validator failed, so no verdict was reached. */
  executionFailure: 3,
  /** `admit --pins`: a tool differs from its pin, has none, or is pinned but no longer listed. */
  pinsDiffer: 4,
});

/** A problem that ends the command with one line on stderr: by default a usage or input error (exit 2). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export interface ParsedArgs {
  positionals: string[];
  flags: Set<string>;
  options: Map<string, string>;
  /** Every value of each repeatable option, in order. */
  lists: Map<string, string[]>;
}

export interface ArgSpec {
  /** Boolean flags, e.g. "--strict". */
  flags: readonly string[];
  /** Options taking one value, e.g. "--output" (as "--output x" or "--output=x"). */
  options: readonly string[];
  /** Options taking one value that may be given more than once, e.g. "--limit". */
  repeatable?: readonly string[];
}

/** Parses `argv` against `spec`; "--" ends option parsing. Throws `CliError` on unknown or incomplete options. */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], flags: new Set(), options: new Map(), lists: new Map() };
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || !arg.startsWith("--")) {
      if (!onlyPositionals && arg.startsWith("-") && arg !== "-") throw new CliError(`unknown option ${arg}`);
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (spec.flags.includes(name)) {
      if (eq >= 0) throw new CliError(`option ${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    const repeatable = spec.repeatable?.includes(name) === true;
    if (!repeatable && !spec.options.includes(name)) throw new CliError(`unknown option ${name}`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined || value === "") throw new CliError(`option ${name} needs a value`);
    if (repeatable) {
      parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
    } else {
      if (parsed.options.has(name)) throw new CliError(`option ${name} given more than once`);
      parsed.options.set(name, value);
    }
  }
  return parsed;
}

/** One line, whatever the message contains. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** A library message as the CLI says it: the option the library names is a flag on the command line. */
export function withFlags(message: string): string {
  return message
    .replace('pass draft07: "upgrade"', "pass --draft07 upgrade")
    .replace('pass legacyDialects: "upgrade"', "pass --legacy-dialects upgrade");
}

/** One line for any error: `class/code: message` for the library's errors (with the schema pointer). Never throws. */
export function describeError(e: unknown): string {
  if (isBackplaneError(e)) {
    const message = withFlags(e.message);
    const pointer = e.schemaPointer;
    const named = pointer === undefined || pointer === "" || message.includes(`"${pointer}"`);
    const where = named ? "" : ` (at schema "${pointer}")`;
    return oneLine(`${e.class}/${e.code}: ${message}${where}`);
  }
  const name = isInstance(e, Error) ? read(() => e.name) : undefined;
  return oneLine(typeof name === "string" ? `${name}: ${errorMessage(e)}` : errorMessage(e));
}

/** `code` of a thrown value (`ENOENT`, `ERR_MODULE_NOT_FOUND`), or undefined; never throws. */
export function errorCode(e: unknown): unknown {
  return typeof e === "object" && e !== null ? read(() => (e as { code?: unknown }).code) : undefined;
}

/** What `get` returns, or undefined when it throws (a getter or Proxy trap of a thrown value). */
function read(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return undefined;
  }
}
