/**
 * Messages for people: a host's renderer of failing keywords (the `messages` option, applied wherever output is
 * built), and `errorsText`, which renders an error list as text in instance order. Every failing keyword's output
 * unit carries its `keyword` and typed `params`, enough to render it in any language without parsing the English.
 */

import { answerKind, errorMessage, hostFailure } from "../errors.js";
import type { KeywordResult, OutputUnit, Params } from "./output.js";
import { parsePointer } from "../json/pointer.js";

/** What a message renderer gets for one failing keyword. */
export interface MessageInput {
  /** The failing keyword, e.g. `maxLength` (`false` for a `false` schema). */
  readonly keyword: string;
  /** Its typed parameters (the limit, the missing names, the allowed values, the actual type…); `{}` when none. */
  readonly params: Params;
  /** The instance value the keyword failed on (the value at `instanceLocation`). */
  readonly instance: unknown;
  /** JSON Pointer to that value. */
  readonly instanceLocation: string;
  /** JSON Pointer to the keyword along the evaluation path. */
  readonly keywordLocation: string;
  /** The keyword's canonical URI with a JSON Pointer fragment. */
  readonly absoluteKeywordLocation: string;
  /** The engine's own message, in English. */
  readonly message: string;
}

/**
 * The `messages` option: renders a failing keyword's message (in another language, another tone); `undefined` keeps
 * the engine's. Called on the output path only (the boolean path builds no strings). A throw, or an answer that is
 * neither a string nor `undefined`, is an `execution_failure` (`messages_failed`).
 */
export type MessageRenderer = (failure: MessageInput) => string | undefined;

/** Replaces a failing keyword result's message with the host renderer's. */
export function renderMessage(renderer: MessageRenderer, unit: KeywordResult, instance: unknown): void {
  const message = unit.error;
  if (message === undefined) return;
  const input: MessageInput = {
    keyword: unit.keyword,
    params: unit.params ?? {},
    instance,
    instanceLocation: unit.instanceLocation,
    keywordLocation: unit.keywordLocation,
    absoluteKeywordLocation: unit.absoluteKeywordLocation,
    message,
  };
  let text: unknown;
  try {
    text = renderer(input);
  } catch (e) {
    throw hostFailure("messages_failed", `the messages renderer threw: ${errorMessage(e)}`, e);
  }
  if (typeof text === "string") unit.error = text;
  else if (text !== undefined)
    throw hostFailure("messages_failed", `the messages renderer answered ${answerKind(text)}, not a string`);
}

/** Options of `errorsText`. */
export interface ErrorsTextOptions {
  /** Between two lines (default `"\n"`). */
  readonly separator?: string;
  /** What names the instance root, whose location is the empty pointer (default `"(root)"`). */
  readonly root?: string;
}

const NUMERIC = /^(0|[1-9][0-9]*)$/;

/**
 * Orders JSON Pointers as instance locations: token by token, array indices (and other all-digit tokens) as numbers,
 * a location before the locations below it (`/a` < `/a/2` < `/a/10` < `/b`).
 */
export function compareInstanceLocations(a: string, b: string): number {
  if (a === b) return 0;
  const x = parsePointer(a) ?? [a];
  const y = parsePointer(b) ?? [b];
  for (let i = 0; i < x.length && i < y.length; i++) {
    const p = x[i] as string;
    const q = y[i] as string;
    if (p === q) continue;
    if (NUMERIC.test(p) && NUMERIC.test(q)) return p.length - q.length || (p < q ? -1 : 1);
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * An error list as text: one line per failing unit with a message, `location: message`, sorted by instance location
 * (numeric order for array indices; units at one location keep their evaluation order). Takes a `validate` output
 * (its `errors`, at any depth for the detailed and verbose formats) or a list of units.
 */
export function errorsText(errors: OutputUnit | readonly OutputUnit[], options: ErrorsTextOptions = {}): string {
  const units: OutputUnit[] = [];
  const collect = (list: readonly OutputUnit[]): void => {
    for (const unit of list) {
      if (unit.valid) continue;
      if (unit.error !== undefined) units.push(unit);
      if (unit.errors !== undefined) collect(unit.errors);
    }
  };
  collect(Array.isArray(errors) ? errors : [errors as OutputUnit]);
  const root = options.root ?? "(root)";
  return units
    .map((unit, order) => ({ unit, order }))
    .sort((a, b) => compareInstanceLocations(a.unit.instanceLocation, b.unit.instanceLocation) || a.order - b.order)
    .map(({ unit }) => `${unit.instanceLocation === "" ? root : unit.instanceLocation}: ${unit.error as string}`)
    .join(options.separator ?? "\n");
}
