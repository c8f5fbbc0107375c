/**
 * Property tests over generated 2020-12 schemas and edge-biased instances (test/fuzz/arbitraries.ts).
 * Seeded, so CI is deterministic; `npm run fuzz` runs the same checks with a random seed for longer.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { compile } from "../../src/index.js";
import { caseArb, poolOf, rootSchema } from "./arbitraries.js";
import { checkCase, formatProblems, type ProblemKind } from "./checks.js";

const RUNS = 1000;

function holds(kinds: readonly ProblemKind[], seed: number): void {
  fc.assert(
    fc.property(caseArb(), (c) => {
      const { problems } = checkCase(c);
      const relevant = problems.filter((p) => kinds.includes(p.kind));
      if (relevant.length > 0) assert.fail(formatProblems(c, relevant));
    }),
    { seed, numRuns: RUNS, includeErrorInReport: true },
  );
}

describe("generated schemas", () => {
  test("the generators produce schemas that compile and instances that split both ways", () => {
    let compiled = 0;
    let valid = 0;
    let invalid = 0;
    for (const c of fc.sample(caseArb(), { seed: 7, numRuns: 300 })) {
      const { result } = checkCase(c);
      if (result.compiled) compiled++;
      for (const v of result.verdicts)
        if (v === true) valid++;
        else if (v === false) invalid++;
    }
    assert.ok(compiled >= 290, `only ${compiled} of 300 generated schemas compiled`);
    assert.ok(valid > 100 && invalid > 100, `verdicts too one-sided: ${valid} valid, ${invalid} invalid`);
  });

  test("every keyword family appears in the generated schemas", () => {
    const seen = new Set<string>();
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v !== null && typeof v === "object") {
        for (const k of Object.keys(v)) {
          seen.add(k);
          visit((v as Record<string, unknown>)[k]);
        }
      }
    };
    fc.sample(rootSchema(), { seed: 11, numRuns: 500 }).forEach(visit);
    const expected = [
      "type",
      "enum",
      "const",
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
      "minLength",
      "maxLength",
      "pattern",
      "items",
      "prefixItems",
      "contains",
      "minContains",
      "maxContains",
      "minItems",
      "maxItems",
      "uniqueItems",
      "properties",
      "patternProperties",
      "additionalProperties",
      "propertyNames",
      "required",
      "dependentRequired",
      "dependentSchemas",
      "allOf",
      "anyOf",
      "oneOf",
      "not",
      "if",
      "then",
      "else",
      "unevaluatedProperties",
      "unevaluatedItems",
      "$defs",
      "$ref",
      "$anchor",
      "$dynamicAnchor",
      "$dynamicRef",
      "$id",
      "minProperties",
      "maxProperties",
    ];
    assert.deepEqual(
      expected.filter((k) => !seen.has(k)),
      [],
    );
  });

  test("instances are drawn from the schema's own values", () => {
    const pool = poolOf({
      properties: { foo: { const: [1, { b: 2 }] }, bar: { minLength: 2, pattern: "^a" } },
      required: ["qux"],
    });
    assert.ok(pool.names.includes("foo") && pool.names.includes("qux") && pool.names.includes("b"));
    assert.ok(pool.strings.includes("ab") && pool.strings.includes("😀😀😀"));
    assert.ok(pool.values.some((v) => Array.isArray(v)));
  });
});

describe("properties", () => {
  test("(a) compile throws only SchemaError; isValid/validate/annotations throw nothing but a limit", () => {
    holds(["unexpected_exception"], 20260101);
  });

  test("(b) isValid agrees with every output format, and invalid outputs carry an error message", () => {
    holds(["output_disagreement"], 20260102);
  });

  test("(c) compiled validators never mutate the (deep-frozen) schema or instance", () => {
    holds(["mutation", "unexpected_exception"], 20260103);
  });

  test("(d) annotations() is [] when the instance is invalid", () => {
    holds(["annotations"], 20260104);
  });
});

describe("regressions found by the fuzz", () => {
  // Found at 0f8b883: the detailed output of a valid anyOf/oneOf with a failing branch collapsed to that
  // branch's error unit ({ valid: false, keywordLocation: "/anyOf/1/const" }). Core §12.4: every format is a
  // view of the same result; the root unit's "valid" is the overall verdict.
  for (const [schema, instance] of [
    [{ anyOf: [{}, { const: true }] }, 1],
    [{ anyOf: [{}, { maxProperties: 0 }] }, { a: true }],
    [{ oneOf: [{}, { const: true }] }, 1],
  ] as const) {
    test(`detailed/verbose output of a valid ${Object.keys(schema)[0]} with a failing branch is valid: ${JSON.stringify(schema)}`, () => {
      const v = compile(schema);
      assert.equal(v.isValid(instance), true);
      for (const output of ["flag", "basic", "detailed", "verbose"] as const)
        assert.equal(v.validate(instance, { output }).valid, true, output);
    });
  }
});
