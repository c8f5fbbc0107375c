/** Values that are not JSON data: one rule at every entry point — compile, Standard Schema, the provider, the boundary. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile, InputSchema, OutputSchema } from "../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";

const cases: [string, Record<string, unknown>, unknown][] = [
  ["NaN", { type: "number" }, NaN],
  ["Infinity", { type: "number" }, Infinity],
  ["undefined under a required name", { type: "object", required: ["a"] }, { a: undefined }],
  ["a Date", { type: "object" }, new Date(0)],
  ["a Map", { type: "object" }, new Map()],
  ["NaN under {}", { type: "object", properties: { a: {} } }, { a: NaN }],
];

for (const [what, schema, value] of cases) {
  test(`${what} is invalid everywhere`, async () => {
    const validator = compile(schema);
    assert.equal(validator.isValid(value), false, "compile isValid");
    assert.equal(validator.validate(value).valid, false, "compile validate");
    const standard = await validator["~standard"].validate(value);
    assert.ok(standard.issues !== undefined && standard.issues.length > 0, "Standard Schema");
    const provider = new BackplaneJsonSchemaValidator().getValidator(schema)(value);
    assert.equal(provider.valid, false, "the MCP provider");
    assert.doesNotMatch(provider.errorMessage ?? "", /NaN|Infinity|1970/, "the provider names no value");
    assert.equal(OutputSchema.validate(schema, value).ok, false, "OutputSchema");
    if (schema["type"] === "object") assert.equal(InputSchema.validate(schema, value).ok, false, "InputSchema");
  });
}
