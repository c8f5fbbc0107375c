/**
 * The verdict fast path's corners (docs/project/performance.md "The verdict fast path"): what it decides and what it
 * leaves to the accounted path, object layouts that change between calls, inherited and prototype-less members, a host
 * getter that validates meanwhile, and limits it must never decide past. Each case also holds the fast path to the
 * accounted path's verdict.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CALLS_BEFORE_BUILD } from "../../../src/engine/verdict/build.js";
import { compile, LimitError, type Validator } from "../../../src/index.js";

/** The fast path's answer, checked against the accounted path's (`count`) whenever it gives one. */
function fast(validator: Validator, instance: unknown): boolean | undefined {
  const decided = validator.fastVerdict(instance);
  if (decided !== undefined) assert.equal(decided, validator.count(instance).valid, JSON.stringify(instance));
  return decided;
}

const closed = {
  type: "object",
  properties: { owner: { type: "string" }, repo: { type: "string" }, n: { type: "integer", minimum: 0 } },
  required: ["owner", "repo"],
  additionalProperties: false,
};

describe("what the fast path decides", () => {
  // First in its process: no earlier call has set the fast path's limits.
  test("an enum of objects is decided under the default limits from the first call, not left to a limit", () => {
    const v = compile({ enum: [{ k: 1 }, "a", [1, { k: 2 }]] });
    assert.equal(fast(v, { k: 1 }), true);
    assert.equal(fast(v, [1, { k: 2 }]), true);
    assert.equal(fast(v, { k: 2 }), false);
    assert.equal(fast(v, [1, { k: 3 }]), false);
  });

  test("valid and invalid tool calls alike, whatever order their keys come in", () => {
    const v = compile(closed);
    assert.equal(fast(v, { owner: "o", repo: "r", n: 1 }), true);
    assert.equal(fast(v, { n: 1, repo: "r", owner: "o" }), true);
    assert.equal(fast(v, { owner: "o", repo: "r", n: -1 }), false);
    assert.equal(fast(v, { owner: "o", repo: "r", extra: 1 }), false);
    assert.equal(fast(v, { owner: "o" }), false);
    assert.equal(fast(v, "x"), false);
  });

  test("an object of many declared names read in the order its keys come, that order changing between calls", () => {
    const names = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const v = compile({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "integer" }])) });
    const ordered = Object.fromEntries(names.map((n, i) => [n, i]));
    const reversed = Object.fromEntries([...names].reverse().map((n, i) => [n, i]));
    for (const instance of [ordered, reversed, ordered, { ...ordered, k3: "x" }, { k39: 1, x: null }, reversed]) {
      assert.equal(fast(v, instance), v.count(instance).valid);
    }
  });

  test("only own members count: inherited enumerable ones are not members, and a prototype other than none is refused", () => {
    const v = compile({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const bare = Object.assign(Object.create(null) as object, { a: "x" });
    assert.equal(fast(v, bare), true);
    const inheriting = Object.assign(Object.create({ a: "x" }) as object, { b: 1 });
    assert.equal(v.isValid(inheriting), false);
    assert.equal(fast(v, inheriting), undefined, "not JSON data: the accounted path decides");
    const polluted = Object.prototype as Record<string, unknown>;
    try {
      polluted["a"] = 1;
      assert.equal(fast(v, JSON.parse('{"b": 1}')), false, "an inherited a is no member");
      assert.equal(fast(v, JSON.parse('{"a": "x"}')), true);
    } finally {
      delete polluted["a"];
    }
  });

  test("a chain of objects checked level after level, and a recursion through references", () => {
    let schema: Record<string, unknown> = { type: "string" };
    let data: unknown = "x";
    for (let i = 49; i >= 0; i--) {
      schema = { type: "object", properties: { [`p${i}`]: schema, q: { type: "integer" } }, required: [`p${i}`] };
      data = { q: i, [`p${i}`]: data };
    }
    const chain = compile(schema);
    assert.equal(fast(chain, data), true);
    const list = compile({
      $ref: "#/$defs/node",
      $defs: {
        node: {
          type: "object",
          properties: { value: { type: "integer" }, next: { $ref: "#/$defs/node" } },
          additionalProperties: false,
        },
      },
    });
    let deep: unknown = { value: 0 };
    for (let i = 1; i < 40; i++) deep = { value: i, next: deep };
    assert.equal(fast(list, deep), true);
    assert.equal(fast(list, { value: 1, next: { value: "x" } }), false);
  });

  test("a host getter that validates another instance meanwhile leaves this check's tally alone", () => {
    const inner = compile({ type: "array", items: { type: "integer" } });
    const outer = compile({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } });
    const big = Array.from({ length: 50_000 }, (_, i) => i);
    assert.equal(inner.fastVerdict([1]), true); // built now: the nested call below takes the fast path too
    const instance = {
      a: 1,
      get b(): number {
        assert.equal(inner.isValid(big), true);
        return 2;
      },
    };
    assert.equal(outer.fastVerdict(instance), true);
    assert.equal(outer.isValid(instance), true);
  });

  test("a host getter that validates with the same validator meanwhile gets a tally of its own", () => {
    // Each list spends about 60% of the budget: on one shared tally, the outer check would end over it (UNKNOWN).
    const schema = {
      type: "object",
      properties: { list: { type: "array", items: { type: "integer" } }, b: { type: "integer" } },
    };
    const validator = compile(schema, { limits: { maxEvaluationSteps: 10_000 } });
    const list = Array.from({ length: 2_000 }, (_, i) => i);
    assert.equal(validator.fastVerdict({ list }), true);
    let inner: boolean | undefined;
    const instance = {
      list, // its node is not a leaf: checked after the walk, so after the getter below
      get b(): number {
        inner = validator.fastVerdict({ list, b: 1 });
        return 2;
      },
    };
    assert.equal(validator.fastVerdict(instance), true);
    assert.equal(inner, true);
    assert.equal(validator.fastVerdict({ list: [...list, "x"] }), false);
  });

  test("validators of the same limits share a tally; a getter validating with another meanwhile gets its own", () => {
    // Both compiled under the default limits: one tally between them. Each 90,000-item list spends about 27% of the
    // budget: the inner check would reset the outer's count on one tally, and its lists push the outer's over it.
    const lists = { type: "array", items: { type: "integer" } };
    const schema = { type: "object", properties: { l1: lists, l2: lists, b: { type: "integer" } } };
    const outer = compile(schema);
    const other = compile(schema);
    const list = Array.from({ length: 90_000 }, (_, i) => i);
    assert.equal(other.fastVerdict({ l1: [1] }), true);
    let inner: boolean | undefined;
    const instance = {
      l1: list,
      get b(): number {
        inner = other.fastVerdict({ l1: list, l2: list });
        return 2;
      },
      l2: list,
    };
    assert.equal(outer.fastVerdict(instance), true);
    assert.equal(inner, true);
    assert.equal(outer.fastVerdict({ l1: list, l2: [...list, "x"] }), false);
    assert.equal(other.fastVerdict({ l1: list, l2: list, b: 1.5 }), false);
  });

  test("numeric bounds as data: at, inside and past each bound, in place, as member, items and contains", () => {
    const bounds = [
      { minimum: 1 },
      { exclusiveMinimum: 1 },
      { maximum: 1 },
      { exclusiveMaximum: 1 },
      { minimum: 0, maximum: 2, exclusiveMaximum: 1.5 },
      { exclusiveMinimum: 0, minimum: 0.5 },
    ];
    const values = [-1, 0, 0.5, 1, 1.25, 1.5, 2, 3, "1", null];
    for (const b of bounds) {
      for (const typed of [b, { ...b, type: "number" }, { ...b, multipleOf: 0.25 }]) {
        // A leaf root is answered whole by the boolean path without a fast path (`direct`): in place, it is not.
        const schemas = [
          { allOf: [typed] },
          { type: "object", properties: { n: typed } },
          { type: "array", items: typed },
          { type: "array", contains: typed },
        ];
        const validators = schemas.map((schema) => compile(schema));
        for (const value of values) {
          for (const [i, instance] of [value, { n: value }, [0, value, 2], [value]].entries()) {
            const decided = fast(validators[i] as Validator, instance);
            assert.notEqual(decided, undefined, JSON.stringify({ schema: schemas[i], instance }));
          }
          const root = compile(typed);
          assert.equal(root.fastVerdict(value), undefined);
          assert.equal(root.isValid(value), root.count(value).valid, JSON.stringify({ schema: typed, value }));
        }
      }
    }
  });

  test("a list of scalars as data (enum, const): JSON equality, in place, as member, items and contains", () => {
    const lists = [
      { enum: ["a", "b"] },
      { enum: [1, "1", null, true] },
      { enum: [0] },
      { enum: [-0, 2.5] },
      { const: 1 },
      { const: "a" },
      { const: null },
      { const: false },
      { enum: ["a", { k: 1 }] },
      { enum: Array.from({ length: 20 }, (_, i) => i) },
    ];
    const values = ["a", "b", "1", 1, 1.0, -0, 0, 2.5, 1.5, null, true, false, { k: 1 }, [1], 19, 20];
    for (const list of lists) {
      for (const typed of [list, { ...list, type: "string" }, { ...list, minLength: 1 }, { ...list, minimum: 1 }]) {
        const schemas = [
          { allOf: [typed] },
          { type: "object", properties: { n: typed } },
          { type: "object", properties: { n: typed }, additionalProperties: false },
          { type: "object", properties: { n: typed }, patternProperties: { "^x": true } },
          { type: "array", items: typed },
          { type: "array", contains: typed },
        ];
        const validators = schemas.map((schema) => compile(schema));
        for (const value of values) {
          const instances = [value, { n: value }, { n: value }, { n: value, x: 1 }, [value, value], [value]];
          for (const [i, instance] of instances.entries()) {
            const decided = fast(validators[i] as Validator, instance);
            assert.notEqual(decided, undefined, JSON.stringify({ schema: schemas[i], instance }));
          }
        }
      }
    }
  });

  test("a list beside a metered assertion keeps the keywords' order: a limit the assertion meets is still reported", () => {
    const pattern = "^a*$";
    const long = "a".repeat(40) + "b";
    const limits: string[] = [];
    for (const member of [
      { type: "string", pattern, enum: ["x", "y"] },
      { type: "string", enum: ["x", "y"], pattern },
    ]) {
      const v = compile({ type: "object", properties: { s: member } }, { limits: { maxRegexSteps: 10 } });
      const outcome = (run: () => unknown): unknown => {
        try {
          return run();
        } catch (e) {
          if (!(e instanceof LimitError)) throw e;
          return e.limit;
        }
      };
      for (const s of ["x", "aa", long]) {
        const instance = { s };
        const accounted = outcome(() => v.count(instance).valid);
        assert.deepEqual(
          outcome(() => v.isValid(instance)),
          accounted,
          JSON.stringify({ member, s }),
        );
        const decided = outcome(() => fast(v, instance) ?? "undecided");
        if (decided !== "undecided") assert.equal(decided, accounted);
        if (typeof accounted === "string") limits.push(accounted);
      }
    }
    // The pattern first meets the limit on the long string; the list first refuses it before the pattern runs.
    assert.deepEqual(limits, ["maxRegexSteps"]);
  });

  test("anyOf, oneOf and not: how many branches pass decides, and a value no branch accepts is still JSON data", () => {
    const nullable = compile({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] } } });
    assert.equal(fast(nullable, { a: null }), true);
    assert.equal(fast(nullable, { a: "x" }), true);
    assert.equal(fast(nullable, { a: 1 }), false);
    const one = compile({ oneOf: [{ type: "integer" }, { minimum: 2 }] });
    assert.deepEqual(
      [1, 3, 2.5, 1.5, "x"].map((n) => fast(one, n)),
      [true, false, true, false, true],
    );
    const not = compile({ not: { type: "string" } });
    assert.deepEqual(
      [1, "x", { a: [null] }].map((n) => fast(not, n)),
      [true, false, true],
    );
    // Refused by the branch, so accepted by `not`: the value is then looked through (here it is not JSON data).
    for (const value of [{ b: NaN }, [undefined], { d: new Date(0) }, new Date(0)]) {
      assert.notEqual(fast(not, value), true);
      assert.equal(not.isValid(value), false);
    }
  });

  test("if, then and else: the branch if selects decides, and a value if refuses with no else is still JSON data", () => {
    const v = compile({ if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } });
    assert.deepEqual(
      ["ab", "a", 3, 1.5, null].map((n) => fast(v, n)),
      [true, false, true, false, false],
    );
    const thenOnly = compile({ if: { type: "string" }, then: { minLength: 2 } });
    assert.deepEqual(
      ["ab", "a", 3, { a: [1] }].map((n) => fast(thenOnly, n)),
      [true, false, true, true],
    );
    for (const value of [{ b: NaN }, [undefined], { d: new Date(0) }]) {
      assert.notEqual(fast(thenOnly, value), true);
      assert.equal(thenOnly.isValid(value), false);
    }
  });

  test("isValid answers alike before the fast path is built, on the call it is built and after", () => {
    const v = compile(closed);
    const good = { owner: "o", repo: "r", n: 1 };
    const bad = { owner: "o", repo: "r", n: -1 };
    for (let call = 0; call < 3 * CALLS_BEFORE_BUILD; call++) {
      assert.equal(v.isValid(good), true, `call ${call}`);
      assert.equal(v.isValid(bad), false, `call ${call}`);
    }
  });
});

describe("what the fast path leaves to the accounted path", () => {
  test("values that are not JSON data, and subtrees it does not cover (run inside it)", () => {
    const v = compile(closed);
    assert.equal(fast(v, { owner: "o", repo: "r", n: NaN }), undefined);
    assert.equal(v.isValid({ owner: "o", repo: "r", n: NaN }), false);
    const uncovered = compile({ type: "object", properties: { a: { propertyNames: { maxLength: 1 } } } });
    assert.equal(fast(uncovered, { a: { x: 1 } }), true, "a propertyNames member runs on the accounted path inside");
    assert.equal(fast(uncovered, { a: null }), true);
    assert.equal(fast(uncovered, { a: { xy: 1 } }), false);
  });

  test("an instance that could reach a limit: the accounted path reports it, with its kind", () => {
    const v = compile({ type: "array", items: { type: "integer" } }, { limits: { maxEvaluationSteps: 100 } });
    const long = Array.from({ length: 200 }, (_, i) => i);
    assert.equal(v.fastVerdict(long), undefined);
    assert.throws(
      () => v.isValid(long),
      (e: unknown) => e instanceof LimitError && e.limit === "maxEvaluationSteps",
    );
    const deep = compile({ $ref: "#/$defs/n", $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } } });
    let nested: unknown = [];
    for (let i = 0; i < 200; i++) nested = [nested];
    assert.equal(deep.fastVerdict(nested), undefined);
    assert.throws(() => deep.isValid(nested), LimitError);
  });
});
