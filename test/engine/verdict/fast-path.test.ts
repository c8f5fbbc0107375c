/**
 * The verdict fast path's corners (docs/project/performance.md "The verdict fast path"): what it decides and what it
 * leaves to the accounted path, object layouts that change between calls, inherited and prototype-less members, a host
 * getter that validates meanwhile, and limits it must never decide past. Each case also holds the fast path to the
 * accounted path's verdict.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
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
});

describe("what the fast path leaves to the accounted path", () => {
  test("values that are not JSON data, and subtrees it does not cover (run inside it)", () => {
    const v = compile(closed);
    assert.equal(fast(v, { owner: "o", repo: "r", n: NaN }), undefined);
    assert.equal(v.isValid({ owner: "o", repo: "r", n: NaN }), false);
    const anyOf = compile({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] } } });
    assert.equal(fast(anyOf, { a: null }), true, "an anyOf member runs on the accounted path inside the fast one");
    assert.equal(fast(anyOf, { a: 1 }), false);
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
