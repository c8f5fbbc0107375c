// Regular expressions charge their work and hold bounded memory (docs/reference/limits.md, docs/project/security.md):
// each repro of a pattern that could stall or exhaust the host, asserted by counted work, limits and cache sizes, never
// by time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compile, InputSchema, LimitError } from "../../../src/index.js";
import { sharedPattern, sharedPatternLoad } from "../../../src/engine/compile/patterns.js";
import {
  compilePattern,
  nativeMaxLength,
  patternCacheWords,
  patternStackWords,
} from "../../../src/engine/regex/index.js";
import { retainedCacheWords } from "../../../src/engine/regex/linear.js";
import { generate } from "../../suite/generators.js";
import { meter } from "./helpers.js";

/** What the automaton of one pattern, and of all of them, may keep between calls (the engine's own bounds). */
const RETAIN_WORDS = 1 << 16;
const RETAIN_TOTAL = 1 << 22;
const SHARED_INSTRUCTIONS = 1 << 20;

const randomAB = (length: number, seed = 1): string =>
  generate({ kind: "randomString", length, alphabet: "ab", seed }) as string;

/** The limit a call hits, or "none". */
function limitOf(call: () => unknown): string {
  try {
    call();
    return "none";
  } catch (e) {
    if (e instanceof LimitError) return e.limit;
    throw e;
  }
}

/** Counted steps with limits out of the way, to see how work grows. */
function stepsOf(schema: unknown, instance: unknown, options = {}): number {
  const limits = { maxEvaluationSteps: Number.MAX_SAFE_INTEGER, maxRegexSteps: Number.MAX_SAFE_INTEGER };
  return compile(schema, { ...options, limits }).count(instance).steps;
}

test("DFA-hostile patterns: the work is charged, the step limit stops it, and no cache outlives its budget", () => {
  const patterns = Array.from({ length: 80 }, (_, i) => `a[ab]{17}c|z$|y{${i + 1}}w`);
  const schema = { type: "object", properties: { text: { allOf: patterns.map((pattern) => ({ pattern })) } } };
  const result = InputSchema.validate(schema, { text: randomAB(30_000) + "z" });
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, "limit_exceeded");
  // Every pattern's automaton (the very ones the validator ran: shared), and all of them together, within budget.
  for (const source of patterns) {
    const compiled = sharedPattern(source);
    assert.ok(patternCacheWords(compiled) <= RETAIN_WORDS, `${source}: ${patternCacheWords(compiled)} words kept`);
    compiled.test(randomAB(30_000, 7), meter(Number.MAX_SAFE_INTEGER));
    assert.ok(patternCacheWords(compiled) <= RETAIN_WORDS, `${source}: ${patternCacheWords(compiled)} words kept`);
  }
  assert.ok(retainedCacheWords() <= RETAIN_TOTAL, `${retainedCacheWords()} words kept in all`);
  const load = sharedPatternLoad();
  assert.ok(load.instructions <= SHARED_INSTRUCTIONS && load.patterns <= 1000, JSON.stringify(load));
});

test("a small cache is kept between calls, a thrashing one is dropped", () => {
  const small = compilePattern("^[a-z0-9_-]+$", { native: false });
  small.test("abc-123_x", meter());
  assert.ok(patternCacheWords(small) > 0, "kept");
  const thrashing = compilePattern("a[ab]{17}c", { native: false });
  thrashing.test(randomAB(50_000), meter(Number.MAX_SAFE_INTEGER));
  assert.equal(patternCacheWords(thrashing), 0, "dropped after the call");
});

test("the automaton's work grows with the input and the states it reaches; the limit is what stops a wide one", () => {
  // Linear in the input for a fixed pattern.
  const a = stepsOf({ pattern: "^[a-z]+$" }, "a".repeat(20_000));
  const b = stepsOf({ pattern: "^[a-z]+$" }, "a".repeat(40_000));
  assert.ok(b > 1.9 * a && b < 2.1 * a, `${a} → ${b}`);
  // a[ab]{99990}$ (about 100,000 instructions): its states reach thousands of instructions per code point.
  const wide = compile({ pattern: "a[ab]{99990}$" });
  assert.equal(
    limitOf(() => wide.isValid(randomAB(100_000))),
    "maxEvaluationSteps",
  );
  // Every code point starts one more thread until the pattern's length: the states widen, and so does the charge.
  const short = stepsOf({ pattern: "a[ab]{99990}$" }, randomAB(200));
  const longer = stepsOf({ pattern: "a[ab]{99990}$" }, randomAB(400));
  assert.ok(longer > 3 * short, `${short} → ${longer}`);
  assert.equal(wide.isValid("ab"), false);
});

test("a class of many astral pieces never goes to the runtime's RegExp", () => {
  const schema = generate({ kind: "astralClass", leads: 1024, trailsPerLead: 17, copies: 8 }) as { pattern: string };
  assert.equal(nativeMaxLength(compilePattern(schema.pattern)), -1);
  const validator = compile(schema);
  assert.equal(validator.isValid("\u{10FC01}".repeat(500)), false);
  assert.equal(validator.isValid("\u{10FC00}"), true);
  // One astral range is one piece or three: such classes stay native.
  assert.equal(nativeMaxLength(compilePattern("^[\\u{1F600}-\\u{1F64F}]+$")), 1000);
  assert.equal(nativeMaxLength(compilePattern("^[^@]+@[^@]+$")) > 0, true);
});

test("patternProperties charge every pattern a key is tested against, by the key's length", () => {
  const schema = generate({
    kind: "patternList",
    count: 200,
    template: "^[a-z]*q{i}[a-z]*$",
    applicator: "patternProperties",
  });
  const keys = (count: number, keyLength: number): unknown =>
    generate({ kind: "randomKeys", count, keyLength, alphabet: "abcdefghijklmnop" });
  const short = stepsOf(schema, keys(20, 500));
  const long = stepsOf(schema, keys(20, 1_000));
  assert.ok(long > 1.8 * short, `${short} → ${long}`);
  assert.ok(short > 20 * 200 * 500 * 0.9, `${short} steps: at least a unit per code point per pattern`);
  assert.equal(
    limitOf(() => compile(schema).isValid(keys(1_000, 5_000))),
    "maxEvaluationSteps",
  );
});

test("the backtracker charges the capture registers it resets", () => {
  const schema = generate({ kind: "repeatedPattern", prefix: "(?:a", unit: "|(b)", count: 18_000, suffix: ")*(?=c)" });
  const one = stepsOf(schema, "a" + "d");
  const two = stepsOf(schema, "aa" + "d");
  // Each iteration of the loop resets the 36,000 registers of the 18,000 groups.
  assert.ok(two - one >= 36_000, `${one} → ${two}`);
  assert.equal(
    limitOf(() => compile(schema).isValid("a".repeat(200_000) + "d")),
    "maxEvaluationSteps",
  );
  assert.equal(compile(schema).isValid("ac"), true);
});

test("maxRegexSteps bounds one match; maxEvaluationSteps bounds them all", () => {
  const validator = compile({ pattern: "^(a|b)*c$" }, { limits: { maxRegexSteps: 1_000 } });
  assert.equal(
    limitOf(() => validator.isValid("a".repeat(5_000))),
    "maxRegexSteps",
  );
  assert.equal(validator.isValid("ab".repeat(100) + "c"), true);
  const many = compile({ items: { pattern: "^[a-z]+$" } }, { limits: { maxEvaluationSteps: 50_000 } });
  assert.equal(
    limitOf(() => many.isValid(Array.from({ length: 100 }, () => "a".repeat(1_000)))),
    "maxEvaluationSteps",
  );
  assert.equal(many.isValid(Array.from({ length: 10 }, () => "a".repeat(1_000))), true);
});

test("a RegExp the runtime cannot run is never sent there, and one that throws later is left for our engine", () => {
  const schema = generate({ kind: "repeatedPattern", prefix: "^", unit: "(?=a)", count: 6_000 }) as {
    pattern: string;
  };
  assert.equal(nativeMaxLength(compilePattern(schema.pattern)), -1);
  const validator = compile(schema);
  assert.equal(validator.isValid("a"), true);
  assert.equal(validator.isValid("b"), false);
  for (const input of ["a", "b".repeat(999), "a".repeat(1_000), "a".repeat(1_001)]) {
    const checked = InputSchema.validate({ properties: { s: schema } }, { s: input });
    assert.equal(checked.ok ? "ok" : checked.error.code, input.startsWith("a") ? "ok" : "arguments_invalid");
  }
  // A RegExp that throws when it runs (the runtime may compile it lazily): the answer comes from our engine.
  const compiled = compilePattern("^[a-z]+$");
  assert.equal(nativeMaxLength(compiled), 1000);
  const original = RegExp.prototype.test;
  RegExp.prototype.test = function () {
    throw new RangeError("Maximum call stack size exceeded");
  };
  try {
    assert.equal(compiled.test("abc", meter()), true);
    assert.equal(compiled.test("ab1", meter()), false);
  } finally {
    RegExp.prototype.test = original;
  }
  assert.equal(nativeMaxLength(compiled), -1);
});

test('format "regex" charges its parse by length: a 4 MiB pattern is refused before it is parsed', () => {
  const validator = compile({ format: "regex" }, { formatAssertion: true });
  const huge = "\\p{L}".repeat((4 * 1024 * 1024) / 5);
  assert.equal(
    limitOf(() => validator.isValid(huge)),
    "maxEvaluationSteps",
  );
  const a = stepsOf({ format: "regex" }, "\\p{L}".repeat(2_000), { formatAssertion: true });
  const b = stepsOf({ format: "regex" }, "\\p{L}".repeat(4_000), { formatAssertion: true });
  assert.ok(b > 1.9 * a, `${a} → ${b}`);
  assert.equal(validator.isValid("\\p{L}".repeat(2_000)), true);
  assert.equal(validator.isValid("(".repeat(10)), false);
});

test("the backtracker gives back the stack a call grew: between calls it keeps its first few hundred words", () => {
  // A capturing loop before a lookahead: every code point read leaves a branch and register undo entries stacked.
  const compiled = compilePattern("^(a|b)*(?=c)", { native: false });
  assert.equal(patternStackWords(compiled), 0, "nothing until it first runs");
  assert.equal(compiled.test("abc", meter()), true);
  const initial = patternStackWords(compiled);
  assert.ok(initial > 0 && initial <= 1024, `${initial} words`);
  // 20,000 code points stack hundreds of thousands of words; none of them are kept.
  assert.equal(compiled.test("ab".repeat(10_000), meter()), false);
  assert.equal(patternStackWords(compiled), initial);
  // Nor after a call that ran out of budget half way.
  assert.equal(
    limitOf(() => compiled.test("ab".repeat(10_000), meter(100_000))),
    "maxRegexSteps",
  );
  assert.equal(patternStackWords(compiled), initial);
});

test("maxRegexBacktrackStack stops a match whose stack would pass 8 Mi words: limit_exceeded, at the pattern", () => {
  const compiled = compilePattern("^(a|b)*(?=c)", { native: false });
  const input = "a".repeat(1_000_000);
  // Budgets out of the way: the stack is what stops it, and what it grew to is given back.
  assert.throws(
    () => compiled.test(input, meter(Number.MAX_SAFE_INTEGER)),
    (e: unknown) => e instanceof LimitError && e.limit === "maxRegexBacktrackStack" && e.value === 8 * 1024 * 1024,
  );
  assert.ok(patternStackWords(compiled) <= 1024, `${patternStackWords(compiled)} words kept`);
  assert.equal(compiled.test("a".repeat(1_000) + "c", meter()), true);
  const limits = { maxEvaluationSteps: Number.MAX_SAFE_INTEGER, maxRegexSteps: Number.MAX_SAFE_INTEGER };
  const result = InputSchema.validate(
    { type: "object", properties: { s: { pattern: "^(a|b)*(?=c)" } } },
    { s: input },
    { limits },
  );
  assert.equal(result.ok, false);
  const error = !result.ok ? result.error : undefined;
  assert.equal(error?.class, "execution_failure");
  assert.equal(error?.code, "limit_exceeded");
  assert.equal(error?.limit?.name, "maxRegexBacktrackStack");
  assert.equal(error?.instancePointer, "/s");
  assert.equal(error?.schemaPointer, "/properties/s/pattern");
});

test("maxRegexProgramTotal refuses a schema whose patterns together pass 1,000,000 instructions, at the one that did", () => {
  // Distinct patterns of the same size, about 90,000 instructions: each is within maxRegexProgramSize on its own.
  const patterns = Array.from({ length: 12 }, (_, i) => `^${String.fromCharCode(0x61 + i)}[ab]{90000}`);
  const size = compilePattern(patterns[0]!).programSize;
  const crossing = Math.floor(1_000_000 / size);
  assert.ok(crossing > 1 && crossing < patterns.length, `crossed at ${crossing}`);
  const schema = (count: number): unknown => ({
    type: "object",
    properties: { s: { allOf: patterns.slice(0, count).map((pattern) => ({ pattern })) } },
  });
  assert.equal(InputSchema.validateSchema(schema(crossing)).ok, true, "the patterns before it fit");
  const refused = InputSchema.validateSchema(schema(crossing + 1));
  assert.equal(refused.ok, false);
  const error = !refused.ok ? refused.error : undefined;
  assert.equal(error?.code, "limit_exceeded");
  assert.equal(error?.limit?.name, "maxRegexProgramTotal");
  assert.equal(error?.schemaPointer, `/properties/s/allOf/${crossing}/pattern`);
  // The same pattern twice is compiled, and counted, once.
  const repeated = { type: "object", properties: { s: { allOf: Array(30).fill({ pattern: patterns[0] }) } } };
  assert.equal(InputSchema.validateSchema(repeated).ok, true);
});

test("a pattern past a bound of its own is refused at its pointer, also in a registry document", () => {
  const tooBig = "[ab]{200000}";
  const direct = InputSchema.validateSchema({ type: "object", properties: { s: { pattern: tooBig } } });
  assert.equal(!direct.ok && direct.error.limit?.name, "maxRegexProgramSize");
  assert.equal(!direct.ok && direct.error.schemaPointer, "/properties/s/pattern");
  const registry = { "https://e.test/names": { patternProperties: { ["(".repeat(600) + ")".repeat(600)]: {} } } };
  const schema = { type: "object", properties: { s: { $ref: "https://e.test/names" } } };
  const e = limitErrorOf(() => compile(schema, { schemaRegistry: registry }));
  assert.equal(e.limit, "maxRegexNesting");
  assert.equal(e.schemaPointer, "https://e.test/names#/patternProperties");
});

function limitErrorOf(call: () => unknown): LimitError {
  try {
    call();
  } catch (e) {
    if (e instanceof LimitError) return e;
    throw e;
  }
  throw new assert.AssertionError({ message: "no limit was hit" });
}
