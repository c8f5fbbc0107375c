/**
 * The objectMembers fusion (src/vocabularies/applicator/object-members.ts) against its specification, the plain
 * `properties`, `patternProperties` and `additionalProperties`: compiled with and without the fusion, every verdict
 * agrees, with evaluated marks read by `unevaluatedProperties` too, and with the output path.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compileWith } from "../../../src/engine/compile.js";
import { dialect2020_12 } from "../../../src/vocabularies/dialect-2020-12.js";
import { objectMembers } from "../../../src/vocabularies/applicator/object-members.js";

const plain = { ...dialect2020_12, fusions: [] };
const NAMES = ["a", "ab", "x1", "__proto__", "toString"];
const sub = fc.oneof(
  fc.constant(true),
  fc.constant(false),
  fc.constant({}),
  fc.constant({ type: "integer" }),
  fc.constant({ type: "string" }),
  fc.constant({ minimum: 2 }),
);
const schema = fc.record(
  {
    properties: fc.dictionary(fc.constantFrom(...NAMES), sub, { maxKeys: 4 }),
    patternProperties: fc.dictionary(fc.constantFrom("^a", "1$", "o"), sub, { maxKeys: 2 }),
    additionalProperties: sub,
    unevaluatedProperties: fc.constantFrom(false, { type: "integer" }),
    required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom("s", 1.5, null, [], {}));
const instance = fc.oneof(
  fc.dictionary(fc.constantFrom(...NAMES, "zz", "x9"), value, { maxKeys: 5 }).map((o) => JSON.parse(JSON.stringify(o))),
  value,
);

test("the dialect lists the fusion", () => {
  assert.deepEqual(dialect2020_12.fusions, [objectMembers]);
});

test("fused and plain boolean paths agree, and agree with the output path", () => {
  fc.assert(
    fc.property(schema, instance, (s, i) => {
      const fused = compileWith(dialect2020_12, s);
      const spec = compileWith(plain, s);
      const verdict = spec.isValid(i);
      assert.equal(fused.isValid(i), verdict, JSON.stringify({ s, i }));
      assert.equal(fused.validate(i).valid, verdict);
    }),
    { seed: 20261202, numRuns: 2000 },
  );
});

test("__proto__ in the instance is data, whether declared or matched or additional", () => {
  const s = JSON.parse('{"properties": {"__proto__": {"type": "integer"}}, "additionalProperties": false}');
  const v = compileWith(dialect2020_12, s);
  assert.equal(v.isValid(JSON.parse('{"__proto__": 1}')), true);
  assert.equal(v.isValid(JSON.parse('{"__proto__": "x"}')), false);
  assert.equal(v.isValid({}), true, "an inherited prototype is not a property");
});
