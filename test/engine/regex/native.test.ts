import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LimitError } from "../../../src/engine/errors.js";
import {
  adversarialInputs,
  compilePattern,
  NATIVE_MAX_INPUT,
  NATIVE_STEP_BUDGET,
  nativeCost,
  nativeLimit,
  nativeMaxLength,
  nativeSafe,
} from "../../../src/engine/regex/index.js";
import { startAnchored } from "../../../src/engine/regex/analysis.js";
import { Backtracker } from "../../../src/engine/regex/backtrack.js";
import { OVER_BUDGET } from "../../../src/engine/regex/linear.js";
import { parsePattern } from "../../../src/engine/regex/parser.js";
import { compileProgram } from "../../../src/engine/regex/program.js";
import { assertAgrees, meter } from "./helpers.js";

/** Typical schema patterns: the native RegExp decides every input of up to NATIVE_MAX_INPUT units. */
const ACCEPTED = [
  "^s_\\d+$",
  "^[A-Za-z0-9._-]{1,100}$",
  "^[a-z]+$",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "^https?://",
  "^[a-zA-Z_][a-zA-Z0-9_]*$",
  "^[A-Z]{2}$",
  "^(?:foo|bar)_[0-9]+$",
  "^.{1,255}$",
  "^[^\\s]+$",
  "^(?:\\+|-)?[0-9]{1,15}$",
  "^[a-z]{2,3}(?:-[A-Z]{2})?$",
  "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{12}$",
  "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$", // a deterministic alternation, a lookahead under ^
  "^(?:[a-z]|_[0-9])+$",
  "^(?:ab|cd)*$",
  "^(?!-)[a-z-]{1,63}$",
];

/** Never native, at any input length. */
const REJECTED = [
  "[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}", // a lookahead without a leading ^
  "^(?:a|ab)+$", // alternatives that can begin alike
  "^(?:[a-z]|[^0-9])+$",
  "^(?:[^a]|[^b])+$",
  "^(?:a|b?)+$", // a nullable alternative
  "^\\p{L}+$", // a property escape: the runtime expands it into ranges the cost model does not see
  "^(?:\\p{L}|-)+$",
  "^(?:(?:a|b)c|d)+$", // an alternative with a choice of its own
  "^(?:(?=a)b|c)+$", // an alternative that does not begin with a code point
  "^(?<=a)b",
  "^(a+)+$",
  "^(a|a)*$",
  "(x+x+)+y",
  "(a*)*b",
  "^(\\w+\\s?)*$",
  "(?:a?)+",
  "^(?:a{2,3})*$",
  "(.*a){20}",
  "(a)\\1",
  "^(\\w+)\\s\\1$",
  "(?<n>a)\\k<n>", // backreferences
  "(?=a)b",
  "a(?!b)",
  "(?<=a)b",
  "(?<!a)b", // lookarounds
  "\\bfoo\\b",
  "a\\B",
  "(?:\\b){0}a*", // V8 tries \b / \B between surrogate halves
  "\\uD83D",
  "^[a-z]*\\uDE00", // lone surrogate characters
];

test("typical schema patterns are native-safe for inputs up to NATIVE_MAX_INPUT", () => {
  for (const p of ACCEPTED) {
    const parsed = parsePattern(p);
    assert.ok(nativeSafe(parsed), p);
    assert.equal(nativeLimit(parsed), NATIVE_MAX_INPUT, p);
    assert.ok(nativeCost(parsed, NATIVE_MAX_INPUT) <= NATIVE_STEP_BUDGET, p);
    assert.equal(nativeMaxLength(compilePattern(p)), NATIVE_MAX_INPUT, p);
    assert.equal(nativeMaxLength(compilePattern(p, { native: false })), -1, p);
  }
});

test("refused: ambiguous repetition, backreferences, lookbehinds, lookaheads without ^, \\b, lone surrogates", () => {
  for (const p of REJECTED) {
    const parsed = parsePattern(p);
    assert.equal(nativeCost(parsed, 0), Infinity, p);
    assert.equal(nativeLimit(parsed), -1, p);
    assert.equal(nativeMaxLength(compilePattern(p)), -1, p);
  }
});

test("a native call is charged the cost model's bound for its length, or our engine decides when that is too much", () => {
  const p = "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$";
  const compiled = compilePattern(p);
  assert.equal(nativeMaxLength(compiled), NATIVE_MAX_INPUT);
  const source = new RegExp(p, "u").source;
  countingExec((calls) => {
    const roomy = meter();
    assert.equal(compiled.test("octo-cat", roomy), true);
    assert.equal(calls.get(source), 1);
    assert.ok(roomy.steps > 0, "charged");
    const charged = roomy.steps;
    // Less than the native charge: the backtracker runs instead, and its own work decides the limit.
    assert.throws(
      () => compiled.test("octo-cat", meter(1)),
      (e: unknown) => e instanceof LimitError && e.limit === "maxRegexSteps",
    );
    assert.equal(calls.get(source), 1, "not native");
    const exact = meter(charged - 1);
    try {
      assert.equal(compiled.test("octo-cat", exact), true);
    } catch (e) {
      assert.ok(e instanceof LimitError, String(e));
    }
    assert.equal(calls.get(source), 1, "not native below the charge");
  });
  for (const input of ["octo-cat", "-octo", "octo-", "octo--cat", "a".repeat(39), "a".repeat(40), "é"]) {
    assert.equal(compiled.test(input, meter()), new RegExp(p, "u").test(input), input);
  }
});

test("polynomial patterns are native only below the length where their bound exceeds the budget", () => {
  for (const [p, maxLimit] of [
    ["\\d+\\d+\\d+x", 20],
    ["^-?\\d+(\\.\\d+)?$", 200],
    ["\\d+\\d+x", 40],
    ["^\\d+\\d+$", 200],
    ["a+b", 200],
    ["[a-z]+", 200],
  ] as const) {
    const parsed = parsePattern(p);
    assert.equal(nativeSafe(parsed), false, p);
    const limit = nativeLimit(parsed);
    assert.ok(limit > maxLimit / 2 && limit < maxLimit, `${p}: ${limit}`);
    assert.ok(nativeCost(parsed, limit) <= NATIVE_STEP_BUDGET, p);
    assert.ok(nativeCost(parsed, limit + 1) > NATIVE_STEP_BUDGET, p);
    assert.equal(nativeMaxLength(compilePattern(p)), limit, p);
  }
  // Four unbounded quantifiers unanchored: beyond the budget even for tiny inputs.
  assert.equal(nativeLimit(parsePattern("[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+x")), 3);
});

/** Runs `fn` while counting RegExp exec calls (test() goes through exec) per pattern source. */
function countingExec<T>(fn: (calls: Map<string, number>) => T): T {
  const calls = new Map<string, number>();
  const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, "exec")!;
  const original = RegExp.prototype.exec;
  Object.defineProperty(RegExp.prototype, "exec", {
    ...exec,
    value: function (this: RegExp, s: string) {
      calls.set(this.source, (calls.get(this.source) ?? 0) + 1);
      return original.call(this, s);
    },
  });
  try {
    return fn(calls);
  } finally {
    Object.defineProperty(RegExp.prototype, "exec", exec);
  }
}

test("short inputs go to the native RegExp; longer and hostile 1 MB inputs to our linear engine", () => {
  const mega = "a".repeat(1_000_000);
  for (const p of ACCEPTED) {
    const native = compilePattern(p);
    const own = compilePattern(p, { native: false });
    const source = new RegExp(p, "u").source;
    countingExec((calls) => {
      for (const input of ["", "s_1", "2024-01-31", "abc", "https://x", "a".repeat(NATIVE_MAX_INPUT)]) {
        assert.equal(native.test(input, meter()), own.test(input, meter()), `${p} on ${input.slice(0, 20)}`);
      }
      assert.equal(calls.get(source), 6, p);
      calls.clear();
      for (const input of ["a".repeat(NATIVE_MAX_INPUT + 1), mega, mega + "!", "1".repeat(1_000_000) + "x"]) {
        assert.equal(native.test(input, meter()), own.test(input, meter()), p);
      }
      assert.equal(calls.get(source), undefined, p);
    });
  }
  const p = compilePattern("a+b");
  countingExec((calls) => {
    const limit = nativeMaxLength(p);
    assert.equal(p.test("a".repeat(limit), meter()), false);
    assert.equal(calls.get("a+b"), 1);
    assert.equal(p.test("a".repeat(limit + 1), meter()), false);
    assert.equal(p.test("a".repeat(limit) + "b", meter()), true);
    assert.equal(calls.get("a+b"), 1);
    const own = compilePattern("^[a-z]+$", { native: false });
    assert.equal(own.test("abc", meter()), true);
    assert.equal(calls.get("^[a-z]+$"), undefined);
  });
});

test("the hostile patterns on 1 MB inputs still answer exactly (linear engine)", () => {
  const A = "a".repeat(1_000_000);
  assert.equal(compilePattern("^[a-z]+$").test(A, meter()), true);
  assert.equal(compilePattern("^[a-z]+$").test(A + "!", meter()), false);
  assert.equal(compilePattern("^[A-Za-z0-9._-]{1,100}$").test(A, meter()), false);
  assert.equal(compilePattern("a+b").test(A, meter()), false);
  assert.equal(compilePattern("\\d+\\d+\\d+x").test("1".repeat(1_000_000), meter()), false);
  assert.equal(compilePattern("^(a+)+$").test(A + "!", meter()), false);
});

// --- Generated patterns of the admitted shape (star height ≤ 1) ------------------------------

const ATOMS = [
  "a",
  "b",
  "-",
  ".",
  "\\d",
  "\\w",
  "\\W",
  "\\s",
  "\\S",
  "[ab]",
  "[^a]",
  "[a-c]",
  "[\\s\\d]",
  "[^\\w😀]",
  "\\u{1F600}",
  "😀",
  "\\uD83D\\uDE00",
  "[\\uD800-\\uDFFF]",
  "[\\uD83D\\uDE00]",
  "[^😀]",
  "\\p{L}",
  "\\P{Lu}",
  "^",
  "$",
  "",
  "(?:)",
];
const REPEATS = ["*", "+", "?", "{2}", "{0,2}", "{1,}", "{1,3}", "*?", "+?", "??", "{2,}?", "{0}", "{1}"];
const atom = fc.constantFrom(...ATOMS);
/** A deterministic sequence (quantifier body): atoms in a group. */
const body = fc
  .array(atom, { minLength: 1, maxLength: 3 })
  .chain((xs) => fc.constantFrom(`(?:${xs.join("")})`, `(${xs.join("")})`));
const piece = fc.oneof(
  atom,
  fc.tuple(body, fc.constantFrom(...REPEATS)).map(([b, q]) => b + q),
  fc.tuple(body, body).map(([x, y]) => `(?:${x}|${y})`),
  fc.tuple(body, body).map(([x, y]) => `(${x}|${y}+)?`),
  // Alternations under a quantifier (admitted when deterministic) and lookaheads (admitted after a leading ^).
  fc.tuple(body, body, fc.constantFrom(...REPEATS)).map(([x, y, q]) => `(?:${x}|${y})${q}`),
  fc.tuple(atom, body, fc.constantFrom("(?=", "(?!")).map(([a, x, look]) => `${a}${look}${x})`),
);
const admitted = fc
  .array(piece, { minLength: 1, maxLength: 4 })
  .chain((ps) =>
    fc.constantFrom(
      ps.join(""),
      `^${ps.join("")}`,
      `${ps.join("")}$`,
      `^${ps.join("")}$`,
      `${ps[0]}|${ps.slice(1).join("")}`,
    ),
  );
const shortInput = fc
  .array(fc.constantFrom("a", "b", "-", "1", " ", "A", "😀", "\ud83d", "\ude00", "é", "\n"), { maxLength: 24 })
  .map((ps) => ps.join(""));

test("generated admitted patterns: native path, our engines and ECMA-262 agree (surrogates included)", () => {
  let native = 0;
  fc.assert(
    fc.property(admitted, fc.array(shortInput, { minLength: 1, maxLength: 8 }), (p, inputs) => {
      if (nativeMaxLength(compilePattern(p)) >= 24) native++;
      assertAgrees(p, inputs);
    }),
    { seed: 4242, numRuns: 4000 },
  );
  // Property escapes, and sets whose UTF-16 pieces are many, stay on our engine; the rest is native.
  assert.ok(native > 1200, `native path used for ${native} of 4000 patterns`);
});

test("the cost model bounds an ECMA-262 backtracker on adversarial inputs, and on the worst inputs it names", () => {
  const adversarial = fc
    .tuple(fc.constantFrom("a", "1", " ", "😀", "-"), fc.nat({ max: 120 }), fc.constantFrom("", "!", "b", "\ud83d"))
    .map(([c, k, tail]) => c.repeat(k) + tail);
  const withinBound = (p: string, input: string): void => {
    const parsed = parsePattern(p);
    const bound = nativeCost(parsed, input.length);
    if (bound === Infinity) return;
    // One model unit covers the handful of program instructions an AST node compiles to.
    const m = new Backtracker(compileProgram(parsed, true, 100_000), startAnchored(parsed.root));
    const answer = m.run(input, 8 * bound);
    assert.notEqual(answer, OVER_BUDGET, `${p} on ${JSON.stringify(input)}: more than 8 × ${bound} steps`);
  };
  fc.assert(
    fc.property(admitted, adversarial, (p, input) => withinBound(p, input)),
    { seed: 77, numRuns: 3000 },
  );
  fc.assert(
    fc.property(admitted, fc.nat({ max: 200 }), (p, length) => {
      for (const input of adversarialInputs(parsePattern(p), length)) withinBound(p, input);
    }),
    { seed: 78, numRuns: 1000 },
  );
});
