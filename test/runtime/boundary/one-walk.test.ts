/**
 * One JSON walk per boundary pass (docs/guide/boundary.md): the boundary checks a value as JSON data within the
 * instance limits once, and the validator it then asks is told so and does not walk the value again for the rule
 * that values which are not JSON data are never valid. The walks are counted where they visit values
 * (src/engine/json/walk-count.ts): a pass over a value of N values visits N, on every path the validator may take (a
 * root answered whole by `direct`, the accounted path of a validator's first calls, the verdict fast path after), for
 * valid and invalid values, arguments and results.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InputSchema, OutputSchema, type BoundaryError, type Result } from "../../../src/index.js";
import { countJsonWalks, type WalkCounter } from "../../../src/engine/json/walk-count.js";

/** The values in a JSON tree, itself included. */
function values(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  return 1 + Object.values(value).reduce<number>((sum, member) => sum + values(member), 0);
}

/** The values the JSON walks visit while `pass` runs, and what it returned. */
function counted(pass: () => Result<unknown, BoundaryError>): {
  visits: number;
  result: Result<unknown, BoundaryError>;
} {
  const counter: WalkCounter = { values: 0 };
  countJsonWalks(counter);
  try {
    const result = pass();
    return { visits: counter.values, result };
  } finally {
    countJsonWalks(undefined);
  }
}

/** Past the calls before the verdict fast path is built (engine/verdict/build.ts `CALLS_BEFORE_BUILD`, 64). */
const CALLS = 100;

const tool = {
  type: "object",
  properties: {
    name: { type: "string" },
    meta: { type: "object" },
    list: { type: "array", items: { type: "integer" } },
  },
  required: ["name"],
};
// `meta` and `extra` are looked through by no keyword: only the rule for values that are not JSON data reads them.
const below = { deep: [1, { x: null, y: [true, "z"] }], n: 2.5 };
const validArgs = { name: "a", meta: below, extra: { more: [below, "w"] }, list: [1, 2] };
const invalidArgs = { ...validArgs, name: 7 };

const resultSchema = { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } };
const validResult = [{ id: 1, tags: ["a", { b: null, c: [1, 2, 3] }] }, { id: 2 }];
const invalidResult = [{ id: 1.5, tags: ["a", { b: null }] }, { id: 2 }];

const cases: [string, typeof InputSchema | typeof OutputSchema, unknown, unknown, boolean][] = [
  ["arguments, a root answered whole (`direct`)", InputSchema, { type: "object" }, validArgs, true],
  ["valid arguments", InputSchema, tool, validArgs, true],
  ["invalid arguments", InputSchema, tool, invalidArgs, false],
  ["a valid result", OutputSchema, resultSchema, validResult, true],
  ["an invalid result", OutputSchema, resultSchema, invalidResult, false],
];

describe("each boundary pass walks the value as JSON data once", () => {
  for (const [label, boundary, schema, value, valid] of cases) {
    test(`${label}: ${values(value)} values visited on every call, before and after the fast path`, () => {
      const compiled = boundary.validateSchema(schema, { formatAssertion: false });
      assert.ok(compiled.ok);
      const checker = compiled.value;
      const expected = values(value);
      for (let call = 1; call <= CALLS; call++) {
        const { visits, result } = counted(() => checker.validate(value));
        assert.equal(result.ok, valid, `call ${call}`);
        assert.equal(visits, expected, `call ${call}: each value once`);
      }
    });
  }

  test("the visits grow as the value: 1,000 members no keyword reads cost 1,000 visits more", () => {
    const compiled = InputSchema.validateSchema(tool);
    assert.ok(compiled.ok);
    const schema = compiled.value;
    const extra = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
    for (let call = 1; call <= CALLS; call++) {
      const small = counted(() => schema.validate({ name: "a" }));
      const large = counted(() => schema.validate({ name: "a", extra }));
      assert.ok(small.result.ok && large.result.ok);
      assert.equal(large.visits - small.visits, 1_001, `call ${call}`);
    }
  });
});

describe("the one walk refuses what the validator's walk refused, where it is", () => {
  const compiled = InputSchema.validateSchema(tool);
  assert.ok(compiled.ok);
  // The fast path is built first: what it no longer walks must still be refused by the boundary's walk.
  for (let call = 0; call < CALLS; call++) assert.ok(compiled.value.validate(validArgs).ok);
  const hole: unknown[] = [1];
  hole[2] = 3;
  const refused: [string, unknown, string][] = [
    ["a function", { name: "a", extra: { f: () => 1 } }, "/extra/f"],
    ["undefined", { name: "a", meta: { deep: [1, undefined] } }, "/meta/deep/1"],
    ["a non-finite number", { name: "a", extra: [NaN] }, "/extra/0"],
    ["a bigint", { name: "a", extra: { n: 1n } }, "/extra/n"],
    ["a class instance", { name: "a", meta: { when: new Date(0) } }, "/meta/when"],
    ["a hole", { name: "a", extra: hole }, "/extra"],
  ];
  const checker = compiled.value;
  for (const [what, args, pointer] of refused) {
    test(`${what} below a member no keyword reads: arguments_invalid at ${pointer}`, () => {
      const r = checker.validate(args);
      assert.ok(!r.ok);
      assert.equal(r.error.code, "arguments_invalid");
      assert.equal(r.error.instancePointer, pointer);
    });
  }
  test("a cycle below a member no keyword reads: arguments_invalid where it closes", () => {
    const loop: Record<string, unknown> = {};
    loop["self"] = loop;
    const r = checker.validate({ name: "a", extra: loop });
    assert.ok(!r.ok);
    assert.equal(r.error.code, "arguments_invalid");
    assert.equal(r.error.instancePointer, "/extra/self");
  });
  test("an instance limit below a member no keyword reads: execution_failure naming it", () => {
    const limited = InputSchema.validateSchema(tool, { limits: { maxInstanceNodes: 50 } });
    assert.ok(limited.ok);
    const checker = limited.value;
    const extra = Array.from({ length: 60 }, (_, i) => i);
    for (let call = 0; call < CALLS; call++) {
      const r = checker.validate({ name: "a", extra });
      assert.ok(!r.ok);
      assert.equal(r.error.class, "execution_failure");
      assert.equal(r.error.limit?.name, "maxInstanceNodes");
    }
  });
});
