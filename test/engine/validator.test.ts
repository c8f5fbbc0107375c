/**
 * The `Validator`'s rule for values that are not JSON data: never valid, wherever they sit and whatever the schema,
 * the same through `isValid`, `validate` (one error at the value's instance location), `annotations` and Standard
 * Schema; looked for only where the schema's keywords accept the instance, bounded by `maxInstanceNodes`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, LimitError, type OutputUnit } from "../../src/index.js";

class Point {
  constructor(readonly x: number) {}
}

/** `value` with an object that contains itself at `/self`. */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value["self"] = value;
  return value;
}

// eslint-disable-next-line no-sparse-arrays
const sparse = [1, , 3];

/** [label, schema, instance, instance location, what the message says it is]. */
const cases: [string, unknown, () => unknown, string, RegExp][] = [
  ["NaN for type number", { type: "number" }, () => NaN, "", /the non-finite number NaN/],
  ["Infinity for type number", { type: "number" }, () => Infinity, "", /the non-finite number Infinity/],
  ["-Infinity under {}", {}, () => ({ a: -Infinity }), "/a", /the non-finite number -Infinity/],
  ["undefined for required", { required: ["a"] }, () => ({ a: undefined }), "/a", /undefined/],
  ["a Date for type object", { type: "object" }, () => new Date(0), "", /an instance of Date/],
  ["a Map for type object", { type: "object" }, () => new Map(), "", /an instance of Map/],
  ["a class instance in an array", { items: true }, () => [1, new Point(1)], "/1", /an instance of Point/],
  ["a bigint under true", true, () => ({ n: 1n }), "/n", /a bigint/],
  ["a symbol", {}, () => [Symbol("s")], "/0", /a symbol/],
  ["a function", { properties: { f: {} } }, () => ({ f: () => 1 }), "/f", /a function/],
  ["a hole of a sparse array", { type: "array" }, () => ({ a: sparse }).a, "/1", /a hole in a sparse array/],
  ["a cycle", { type: "object" }, cyclic, "/self", /an object that contains itself/],
  ["a key that needs escaping", {}, () => ({ "a/b~c": [NaN] }), "/a~1b~0c/0", /NaN/],
];

describe("a value that is not JSON data is never valid", () => {
  for (const [label, schema, make, location, what] of cases) {
    test(`${label}: isValid, validate, annotations and Standard Schema agree`, () => {
      const validator = compile(schema);
      assert.equal(validator.isValid(make()), false);
      const output = validator.validate(make());
      assert.equal(output.valid, false);
      const errors = output.errors as OutputUnit[];
      assert.equal(errors.length, 1);
      const unit = errors[0] as OutputUnit;
      assert.equal(unit.instanceLocation, location);
      assert.equal(unit.keywordLocation, "");
      assert.equal(unit.keyword, undefined);
      assert.match(unit.error ?? "", /^is not JSON data: /);
      assert.match(unit.error ?? "", what);
      assert.deepEqual(validator.validate(make(), { output: "flag" }), { valid: false });
      for (const format of ["detailed", "verbose"] as const) {
        const tree = validator.validate(make(), { output: format });
        assert.equal(tree.valid, false, format);
        assert.match(JSON.stringify(tree), /is not JSON data/, format);
      }
      assert.deepEqual(validator.annotations(make()), []);
      const standard = validator["~standard"].validate(make());
      assert.ok(standard.issues !== undefined);
      assert.equal(standard.issues.length, 1);
      assert.equal(standard.issues[0]?.message, unit.error);
      const path = location === "" ? [] : location.slice(1).split("/");
      assert.deepEqual(
        standard.issues[0]?.path?.map((k) => String(k)),
        path.map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")),
      );
    });
  }
});

describe("what the rule leaves alone", () => {
  test("JSON data, objects without a prototype and symbol-keyed members included, stays valid", () => {
    const bare = Object.assign(Object.create(null) as object, { a: [1, { b: null }] });
    const tagged = { a: 1, [Symbol("meta")]: () => 1 };
    for (const value of [bare, tagged, { x: -0, y: 1e308, z: "s", w: false }]) {
      const validator = compile({});
      assert.equal(validator.isValid(value), true);
      assert.equal(validator.validate(value).valid, true);
      assert.equal(validator["~standard"].validate(value).issues, undefined);
    }
  });

  test("an instance the keywords refuse is reported with their errors", () => {
    const output = compile({ type: "string" }).validate({ a: NaN });
    assert.equal(output.valid, false);
    assert.deepEqual(
      output.errors?.map((e) => [e.keyword, e.instanceLocation]),
      [["type", ""]],
    );
  });

  test("a 200,000-deep array under {} is walked without a stack and is valid", () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(compile({}).isValid(deep), true);
    let bad: unknown[] = [NaN];
    for (let i = 0; i < 200_000; i++) bad = [bad];
    const validator = compile({});
    assert.equal(validator.isValid(bad), false);
    assert.equal(validator.validate(bad).errors?.[0]?.instanceLocation, "/0".repeat(200_001));
  });

  test("a cycle far down is found; a shared object expanding past maxInstanceNodes is that limit", () => {
    let inner: unknown = cyclic();
    for (let i = 0; i < 10_000; i++) inner = { n: inner };
    assert.equal(compile(true).isValid(inner), false);
    let shared: unknown = [1];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    assert.throws(
      () => compile({}).isValid(shared),
      (e: unknown) => e instanceof LimitError && e.limit === "maxInstanceNodes",
    );
  });

  test("maxInstanceNodes counts the values below the root", () => {
    const validator = compile({}, { limits: { maxInstanceNodes: 3 } });
    assert.equal(validator.isValid([1, 2, 3]), true);
    assert.throws(() => validator.isValid([1, 2, 3, 4]), LimitError);
    assert.throws(() => validator.validate([1, 2, 3, 4]), LimitError);
  });
});
