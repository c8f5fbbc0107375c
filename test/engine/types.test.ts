/**
 * Typed results: `compile<T>` narrows with `isValid`, `validate` narrows on `valid`, the boundary's Results carry
 * `T`. This file is type-checked with `strict` by `tsc -p tsconfig.test.json`; each `@ts-expect-error` below fails
 * the build if the line it marks ever type-checks, so the negative cases are tested too.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile, InputSchema, OutputSchema, type FlagOutput, type ValidationOutput } from "../../src/index.js";

interface Search {
  q: string;
  limit?: number;
}

const schema = {
  type: "object",
  properties: { q: { type: "string" }, limit: { type: "integer" } },
  required: ["q"],
};

test("isValid is a type guard for the declared type", () => {
  const validator = compile<Search>(schema);
  const input: unknown = JSON.parse('{ "q": "weather" }');
  // @ts-expect-error an unknown value has no q before it is checked
  void input.q;
  if (!validator.isValid(input)) assert.fail("valid");
  const q: string = input.q;
  assert.equal(q, "weather");
  const untyped = compile(schema);
  const other: unknown = 1;
  if (untyped.isValid(other)) {
    // @ts-expect-error without T the guard narrows to unknown
    void other.q;
  }
});

test("validate narrows on valid: an invalid output always lists its errors, a flag output has none", () => {
  const validator = compile<Search>(schema);
  const out: ValidationOutput = validator.validate({ q: 1 });
  if (out.valid) {
    const none: undefined = out.errors;
    assert.equal(none, undefined);
    assert.fail("invalid");
  }
  const first: string | undefined = out.errors[0]?.error;
  assert.match(first ?? "", /must be string/);
  for (const output of ["detailed", "verbose"] as const) {
    const tree = validator.validate({}, { output });
    assert.equal(tree.valid, false);
    if (!tree.valid) assert.ok(tree.errors.length > 0, output);
  }
  const flag: FlagOutput = validator.validate({}, { output: "flag" });
  // @ts-expect-error the flag format has no errors
  void flag.errors;
  assert.deepEqual(flag, { valid: false });
});

test("the boundary's Results carry the declared type; arguments default to a JSON object", () => {
  const compiled = InputSchema.validateSchema<Search>(schema);
  assert.ok(compiled.ok);
  const checked = compiled.value.validate(JSON.parse('{ "q": "x", "limit": 2 }'));
  if (!checked.ok) assert.fail(checked.error.message);
  const limit: number | undefined = checked.value.limit;
  assert.equal(limit, 2);
  const loose = InputSchema.validate(schema, { q: "x" });
  if (loose.ok) {
    const value: Record<string, unknown> = loose.value;
    assert.equal(value["q"], "x");
  }
  const result = OutputSchema.validate<number[]>({ type: "array", items: { type: "integer" } }, [1, 2]);
  if (!result.ok) assert.fail(result.error.message);
  const sum: number = result.value.reduce((a, b) => a + b, 0);
  assert.equal(sum, 3);
});
