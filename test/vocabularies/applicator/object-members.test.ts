/**
 * The objectMembers fusion (src/vocabularies/applicator/object-members.ts) against its specification, the plain
 * `required`, `properties`, `patternProperties` and `additionalProperties`: compiled with and without the fusion,
 * every verdict agrees on every branch (a few names read one by one, key layouts kept and missed, members entered at
 * once or one by one, patterns, closed and open objects, up to twelve names), with evaluated marks read by
 * `unevaluatedProperties`, with inherited enumerable keys, and with the output path.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compileWith } from "../../../src/engine/compile-with.js";
import { dialect2020_12 } from "../../../src/vocabularies/dialect-2020-12.js";
import { objectMembers } from "../../../src/vocabularies/applicator/object-members.js";

const plain = { ...dialect2020_12, fusions: [] };
const NAMES = ["a", "ab", "x1", "__proto__", "toString", "constructor", "0", "12", "b", "c", "d", "e", "f", "g"];
/** Pure leaves (entered at once), leaves that charge steps (entered one by one), and subschemas that descend. */
const sub = fc.oneof(
  fc.constant(true),
  fc.constant(false),
  fc.constant({}),
  fc.constant({ type: "integer" }),
  fc.constant({ type: "string" }),
  fc.constant({ minimum: 2 }),
  fc.constant({ type: ["integer", "null"], maximum: 2 }),
  fc.constant({ pattern: "^s" }),
  fc.constant({ enum: [1, "s", null] }),
  fc.constant({ type: "object", properties: { a: { type: "integer" } }, required: ["a"] }),
  fc.constant({ items: { type: "integer" } }),
  fc.constant({ allOf: [{ type: "integer" }] }),
);
const schema = fc.record(
  {
    properties: fc.dictionary(fc.constantFrom(...NAMES), sub, { maxKeys: 12 }),
    patternProperties: fc.dictionary(fc.constantFrom("^a", "1$", "o", "^[0-9]+$"), sub, { maxKeys: 2 }),
    additionalProperties: sub,
    unevaluatedProperties: fc.constantFrom(false, { type: "integer" }),
    required: fc.uniqueArray(fc.constantFrom(...NAMES, "zz"), { maxLength: 5 }),
  },
  { requiredKeys: [] },
);
const value = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom("s", "t", 1.5, null, [], [1, 2], {}, { a: 1 }, { a: "x" }),
);
/** Objects parsed from JSON (own keys only, in a generated order), some with inherited enumerable keys too. */
const object = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...NAMES, "zz", "x9", "a0"), value), { maxLength: 14 }),
    fc.array(fc.tuple(fc.constantFrom("a", "b", "zz", "inherited"), value), { maxLength: 2 }),
  )
  .map(([own, inherited]) => {
    const text = "{" + own.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",") + "}";
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (inherited.length === 0) return parsed;
    const proto = Object.fromEntries(inherited);
    return Object.assign(Object.create(proto) as Record<string, unknown>, parsed);
  });
const instance = fc.oneof({ weight: 5, arbitrary: object }, { weight: 1, arbitrary: value });

/** An object of `count` keys k0, k1, … (integers), then `extra`, parsed from JSON as arguments arrive. */
function wide(count: number, extra: Record<string, unknown>): unknown {
  const entries = Array.from({ length: count }, (_, i) => `"k${i}":${i}`);
  for (const [k, v] of Object.entries(extra)) entries.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return JSON.parse(`{${entries.join(",")}}`);
}

test("the dialect lists the fusion", () => {
  assert.deepEqual(dialect2020_12.fusions, [objectMembers]);
});

test("fused and plain boolean paths agree on sequences of instances (layouts kept and missed), and with the output", () => {
  let laidOut = 0;
  fc.assert(
    fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 6 }), (s, instances) => {
      const fused = compileWith(dialect2020_12, s);
      const spec = compileWith(plain, s);
      // The same instances twice: the second pass meets the layouts the first one left.
      for (const i of [...instances, ...instances]) {
        const verdict = spec.isValid(i);
        assert.equal(fused.isValid(i), verdict, JSON.stringify({ s, i }));
        assert.equal(fused.validate(i).valid, verdict);
      }
      if (Object.keys(s.properties ?? {}).length > 3 || s.additionalProperties !== undefined) laidOut++;
    }),
    { seed: 20261203, numRuns: 2500 },
  );
  assert.ok(laidOut > 1000, `${laidOut} schemas took the key-layout branch`);
});

test("every branch: layouts with pure leaves entered at once or not, patterns, closed objects, many names", () => {
  const twelve = Object.fromEntries(NAMES.slice(0, 12).map((n, i) => [n, i % 2 ? { type: "integer" } : {}]));
  const cases: [unknown, unknown[]][] = [
    // A few names, nothing for other keys.
    [
      { properties: { a: { type: "integer" }, b: {} }, required: ["a"] },
      [{ a: 1 }, { b: 1 }, { a: "x" }, { a: 1, z: 2 }],
    ],
    // Twelve names: the layout branch, with a map lookup past eight names.
    [{ properties: twelve, required: ["a", "g"] }, [{ a: 1, g: 2 }, { g: 2, a: 1 }, { a: 1 }, { a: 1, g: 2, ab: "x" }]],
    // Closed: additionalProperties false, and a schema for the others.
    [{ properties: { a: { type: "integer" } }, additionalProperties: false }, [{ a: 1 }, { a: 1, b: 2 }, {}]],
    [
      { properties: { a: {} }, additionalProperties: { type: "string" } },
      [
        { a: 1, b: "s" },
        { a: 1, b: 2 },
      ],
    ],
    // Patterns, with and without additionalProperties.
    [
      { patternProperties: { "^x": { type: "integer" } }, additionalProperties: false },
      [{ x1: 1 }, { x1: "s" }, { y: 1 }],
    ],
    [{ properties: { a: {} }, patternProperties: { "^x": { type: "integer" } } }, [{ x1: 1, a: "s" }, { x1: "s" }]],
    // Over 1,024 keys: no layout, each key looked up, required names tested as own properties.
    [
      {
        properties: { a: { type: "integer" }, k7: { type: "integer" } },
        patternProperties: { "^x": { type: "string" } },
        additionalProperties: { type: "integer" },
        required: ["a", "zz"],
      },
      [
        wide(1100, { a: 1, zz: 0 }),
        wide(1100, { a: "s", zz: 0 }),
        wide(1100, { a: 1 }),
        wide(1100, { a: 1, zz: 0, x: 1 }),
      ],
    ],
    [{ properties: { a: {} }, required: ["a"] }, [wide(1100, {}), wide(1100, { a: 1 })]],
  ];
  for (const [s, instances] of cases) {
    const fused = compileWith(dialect2020_12, s);
    const spec = compileWith(plain, s);
    for (const i of [...instances, ...instances])
      assert.equal(fused.isValid(i), spec.isValid(i), JSON.stringify({ s, i }));
  }
});

test("a failing member gives back what entering all at once charged: the same steps as one by one", () => {
  const s = { properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" }, d: {} } };
  const fused = compileWith(dialect2020_12, s);
  const good = { a: 1, b: 2, c: 3, d: 4 };
  const bad = { a: 1, b: "x", c: 3, d: 4 };
  fused.isValid(good); // leaves the layout
  const once = fused.count(bad).steps;
  assert.equal(fused.count(bad).steps, once, "the same again");
  // Entered one by one (a fresh validator has no layout yet, and the first instance is looked up key by key).
  const fresh = compileWith(dialect2020_12, s);
  assert.equal(fresh.count(bad).steps, once);
});

test("a host object whose getters change it while it is read is checked name by name", () => {
  const s = { properties: { a: { type: "integer" }, b: { type: "integer" }, c: {}, d: {} }, required: ["a"] };
  const fused = compileWith(dialect2020_12, s);
  const spec = compileWith(plain, s);
  const tricky: Record<string, unknown> = { a: 1, c: 0, d: 0 };
  Object.defineProperty(tricky, "b", {
    enumerable: true,
    configurable: true,
    get() {
      delete tricky["c"];
      return 2;
    },
  });
  assert.equal(fused.isValid(tricky), spec.isValid({ a: 1, b: 2, d: 0 }));
});

test("__proto__ in the instance is data, whether declared or matched or additional", () => {
  const s = JSON.parse('{"properties": {"__proto__": {"type": "integer"}}, "additionalProperties": false}');
  const v = compileWith(dialect2020_12, s);
  assert.equal(v.isValid(JSON.parse('{"__proto__": 1}')), true);
  assert.equal(v.isValid(JSON.parse('{"__proto__": "x"}')), false);
  assert.equal(v.isValid({}), true, "an inherited prototype is not a property");
});

test("inherited enumerable keys are never members, however the layout was left", () => {
  const s = { properties: { a: {}, b: {}, c: {}, d: { type: "integer" } }, required: ["d"] };
  const v = compileWith(dialect2020_12, s);
  assert.equal(v.isValid({ a: 1, b: 2, c: 3, d: 4 }), true);
  const inherits = Object.create({ d: 4 }) as Record<string, unknown>;
  Object.assign(inherits, { a: 1, b: 2, c: 3 });
  assert.equal(v.isValid(inherits), false, "d is inherited, so required fails");
});

test("read with for…in only while it lists own keys: Object.prototype made enumerable, null and other prototypes", () => {
  const s = { properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a", "b"] };
  const open = { properties: { a: { type: "string" } }, additionalProperties: { type: "integer" } };
  for (const schema of [s, open]) {
    const fused = compileWith(dialect2020_12, schema);
    const spec = compileWith(plain, schema);
    const same = (instance: unknown) => assert.equal(fused.isValid(instance), spec.isValid(instance));
    // The layout { a, b } is learnt, then met by objects whose for…in would list more than their own keys.
    same(JSON.parse('{"a": "x", "b": 1}'));
    same(JSON.parse('{"a": "x", "b": 1}'));
    const polluted = Object.prototype as Record<string, unknown>;
    try {
      polluted["b"] = 2;
      same(JSON.parse('{"a": "x"}'));
      polluted["b"] = "two";
      same(JSON.parse('{"a": "x", "b": 1}'));
      delete polluted["b"];
      polluted["c"] = "x";
      same(JSON.parse('{"a": "x", "b": 1}'));
    } finally {
      delete polluted["b"];
      delete polluted["c"];
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: "x", b: 1 });
    same(bare);
    same(Object.assign(Object.create(null) as Record<string, unknown>, { a: "x" }));
    const inheriting = Object.assign(Object.create({ b: 1 }) as Record<string, unknown>, { a: "x" });
    same(inheriting);
    same(JSON.parse('{"a": "x", "b": 1}'));
  }
});

/**
 * Feeds `instances` to one fused validator, each given a key no other has (a new shape every time, so layouts keep
 * being missed): its verdict must be the plain keywords', and its steps those of a validator that has just been
 * compiled (which lays the keys out). `again` is called after each, with the instance as generated.
 */
function newShapes(
  s: Record<string, unknown>,
  instances: readonly object[],
  again: (fused: ReturnType<typeof compileWith>, spec: ReturnType<typeof compileWith>, i: object) => void = () => {},
): ReturnType<typeof compileWith> {
  const fused = compileWith(dialect2020_12, s);
  const spec = compileWith(plain, s);
  instances.forEach((i, n) => {
    const fresh = Object.assign(Object.create(Object.getPrototypeOf(i) as object) as object, i, { [`n${n}`]: n });
    const { valid, steps } = fused.count(fresh);
    assert.equal(valid, spec.isValid(fresh), JSON.stringify({ s, fresh }));
    assert.equal(steps, compileWith(dialect2020_12, s).count(fresh).steps, JSON.stringify({ s, fresh }));
    again(fused, spec, i);
  });
  return fused;
}

test("objects of ever new shapes get no layouts: the same verdicts and steps, with patterns and closed objects", () => {
  fc.assert(
    fc.property(schema, fc.array(object, { minLength: 80, maxLength: 120 }), (s, instances) => {
      // A shape met before: a kept layout still serves while no new ones are made.
      newShapes(s, instances, (fused, spec, i) => assert.equal(fused.isValid(i), spec.isValid(i), JSON.stringify(i)));
    }),
    { seed: 20261205, numRuns: 60 },
  );
});

test("objects of ever new shapes are read without listing their keys: the same verdicts and steps", () => {
  // Properties and required only (instances can be walked); every instance a new set of keys, so layouts keep
  // being missed and the fusion switches to reading keys one by one as it meets them.
  const walkable = fc.record(
    {
      properties: fc.dictionary(fc.constantFrom(...NAMES), sub, { minKeys: 4, maxKeys: 12 }),
      required: fc.uniqueArray(fc.constantFrom(...NAMES, "zz"), { maxLength: 5 }),
    },
    { requiredKeys: ["properties"] },
  );
  let walked = 0;
  fc.assert(
    fc.property(walkable, fc.array(object, { minLength: 80, maxLength: 120 }), (s, instances) => {
      const fused = newShapes(s, instances);
      const spec = compileWith(plain, s);
      // Reading without a key list either probes the declared names (no own keys asked for) or walks the keys
      // (for…in, which reads the prototype chain: listing own keys never does).
      let prototypeRead = false;
      let keysListed = false;
      const probe = new Proxy(JSON.parse('{"a": 1, "zz": 2}') as object, {
        getPrototypeOf(target) {
          prototypeRead = true;
          return Reflect.getPrototypeOf(target);
        },
        ownKeys(target) {
          keysListed = true;
          return Reflect.ownKeys(target);
        },
      });
      // The boolean path alone: the JSON data check after it, and the verdict fast path, read prototypes too.
      const booleanPath = (fused as unknown as { verdict(instance: unknown): boolean }).verdict(probe);
      assert.equal(booleanPath, spec.isValid(JSON.parse('{"a": 1, "zz": 2}')));
      if (prototypeRead || !keysListed) walked++;
    }),
    { seed: 20261204, numRuns: 60 },
  );
  assert.ok(walked > 50, `${walked} of 60 validators read instances without a key list`);
});
