/**
 * `checkJson`, the JSON check every host value and schema goes through: non-JSON values and accessors are refused
 * with their pointer and never called; an object reached along several paths measures as its tree expansion.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { checkJson, isDataWithin, type DataBounds } from "../../../src/engine/json/host-json.js";

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

describe("isDataWithin, the quick walk the boundary tries first, answers true only where checkJson answers ok", () => {
  const bounds = { nodes: 40, depth: 4, stringLength: 5, arrayLength: 4, objectProperties: 4 };
  /** JSON values around the bounds above, with some values that are not JSON data among them. */
  const values = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.string({ maxLength: 7 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom<unknown>(undefined, NaN, Infinity, () => 1, new Date(0)),
      fc.array(tie("value"), { maxLength: 5 }),
      fc.dictionary(fc.string({ maxLength: 2 }), tie("value"), { maxKeys: 5 }),
    ),
  })).value;
  test("on generated values: true exactly where checkJson is ok, within the quick walk's levels", () => {
    fc.assert(
      fc.property(values, (value) => {
        assert.equal(isDataWithin(value, bounds), checkJson(value, bounds).ok);
      }),
      { seed: 47, numRuns: 2000 },
    );
  });
  const refused: [string, () => unknown][] = [
    ["a getter", () => withGetter({ a: 1 }, "b").value],
    ["a getter at an array index", () => [withGetter([], "0").value]],
    ["a non-enumerable getter", () => withGetter({ a: 1 }, "b", false).value],
    ["a setter without a getter", () => Object.defineProperty({}, "s", { enumerable: true, set() {} })],
    ["a non-enumerable data property", () => Object.defineProperty({ a: 1 }, "hidden", { value: 2 })],
    ["a sparse array", () => Object.assign(new Array<number>(3), { 0: 1, 2: 3 })],
    ["an array with a named member", () => Object.assign([1], { extra: 2 })],
    ["a class instance", () => ({ d: new Date(0) })],
    [
      "an object that contains itself",
      () => {
        const a: Record<string, unknown> = {};
        a["b"] = { a };
        return a;
      },
    ],
    [
      "a throwing Proxy",
      () =>
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error("trap");
            },
          },
        ),
    ],
  ];
  for (const [label, make] of refused) {
    test(`false for ${label}, which checkJson refuses`, () => {
      const value = make();
      assert.equal(isDataWithin(value, { nodes: 1000 }), false);
      assert.equal(checkJson(value, { nodes: 1000 }).ok, false);
    });
  }
  test("a getter is never called", () => {
    const { value, calls } = withGetter({}, "a");
    assert.equal(isDataWithin({ x: [value] }, { nodes: 100 }), false);
    assert.equal(calls(), 0);
  });
  test("each bound at its value and one past it; nodes count an object reached twice twice", () => {
    const shared = { a: 1, b: 2 };
    assert.equal(isDataWithin({ x: shared, y: shared }, { nodes: 7 }), true);
    assert.equal(isDataWithin({ x: shared, y: shared }, { nodes: 6 }), false);
    assert.equal(checkJson({ x: shared, y: shared }, { nodes: 6 }).ok, false);
    const cases: [DataBounds, unknown, unknown][] = [
      [{ nodes: 100, depth: 2 }, { a: { b: 1 } }, { a: { b: [1] } }],
      [{ nodes: 100, stringLength: 2 }, ["ab"], ["abc"]],
      [{ nodes: 100, arrayLength: 2 }, [1, 2], [1, 2, 3]],
      [
        { nodes: 100, objectProperties: 2 },
        { a: 1, b: 2 },
        { a: 1, b: 2, c: 3 },
      ],
      [{ nodes: 3 }, [1, 2], [1, 2, 3]],
    ];
    for (const [limits, within, past] of cases) {
      assert.equal(isDataWithin(within, limits), true, JSON.stringify(within));
      assert.equal(isDataWithin(past, limits), false, JSON.stringify(past));
      assert.equal(checkJson(past, limits).ok, false, JSON.stringify(past));
    }
  });
  test("nesting past its levels is left to checkJson (a deep value within the bounds is still JSON data)", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    assert.equal(isDataWithin(deep, { nodes: 100 }), false);
    assert.equal(checkJson(deep, { nodes: 100 }).ok, true);
  });
});
