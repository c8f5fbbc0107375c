/**
 * How often the boundary evaluates a value (docs/reference/limits.md): valid values once (the boolean path), invalid
 * ones twice (then one output pass), and a limit is located without a third evaluation: the boolean path, then at most
 * one output pass. Evaluations are counted at the `Validator` methods every pass goes through: `isValid` and `evaluate`,
 * and their forms for an instance already checked as JSON data, which the boundary calls (counted under the same names).
 */

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { InputSchema, OutputSchema, Validator, type InputSchemaOptions } from "../../../src/index.js";

const passes: string[] = [];
const originals = new Map<string, unknown>();

/** Each counted method and the pass it is (`isValid` is a bound closure calling `verdictOf`: counted there). */
const METHODS = [
  ["verdictOf", "isValid"],
  ["isValidChecked", "isValid"],
  ["evaluate", "evaluate"],
  ["evaluateChecked", "evaluate"],
] as const;

before(() => {
  for (const [method, pass] of METHODS) {
    const original = Validator.prototype[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    (Validator.prototype as unknown as Record<string, unknown>)[method] = function (this: Validator, ...a: unknown[]) {
      passes.push(pass);
      return original.apply(this, a);
    };
  }
});
after(() => {
  for (const [method, original] of originals)
    (Validator.prototype as unknown as Record<string, unknown>)[method] = original;
});

/** The evaluations one `validate` of `value` makes, after compiling. */
function evaluations(
  boundary: typeof InputSchema | typeof OutputSchema,
  schema: unknown,
  value: unknown,
  options: InputSchemaOptions = {},
): { passes: string[]; code?: string; instancePointer?: string; schemaPointer?: string; modelText?: string } {
  const compiled = boundary.validateSchema(schema, options);
  assert.ok(compiled.ok, compiled.ok ? "" : compiled.error.message);
  passes.length = 0;
  const r = compiled.value.validate(value);
  const seen = [...passes];
  return r.ok
    ? { passes: seen }
    : {
        passes: seen,
        code: r.error.code,
        modelText: r.error.toModelText(),
        ...(r.error.instancePointer === undefined ? {} : { instancePointer: r.error.instancePointer }),
        ...(r.error.schemaPointer === undefined ? {} : { schemaPointer: r.error.schemaPointer }),
      };
}

const items = { type: "object", properties: { a: { type: "array", items: { type: "number" } } } };
const steps = { limits: { maxEvaluationSteps: 1_000 } };

for (const boundary of [InputSchema, OutputSchema]) {
  const name = boundary === InputSchema ? "InputSchema" : "OutputSchema";
  describe(`${name}: at most one output pass after the boolean path`, () => {
    test("a valid value: the boolean path only", () => {
      assert.deepEqual(evaluations(boundary, items, { a: [1, 2] }).passes, ["isValid"]);
    });
    test("an invalid value: the boolean path, then one output pass", () => {
      const r = evaluations(boundary, items, { a: [1, "x"] });
      assert.deepEqual(r.passes, ["isValid", "evaluate"]);
      assert.equal(r.instancePointer, "/a/1");
    });
    test("a limit the boolean path hits: located by the one output pass", () => {
      const r = evaluations(boundary, items, { a: Array(3_000).fill(1) }, steps);
      assert.deepEqual(r.passes, ["isValid", "evaluate"]);
      assert.equal(r.code, "limit_exceeded");
      assert.equal(r.instancePointer, "/a");
    });
    test("a limit hit inside a regular-expression match: located by the one output pass", () => {
      const words = { type: "object", properties: { w: { type: "array", items: { pattern: "^(a|b)*c$" } } } };
      const w = ["abc", "ac", "a".repeat(5_000), "bc"];
      const r = evaluations(boundary, words, { w }, { limits: { maxRegexSteps: 1_000 } });
      assert.deepEqual(r.passes, ["isValid", "evaluate"]);
      assert.equal(r.code, "limit_exceeded");
      assert.equal(r.instancePointer, "/w/2");
      assert.equal(r.schemaPointer, "/properties/w/items/pattern");
    });
    test("a reference loop under not and anyOf: located by the one output pass", () => {
      const loop = { type: "object", properties: { a: { not: { anyOf: [{ $ref: "#/properties/a" }] } } } };
      const r = evaluations(boundary, loop, { a: 1 });
      assert.deepEqual(r.passes, ["isValid", "evaluate"]);
      assert.equal(r.code, "limit_exceeded");
    });
    test("an invalid value whose output alone exceeds a limit: still two passes, the verdict stands", () => {
      const schema = {
        type: "object",
        properties: { b: { type: "string" }, a: { type: "array", items: { type: "number", minimum: 0 } } },
      };
      const r = evaluations(boundary, schema, { b: 1, a: Array(3_000).fill(1) }, steps);
      assert.deepEqual(r.passes, ["isValid", "evaluate"]);
      assert.equal(r.code, boundary === InputSchema ? "arguments_invalid" : "output_invalid");
      assert.match(
        r.modelText ?? "",
        boundary === InputSchema
          ? /^The arguments do not match the tool's input schema\.$/
          : /^The tool's result does not match its output schema\.$/,
      );
    });
  });
}
