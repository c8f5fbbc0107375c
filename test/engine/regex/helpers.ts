import assert from "node:assert/strict";
import { LimitError } from "../../../src/engine/errors.js";
import {
  compilePattern,
  RegexSyntaxError,
  standaloneMeter,
  type CompiledPattern,
  type RegexMeter,
} from "../../../src/engine/regex/index.js";

/** A meter for one match outside an evaluation: `maxRegexSteps` (10 million by default) is its only budget. */
export function meter(maxRegexSteps = 10_000_000): RegexMeter {
  return standaloneMeter(maxRegexSteps);
}

/** Native verdict: a RegExp, or null when the runtime rejects the pattern in u-mode. */
export function nativeRegExp(source: string): RegExp | null {
  try {
    return new RegExp(source, "u");
  } catch {
    return null;
  }
}

/**
 * Ours: a compiled pattern, null for RegexSyntaxError, "limit" for LimitError. `native: false`
 * keeps the runtime's RegExp out of matching (our own engines only).
 */
export function ours(source: string, native = true): CompiledPattern | null | "limit" {
  try {
    return compilePattern(source, { native });
  } catch (e) {
    if (e instanceof RegexSyntaxError) return null;
    if (e instanceof LimitError) return "limit";
    throw e;
  }
}

/**
 * Asserts that validity and every test() verdict agree with the ECMA-262 answer, both as compiled
 * by default (short inputs of native-safe patterns go to the runtime's RegExp) and with our own
 * engines only.
 */
export function assertAgrees(source: string, inputs: readonly string[]): void {
  assertAgreesIn(source, inputs, true);
  assertAgreesIn(source, inputs, false);
}

function assertAgreesIn(source: string, inputs: readonly string[], native: boolean): void {
  const re = nativeRegExp(source);
  const mine = ours(source, native);
  if (mine === "limit") return;
  assert.equal(mine === null, re === null, `validity of /${source}/u: native ${re === null ? "rejects" : "accepts"}`);
  if (re === null || mine === null) return;
  for (const input of inputs) {
    let verdict: boolean | "limit";
    try {
      verdict = mine.test(input, meter());
    } catch (e) {
      if (e instanceof LimitError) continue;
      throw e;
    }
    assert.equal(verdict, specTest(source, input), `/${source}/u.test(${JSON.stringify(input)}) (native ${native})`);
  }
}

/**
 * The ECMA-262 answer of `new RegExp(source, "u").test(input)`. V8 also tries match positions
 * between the halves of a surrogate pair (e.g. `/\B/u.test("a😀b")` is true in V8), which the
 * specification does not (RegExpBuiltinExec advances lastIndex by code point). When the plain
 * native answer disagrees with the sticky answer tried only at code point boundaries, the
 * latter is the specified one.
 */
export function specTest(source: string, input: string): boolean {
  // V8 (Node 20) mis-matches a literal astral character after a backreference, e.g.
  // /c\1😀|(a)/u.test("c😀") is false although /c\1\u{1F600}|(a)/u.test("c😀") is true. In a valid
  // u-mode pattern a literal astral character and its \u{...} escape are interchangeable.
  source = source.replace(/[\u{10000}-\u{10FFFF}]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
  const plain = new RegExp(source, "u").test(input);
  if (!plain) return false;
  const sticky = new RegExp(source, "uy");
  for (let i = 0; i <= input.length; i += (input.codePointAt(i) ?? 0) > 0xffff ? 2 : 1) {
    sticky.lastIndex = i;
    if (sticky.test(input)) return true;
  }
  return false;
}
