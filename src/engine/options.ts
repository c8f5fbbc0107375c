/**
 * Options fail closed (docs/reference/options.md): an unknown option name, a malformed value or an unknown output
 * format is `options_invalid`, never ignored, so a typo cannot switch an assertion off. Each entry point
 * checks its options against one table of name → check; a boundary extends a table by adding entries.
 */

import { errorMessage, SchemaError } from "./errors.js";
import { formatsProblem } from "./compile/formats.js";
import { vocabulariesProblem } from "./compile/host-vocabularies.js";
import { isPlainObject, preview } from "./json/json.js";
import { unknownName } from "./compile/names.js";
import { defaultLimits } from "./limits.js";
import { OUTPUT_FORMATS } from "./output/output.js";
import { hasScheme } from "./json/uri.js";

/** Checks one option's value: says what is wrong with it (naming the value), undefined when fine. */
export type OptionCheck = (value: unknown) => string | undefined;

/** Option name → its check. An option whose value is `undefined` counts as absent. */
export type OptionTable = ReadonlyMap<string, OptionCheck>;

/**
 * The first problem with `options` against `table` (`what` names the entry point), or undefined. `misplaced` says
 * why a name that belongs to another entry point (such as `admitBatch`'s `mode` given to a conversation) is refused.
 */
export function optionsProblem(
  options: unknown,
  table: OptionTable,
  what: string,
  misplaced: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  if (options === undefined) return undefined;
  if (!isPlainObject(options)) return `${what} options must be a plain object, got ${preview(options)}`;
  for (const name of Object.keys(options)) {
    const check = table.get(name);
    const elsewhere = misplaced.get(name);
    if (elsewhere !== undefined) return `${what} option ${JSON.stringify(name)} ${elsewhere}`;
    if (check === undefined) return unknownName(what, "option", name, [...table.keys()]);
    const value = options[name];
    if (value === undefined) continue;
    const problem = check(value);
    if (problem !== undefined) return `${what} option "${name}" ${problem}`;
  }
  return undefined;
}

function optionsInvalid(message: string): SchemaError {
  return new SchemaError({ class: "validation", code: "options_invalid", message });
}

/** Throws `options_invalid` for the first problem with `options` (options that cannot be read included). */
export function checkOptions(options: unknown, table: OptionTable, what: string): void {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, table, what);
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    problem = `${what} options could not be read: ${errorMessage(e)}`;
  }
  if (problem !== undefined) throw optionsInvalid(problem);
}

/** A check from a predicate and what the value must be. */
export function expecting(holds: (value: unknown) => boolean, mustBe: string): OptionCheck {
  return (value) => (holds(value) ? undefined : `must be ${mustBe}, got ${preview(value)}`);
}

const boolean = expecting((v) => typeof v === "boolean", "a boolean");

/** An absolute URI without fragment; a trailing empty fragment (`#`) is allowed where `allowHash` says so. */
function isBaseUri(uri: unknown, allowHash: boolean): boolean {
  if (typeof uri !== "string") return false;
  const bare = allowHash && uri.endsWith("#") ? uri.slice(0, -1) : uri;
  return hasScheme(bare) && !bare.includes("#");
}

function registryProblem(registry: unknown): string | undefined {
  let keys: unknown[];
  if (registry instanceof Map) keys = [...registry.keys()];
  else if (isPlainObject(registry)) keys = Object.keys(registry);
  else return `must be a plain object or a Map of schemas by URI, got ${preview(registry)}`;
  for (const key of keys) {
    if (!isBaseUri(key, true)) return `has the key ${preview(key)}, which is not an absolute URI without fragment`;
  }
  return undefined;
}

function limitsProblem(limits: unknown): string | undefined {
  if (!isPlainObject(limits)) return `must be a plain object of limits, got ${preview(limits)}`;
  for (const name of Object.keys(limits)) {
    if (!Object.hasOwn(defaultLimits, name)) return `has the unknown limit ${JSON.stringify(name)}`;
    const value = limits[name];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return `has ${name} ${preview(value)}, which is not a non-negative integer`;
  }
  return undefined;
}

/** `compile` options (docs/reference/options.md). */
export const compileOptionChecks: OptionTable = new Map<string, OptionCheck>([
  ["schemaRegistry", registryProblem],
  ["schemaLoader", expecting((v) => typeof v === "function", "a function (uri) => schema | undefined")],
  ["formatAssertion", boolean],
  ["contentAssertion", boolean],
  ["limits", limitsProblem],
  ["baseUri", expecting((v) => isBaseUri(v, false), "an absolute URI without fragment")],
  ["formats", formatsProblem],
  ["vocabularies", vocabulariesProblem],
  ["strictSchema", boolean],
  ["messages", expecting((v) => typeof v === "function", "a function (failure) => string | undefined")],
]);

/** `Validator.validate` options. */
export const validateOptionChecks: OptionTable = new Map<string, OptionCheck>([
  ["output", expecting((v) => OUTPUT_FORMATS.includes(v as never), `one of ${OUTPUT_FORMATS.join(", ")}`)],
]);

/** `Validator.annotations` takes no options yet: any name given is unknown. */
export const annotationsOptionChecks: OptionTable = new Map<string, OptionCheck>();
