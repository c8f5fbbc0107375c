/**
 * `checkJson`, the JSON check every host value and schema goes through: non-JSON values and accessors are refused
 * with their pointer and never called; an object reached along several paths measures as its tree expansion.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { checkJson } from "../../../src/engine/json/host-json.js";

/** `value` with `key` replaced by a getter (enumerable or not) that counts its calls. */
function withGetter(value: object, key: string, enumerable = true): { value: object; calls: () => number } {
  let calls = 0;
  Object.defineProperty(value, key, {
    enumerable,
    configurable: true,
    get() {
      calls++;
      return 1;
    },
  });
  return { value, calls: () => calls };
}

describe("checkJson refuses what is not JSON data, naming the pointer", () => {
  const cases: [string, () => unknown, string, RegExp][] = [
    ["a getter", () => withGetter({ a: { b: 1 } }, "c").value, "/c", /accessor property \(a getter\)/],
    ["a nested getter", () => ({ a: [withGetter({}, "x~y/z").value] }), "/a/0/x~0y~1z", /accessor/],
    ["a getter at an array index", () => ({ a: withGetter([], "0").value }), "/a/0", /accessor/],
    ["a non-enumerable getter", () => withGetter({ a: 1 }, "b", false).value, "/b", /non-enumerable/],
    [
      "a setter without a getter",
      () => Object.defineProperty({}, "s", { enumerable: true, set() {} }),
      "/s",
      /accessor property \(a setter\)/,
    ],
    [
      "a non-enumerable data property",
      () => Object.defineProperty({ a: 1 }, "hidden", { value: 2 }),
      "/hidden",
      /non-enumerable/,
    ],
    ["a function", () => ({ a: { f: () => 1 } }), "/a/f", /a function is not a JSON value/],
    ["a class instance", () => ({ d: new Date(0) }), "/d", /an instance of Date/],
    ["a sparse array", () => ({ a: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) }), "/a", /sparse array/],
    [
      "a cycle",
      () => {
        const a: Record<string, unknown> = {};
        a["b"] = { a };
        return a;
      },
      "/b/a",
      /cycle/,
    ],
  ];
  for (const [label, make, pointer, message] of cases) {
    test(label, () => {
      const found = checkJson(make());
      assert.ok(!found.ok);
      assert.equal(found.pointer, pointer);
      assert.match(found.message, message);
    });
  }
  test("a getter is never called", () => {
    const { value, calls } = withGetter({}, "a");
    assert.ok(!checkJson({ x: value }).ok);
    assert.equal(calls(), 0);
  });
  test("a Proxy trap that throws is located and handed back, not thrown", () => {
    const thrown = Object.create(null) as object;
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw thrown;
        },
      },
    );
    const found = checkJson({ a: [trap] });
    assert.ok(!found.ok);
    assert.equal(found.pointer, "/a/0");
    assert.equal(found.thrown, thrown);
    assert.match(found.message, /could not be read: a thrown value that cannot be shown/);
  });
  test("symbol-keyed properties are ignored, as before", () => {
    assert.ok(checkJson({ [Symbol("kind")]: () => 1, a: 1 }).ok);
  });
});

describe("an object reached along several paths counts as its tree expansion, walked once", () => {
  /** A DAG from `fc`: each level holds `width` references to the level below. */
  const dags = fc.record({
    depth: fc.integer({ min: 1, max: 6 }),
    width: fc.integer({ min: 1, max: 3 }),
    leaf: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    array: fc.boolean(),
  });
  test("bytes and nodes equal those of the same tree written out", () => {
    fc.assert(
      fc.property(dags, ({ depth, width, leaf, array }) => {
        let value: unknown = { leaf };
        for (let i = 0; i < depth; i++) {
          const level = Array.from({ length: width }, () => value);
          value = array ? level : Object.fromEntries(level.map((v, j) => [`k${j}`, v]));
        }
        const shared = checkJson(value);
        const tree = checkJson(JSON.parse(JSON.stringify(value)));
        assert.ok(shared.ok && tree.ok);
        assert.equal(shared.measure.bytes, tree.measure.bytes);
        assert.equal(shared.measure.nodes, tree.measure.nodes);
        assert.equal(shared.measure.shared, width > 1);
        assert.equal(tree.measure.shared, false);
      }),
      { seed: 24, numRuns: 200 },
    );
  });
  test("the bounds apply to the expansion: bytes, nodes and depth through a shared object", () => {
    let s: unknown = { a: "x" };
    for (let i = 0; i < 40; i++) s = { l: s, r: s };
    for (const bound of ["bytes", "nodes"] as const) {
      const found = checkJson(s, { [bound]: 1_000_000 });
      assert.ok(!found.ok);
      assert.equal(found.bound, bound);
    }
    // `s` is 41 objects deep: within the bound at /a, one level too deep when reached again at /b/c.
    const deep = { a: s, b: { c: s } };
    assert.ok(checkJson({ a: s }, { depth: 42 }).ok);
    const found = checkJson(deep, { depth: 42 });
    assert.ok(!found.ok);
    assert.deepEqual([found.bound, found.pointer], ["depth", "/b/c"]);
    assert.ok(checkJson({ a: { b: 1 }, c: { b: 1 } }, { depth: 2 }).ok);
  });
  test("a cycle through a shared object is still a cycle", () => {
    const shared: Record<string, unknown> = {};
    const root = { a: shared, b: shared };
    shared["back"] = root;
    const found = checkJson(root);
    assert.ok(!found.ok);
    assert.match(found.message, /cycle/);
  });
  test("in a schema document, an object shared as a subschema and as data nests as each", () => {
    const positions = new Map([["properties", "map" as const]]);
    const shared = { properties: { x: {} } };
    // As a subschema `shared` is level 1 and its `x` level 2; as `const` data, its `properties` adds one: 3.
    const schema = { properties: { a: shared }, const: shared };
    assert.ok(checkJson(schema, { depth: 3 }, positions).ok);
    assert.ok(checkJson({ properties: { a: shared } }, { depth: 2 }, positions).ok);
    const found = checkJson(schema, { depth: 2 }, positions);
    assert.ok(!found.ok);
    assert.deepEqual([found.bound, found.pointer], ["depth", "/const/properties/x"]);
    assert.ok(checkJson({ const: shared, properties: { a: shared } }, { depth: 3 }, positions).ok);
  });
});
