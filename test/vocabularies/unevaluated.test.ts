/**
 * `unevaluatedProperties` / `unevaluatedItems` settled at compile time (src/engine/evaluate/evaluated.ts, the keywords'
 * `settle`) against the plain marks path: compiled as usual and with settling turned off, every verdict agrees, and
 * agrees with the output path (which always reads marks), on generated schemas whose other keywords are known at
 * compile time (`properties`, `patternProperties`, `additionalProperties`, `prefixItems`, `items`, `allOf`, `$ref`)
 * and schemas with branches (`anyOf`, `oneOf`, `if`, `contains`, `dependentSchemas`) that keep it on marks.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compileWith } from "../../src/engine/compile-with.js";
import type { DialectDefinition } from "../../src/engine/compile/dialect.js";
import type { Evaluator, KeywordDefinition } from "../../src/engine/evaluate/keyword.js";
import { dialect2020_12 } from "../../src/vocabularies/dialect-2020-12.js";

/** The keyword with `settle` turned off: its evaluators always read marks. */
function unsettled(def: KeywordDefinition): KeywordDefinition {
  return {
    ...def,
    compile(value, ctx) {
      const ev = def.compile(value, ctx);
      return ev === undefined ? undefined : (Object.create(ev, { settle: { value: () => false } }) as Evaluator);
    },
  };
}

/** The 2020-12 dialect, counting how many unevaluated keywords settled. */
let settledCount = 0;
function counting(def: KeywordDefinition): KeywordDefinition {
  return {
    ...def,
    compile(value, ctx) {
      const ev = def.compile(value, ctx);
      if (ev === undefined) return undefined;
      const settle = (siblings: readonly Evaluator[]): boolean => {
        const done = ev.settle?.(siblings) === true;
        if (done) settledCount++;
        return done;
      };
      return Object.create(ev, { settle: { value: settle } }) as Evaluator;
    },
  };
}

function withUnevaluated(wrap: (def: KeywordDefinition) => KeywordDefinition): DialectDefinition {
  return {
    ...dialect2020_12,
    vocabularies: dialect2020_12.vocabularies.map((v) =>
      v.uri.endsWith("/unevaluated") ? { ...v, keywords: v.keywords.map(wrap) } : v,
    ),
  };
}

const plainMarks = withUnevaluated(unsettled);
const settling = withUnevaluated(counting);

const leaf = fc.constantFrom<unknown>(true, false, {}, { type: "integer" }, { type: "string" }, { minimum: 1 });
const names = fc.constantFrom("a", "b", "c", "x1", "x2");
const objectPart = fc.record(
  {
    properties: fc.dictionary(names, leaf, { maxKeys: 3 }),
    patternProperties: fc.dictionary(fc.constantFrom("^x", "c$"), leaf, { maxKeys: 1 }),
    additionalProperties: leaf,
    required: fc.uniqueArray(names, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const arrayPart = fc.record(
  { prefixItems: fc.array(leaf, { minLength: 1, maxLength: 3 }), items: leaf },
  { requiredKeys: [] },
);
/** Branches that keep the keyword on marks, one of them at most. */
const dynamic = fc.oneof(
  fc.constant({}),
  fc.tuple(objectPart, objectPart).map(([x, y]) => ({ anyOf: [x, y] })),
  fc.tuple(objectPart, objectPart).map(([x, y]) => ({ oneOf: [x, y] })),
  fc.tuple(objectPart, objectPart).map(([x, y]) => ({ if: x, then: y })),
  fc.tuple(arrayPart).map(([x]) => ({ contains: { type: "integer" }, allOf: [x] })),
  fc.tuple(objectPart).map(([x]) => ({ dependentSchemas: { a: x } })),
  // Branches that evaluate nothing: known at compile time after all.
  fc.constant({ anyOf: [{ type: "object" }, { minProperties: 1 }] }),
);
const schema = fc
  .tuple(
    objectPart,
    arrayPart,
    fc.array(fc.oneof(objectPart, arrayPart), { maxLength: 2 }),
    dynamic,
    fc.boolean(),
    fc.constantFrom<unknown>(false, { type: "integer" }, true),
    fc.constantFrom<unknown>(false, { type: "string" }),
  )
  .map(([own, items, allOf, branch, viaRef, unevaluatedProperties, unevaluatedItems]) => {
    const inner: Record<string, unknown> = { ...own, ...items, ...branch };
    if (allOf.length > 0) inner["allOf"] = [...((inner["allOf"] as unknown[]) ?? []), ...allOf];
    const base = viaRef ? { $defs: { inner }, $ref: "#/$defs/inner" } : inner;
    return { ...base, unevaluatedProperties, unevaluatedItems };
  });
const value = fc.constantFrom<unknown>(0, 1, 2, "s", null, 1.5, true);
const instance = fc.oneof(
  fc.dictionary(fc.constantFrom("a", "b", "c", "x1", "x2", "zz"), value, { maxKeys: 5 }),
  fc.array(value, { maxLength: 5 }),
  value,
);

test("settled at compile time or read from marks: the same verdicts on both paths", () => {
  settledCount = 0;
  fc.assert(
    fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 4 }), (s, instances) => {
      const settled = compileWith(settling, s);
      const marks = compileWith(plainMarks, s);
      for (const i of instances) {
        const verdict = marks.isValid(i);
        assert.equal(settled.isValid(i), verdict, JSON.stringify({ s, i }));
        assert.equal(settled.validate(i).valid, verdict, JSON.stringify({ s, i }));
      }
    }),
    { seed: 20261203, numRuns: 3000 },
  );
  assert.ok(settledCount > 2000, `${settledCount} unevaluated keywords settled at compile time`);
});

test("what settles and what does not", () => {
  const cases: [unknown, boolean][] = [
    [{ properties: { a: {} }, unevaluatedProperties: false }, true],
    [{ allOf: [{ properties: { a: {} } }, { patternProperties: { "^x": {} } }], unevaluatedProperties: false }, true],
    [{ $defs: { d: { properties: { a: {} } } }, $ref: "#/$defs/d", unevaluatedProperties: false }, true],
    [{ anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }], unevaluatedProperties: false }, false],
    [{ anyOf: [{ type: "object" }, { required: ["a"] }], unevaluatedProperties: false }, true],
    [{ prefixItems: [{}], unevaluatedItems: false }, true],
    [{ contains: {}, unevaluatedItems: false }, false],
    // A recursive reference: what it evaluates is not known while it compiles.
    [
      { $id: "urn:r", properties: { a: { $ref: "urn:r" } }, allOf: [{ $ref: "urn:r" }], unevaluatedProperties: false },
      false,
    ],
  ];
  for (const [s, expected] of cases) {
    settledCount = 0;
    compileWith(settling, s);
    assert.equal(settledCount > 0, expected, JSON.stringify(s));
  }
});
