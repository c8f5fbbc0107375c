import { test } from "node:test";
import assert from "node:assert/strict";
import { LimitError } from "../../../src/engine/errors.js";
import { compilePattern } from "../../../src/engine/regex/index.js";
import { meter } from "./helpers.js";

const A = "a".repeat(1_000_000);

/** [pattern, input, expected] — the verdicts are what ECMA-262 specifies (and what a patient native engine says). */
const CASES: readonly [string, string, boolean][] = [
  ["^(a+)+$", A + "!", false],
  ["^(a+)+$", A, true],
  ["^(a|a)*$", A + "!", false],
  ["^(a|a)*$", A, true],
  ["(x+x+)+y", "x".repeat(1_000_000), false],
  ["(x+x+)+y", "x".repeat(1_000_000) + "y", true],
  ["(a*)*b", A, false],
  ["(a*)*b", A + "b", true],
  ["^(\\w+\\s?)*$", A + "!", false],
  ["^(\\w+\\s?)*$", "ab ".repeat(300_000), true],
  ["(.*a){20}", A + "!", true],
  ["(.*a){20}", "a".repeat(19) + "b".repeat(1_000_000), false],
  ["^(.*a){20}$", A + "!", false],
  ["^[\\s\\S]{0,1000}$", A, false],
  ["(?:a|b|ab|ba)*c", "ab".repeat(500_000), false],
  ["[ab]*a[ab]{16}$", "ab".repeat(500_000) + "b".repeat(16), false],
  ["\\p{L}+\\d", "é".repeat(1_000_000), false],
];

for (const [p, input, expected] of CASES) {
  test(`hostile /${p}/u on a ${input.length}-unit input`, () => {
    // Exact in linear time; the wide automaton states of some of these are charged more than the default budget.
    assert.equal(compilePattern(p).test(input, meter(100_000_000)), expected);
  });
}

test("a DFA-hostile pattern on a pseudo-random input (the automaton cache thrashes) stays exact", () => {
  let x = 12345;
  let s = "";
  for (let i = 0; i < 200_000; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += (x >>> 16) & 1 ? "a" : "b";
  }
  const p = compilePattern("[ab]*a[ab]{16}$");
  assert.equal(p.test(s, meter()), s[s.length - 17] === "a");
  assert.equal(p.test(s + "b", meter()), s[s.length - 16] === "a");
  assert.equal(compilePattern("a[ab]{16}b").test(s, meter()), /a[ab]{16}b/u.test(s));
});

test("a backreference pattern on a long input answers exactly or throws LimitError", () => {
  for (const [input, expected] of [
    [A + "!", false],
    ["a".repeat(30), true],
    ["a".repeat(2000) + "!", false],
  ] as const) {
    const compiled = compilePattern("^(a+)+\\1$");
    try {
      assert.equal(compiled.test(input, meter()), expected);
    } catch (e) {
      assert.ok(e instanceof LimitError, String(e));
      assert.equal(e.limit, "maxRegexSteps");
    }
  }
});

test("the step budget is honoured", () => {
  const compiled = compilePattern("^(a+)+\\1$");
  assert.throws(
    () => compiled.test("a".repeat(40) + "!", meter(10_000)),
    (e: unknown) => e instanceof LimitError && e.limit === "maxRegexSteps",
  );
  assert.equal(compiled.test("aa", meter(10_000)), true);
});

test("lookaround patterns run on the budgeted matcher with exact answers", () => {
  assert.equal(compilePattern("^(?=.*a)(?!.*b).*$").test("x".repeat(100_000) + "a", meter()), true);
  assert.equal(compilePattern("^(?=.*a)(?!.*b).*$").test("x".repeat(100_000) + "ab", meter()), false);
  assert.equal(compilePattern("(?<=a{3})b").test("a".repeat(100_000) + "b", meter()), true);
});

test("huge counted repetitions are refused with a LimitError, not expanded", () => {
  for (const p of ["a{1000000}", "(a{1000}){1000}", "((a{100}){100}){100}", "(?:){2000000000}", "a{99999999999}"]) {
    assert.throws(
      () => compilePattern(p),
      (e: unknown) => e instanceof LimitError && e.limit === "maxRegexProgramSize",
      p,
    );
  }
  assert.equal(compilePattern("a{0,99999999999}b").test(A + "b", meter()), true);
  assert.equal(compilePattern("^a{2,5000}$").test("a".repeat(5000), meter()), true);
  assert.equal(compilePattern("^a{2,5000}$").test("a".repeat(5001), meter()), false);
});

test("deep nesting is refused with a LimitError, not a stack overflow", () => {
  const deep = "(".repeat(100_000) + "a" + ")".repeat(100_000);
  assert.throws(
    () => compilePattern(deep),
    (e: unknown) => e instanceof LimitError && e.limit === "maxRegexNesting",
  );
  assert.equal(compilePattern("(".repeat(400) + "a" + ")".repeat(400)).test("xa", meter()), true);
});

test("long alternations and sequences compile", () => {
  const words = Array.from({ length: 2000 }, (_, i) => `w${i}x`);
  const compiled = compilePattern(`^(?:${words.join("|")})$`);
  assert.equal(compiled.test("w1999x", meter()), true);
  assert.equal(compiled.test("w2000x", meter()), false);
  assert.equal(compilePattern("b".repeat(5_000) + "c?").test("b".repeat(5_000), meter()), true);
});
