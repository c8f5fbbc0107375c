/**
 * Format checkers (Validation §7): the dialect's built-in ones and the host's `formats` option, resolved once per
 * compile into one table the `format` keyword reads. A host format applies to the JSON types it names (strings by
 * default); replacing a built-in one must say so (`override: true`); a checker that throws or answers anything but a
 * boolean is an `execution_failure` (`format_failed`), never a verdict.
 */

import { answerKind, errorMessage, hostFailure, SchemaError } from "../errors.js";
import { isPlainObject, preview, type JsonTypeName } from "../json/json.js";
import { TYPE_BITS } from "../json/types.js";
import type { ResolvedFormat } from "../evaluate/keyword.js";
import { frozenCopy, INSTANCE_BOUNDS } from "../json/frozen-copy.js";
import type { Limits } from "../limits.js";

/** A format checker for strings: true when the string is valid in the format. */
export type FormatCheck = (value: string) => boolean;

/** A host format with the JSON types it applies to; other instances pass it untouched. */
export interface FormatDefinition {
  /**
   * True when the value is valid in the format. It gets only values of `types`, must return a boolean and should
   * not be slow: it is charged one step per code unit of a string (one step for other values), and its own work is
   * not metered. A throw, or an answer that is not a boolean, is an `execution_failure` (`format_failed`).
   */
  check(value: unknown): boolean;
  /** The JSON types it applies to (default `["string"]`). */
  types?: readonly JsonTypeName[];
  /** Replaces the built-in format of the same name; without it, naming a built-in format is `options_invalid`. */
  override?: boolean;
}

/** The `formats` option: format name → a string checker or a `FormatDefinition`; an object or a `Map`. */
export type Formats =
  Readonly<Record<string, FormatCheck | FormatDefinition>> | ReadonlyMap<string, FormatCheck | FormatDefinition>;

/** A built-in format of a dialect: its checker and what it costs per code unit (default 1). */
export interface BuiltinFormat {
  /** The checker. */
  readonly check: FormatCheck;
  /** Steps charged per code unit of a string checked (default 1). */
  readonly stepsPerUnit?: number;
}

/** A host checker as called: whatever it answers is checked. */
type HostCheck = (value: unknown) => unknown;

const FIELDS = ["check", "types", "override"];
const TYPE_NAMES: readonly JsonTypeName[] = ["string", "number", "integer", "object", "array", "boolean", "null"];

/** The entries of a `formats` option, each read once, or what is wrong with it. */
function entriesOf(formats: unknown): [string, unknown][] | string {
  if (formats instanceof Map) return [...(formats as Map<unknown, unknown>).entries()] as [string, unknown][];
  if (!isPlainObject(formats))
    return `must be a plain object or a Map of format name to checker, got ${preview(formats)}`;
  return Object.keys(formats).map((name) => [name, formats[name]]);
}

/** A host format read once into what evaluation applies, or what is wrong with it. */
function readFormat(name: unknown, value: unknown): { mask: number; check: HostCheck; override: boolean } | string {
  if (typeof name !== "string" || name === "") return `has the format name ${preview(name)}, which is not a name`;
  const where = `format ${JSON.stringify(name)}`;
  if (typeof value === "function")
    return { mask: TYPE_BITS["string"] as number, check: value as HostCheck, override: false };
  if (!isPlainObject(value)) return `has ${where} ${preview(value)}, which is neither a function nor { check, types }`;
  for (const field of Object.keys(value))
    if (!FIELDS.includes(field)) return `has ${where} with the unknown field ${JSON.stringify(field)}`;
  const { check, types, override } = value;
  if (typeof check !== "function") return `has ${where} whose check ${preview(check)} is not a function`;
  if (override !== undefined && typeof override !== "boolean")
    return `has ${where} whose override ${preview(override)} is not a boolean`;
  let mask = TYPE_BITS["string"] as number;
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length === 0)
      return `has ${where} whose types ${preview(types)} is not a non-empty array of JSON type names`;
    mask = 0;
    for (const type of types as unknown[]) {
      if (!TYPE_NAMES.includes(type as JsonTypeName))
        return `has ${where} with the type ${preview(type)} (known: ${TYPE_NAMES.join(", ")})`;
      mask |= TYPE_BITS[type as string] as number;
    }
  }
  return { mask, check: check as HostCheck, override: override === true };
}

/** The problem with a `formats` option's shape (checked with the other options), or undefined. */
export function formatsProblem(formats: unknown): string | undefined {
  const entries = entriesOf(formats);
  if (typeof entries === "string") return entries;
  for (const [name, value] of entries) {
    const read = readFormat(name, value);
    if (typeof read === "string") return read;
  }
  return undefined;
}

const builtinTables = new WeakMap<ReadonlyMap<string, BuiltinFormat>, ReadonlyMap<string, ResolvedFormat>>();

function builtinTable(builtins: ReadonlyMap<string, BuiltinFormat>): ReadonlyMap<string, ResolvedFormat> {
  let table = builtinTables.get(builtins);
  if (table === undefined) {
    const strings = TYPE_BITS["string"] as number;
    table = new Map(
      [...builtins].map(([name, f]) => [
        name,
        { mask: strings, stepsPerUnit: f.stepsPerUnit ?? 1, test: f.check as (value: unknown) => boolean },
      ]),
    );
    builtinTables.set(builtins, table);
  }
  return table;
}

function optionsInvalid(message: string): SchemaError {
  return new SchemaError({
    class: "validation",
    code: "options_invalid",
    message: `compile option "formats" ${message}`,
  });
}

/**
 * The formats of one compile: the built-in ones with the host's added (read once, so a host object changed later
 * changes nothing compiled). Throws `options_invalid` for a malformed entry or a built-in name without `override`.
 */
export function resolveFormats(
  builtins: ReadonlyMap<string, BuiltinFormat>,
  formats: unknown,
  limits: Readonly<Limits>,
): ReadonlyMap<string, ResolvedFormat> {
  const table = builtinTable(builtins);
  if (formats === undefined) return table;
  const entries = entriesOf(formats);
  if (typeof entries === "string") throw optionsInvalid(entries);
  const out = new Map(table);
  for (const [name, value] of entries) {
    const read = readFormat(name, value);
    if (typeof read === "string") throw optionsInvalid(read);
    if (builtins.has(name) && !read.override)
      throw optionsInvalid(
        `names the built-in format ${JSON.stringify(name)}; replacing it needs { check, override: true }`,
      );
    out.set(name, { mask: read.mask, stepsPerUnit: 1, test: hostCheck(name, read.check, limits) });
  }
  return out;
}

/**
 * A host checker that answers a boolean or fails the evaluation with `format_failed`. It is handed a frozen copy of
 * an array or object value (a string or number is its own copy): host code cannot change the caller's data.
 */
function hostCheck(name: string, check: HostCheck, limits: Readonly<Limits>): (value: unknown) => boolean {
  return (value) => {
    let answer: unknown;
    try {
      answer = check(frozenCopy(value, limits, INSTANCE_BOUNDS));
    } catch (e) {
      if (e instanceof SchemaError) throw e;
      throw hostFailure("format_failed", `the checker of format ${JSON.stringify(name)} threw: ${errorMessage(e)}`, e);
    }
    if (typeof answer === "boolean") return answer;
    throw hostFailure(
      "format_failed",
      `the checker of format ${JSON.stringify(name)} answered ${answerKind(answer)}, not a boolean`,
    );
  };
}
