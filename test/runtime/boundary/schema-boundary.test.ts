/** The boundary InputSchema and OutputSchema share: one implementation, two policies. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { CompiledInputSchema, CompiledOutputSchema, InputSchema, OutputSchema } from "../../../src/index.js";
import { CompiledSchema } from "../../../src/runtime/boundary/schema-boundary.js";

test("both compiled kinds are the one boundary class, with the same validate", () => {
  const input = InputSchema.validateSchema({ type: "object" });
  const output = OutputSchema.validateSchema({ type: "object" });
  assert.ok(input.ok && output.ok);
  assert.ok(input.value instanceof CompiledInputSchema && input.value instanceof CompiledSchema);
  assert.ok(output.value instanceof CompiledOutputSchema && output.value instanceof CompiledSchema);
  assert.equal(Object.getPrototypeOf(CompiledInputSchema.prototype), CompiledSchema.prototype);
  assert.equal(Object.getPrototypeOf(CompiledOutputSchema.prototype), CompiledSchema.prototype);
  assert.ok(!Object.hasOwn(CompiledInputSchema.prototype, "validate"));
  assert.ok(!Object.hasOwn(CompiledOutputSchema.prototype, "validate"));
  assert.ok(Object.isFrozen(input.value) && Object.isFrozen(output.value));
});

test("the policies differ only in the root rule, the value rule and the wording", () => {
  const args = InputSchema.validate({ type: "object", required: ["a"] }, {});
  const result = OutputSchema.validate({ type: "object", required: ["a"] }, {});
  assert.ok(!args.ok && !result.ok);
  assert.equal(args.error.code, "arguments_invalid");
  assert.equal(result.error.code, "output_invalid");
  assert.deepEqual(args.error.errors, result.error.errors, "the same basic-output errors");
  assert.match(args.error.message, /^arguments do not match the input schema/);
  assert.match(result.error.message, /^the result does not match the output schema/);
  assert.equal(InputSchema.validate({}, 1).ok, false, "arguments must be an object");
  assert.equal(OutputSchema.validate({}, 1).ok, true, "a result may be any JSON value");
});
