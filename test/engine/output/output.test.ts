/** Output limits: the output path may need more steps than the boolean path; the verdict still stands. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile } from "../../../src/index.js";

const many = Array.from({ length: 20 }, (_, i) => ({ minimum: i + 1 }));

test("a valid verdict whose full output exceeds maxEvaluationSteps is reported without itemising", () => {
  const v = compile({ anyOf: [true, { allOf: many }] }, { limits: { maxEvaluationSteps: 5 } });
  assert.equal(v.isValid(0), true);
  for (const output of ["basic", "detailed", "verbose"] as const) {
    assert.deepEqual(v.validate(0, { output }), { valid: true, keywordLocation: "", instanceLocation: "" });
  }
  assert.throws(
    () => v.annotations(0),
    /maxEvaluationSteps/,
    "annotations cannot be listed: a limit, never a silent empty list",
  );
});

test("an invalid verdict whose full output exceeds maxEvaluationSteps says why it is not itemised", () => {
  const v = compile({ anyOf: [{ type: "string" }, { allOf: many }] }, { limits: { maxEvaluationSteps: 5 } });
  assert.equal(v.isValid(0), false);
  const out = v.validate(0);
  assert.equal(out.valid, false);
  assert.match(out.errors?.[0]?.error ?? "", /not itemised because producing it exceeds maxEvaluationSteps \(5\)/);
  assert.deepEqual(v.annotations(0), []);
});

test("a limit the boolean path hits is still thrown by every entry point", () => {
  const v = compile({ $ref: "#" });
  for (const call of [
    () => v.isValid(1),
    () => v.validate(1),
    () => v.validate(1, { output: "flag" }),
    () => v.annotations(1),
  ]) {
    assert.throws(call, (e: unknown) => (e as { class?: string }).class === "execution_failure");
  }
});
