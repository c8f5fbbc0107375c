/** One `format` default at the boundary and in the MCP provider: asserted unless the host says otherwise. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { Execution, InputSchema, OutputSchema, ToolCatalog } from "../../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../../src/adapters/mcp.js";

const schema = { type: "object", properties: { url: { type: "string", format: "uri" } } };
const bad = { url: "not a url" };

test("InputSchema and OutputSchema assert format by default; formatAssertion: false makes it an annotation", () => {
  const input = InputSchema.validate(schema, bad);
  assert.equal(input.ok, false);
  assert.equal(!input.ok && input.error.code, "arguments_invalid");
  assert.equal(OutputSchema.validate(schema, bad).ok, false);
  assert.equal(InputSchema.validate(schema, bad, { formatAssertion: false }).ok, true);
  assert.equal(OutputSchema.validate(schema, bad, { formatAssertion: false }).ok, true);
  assert.equal(InputSchema.validate(schema, { url: "https://example.com/a" }).ok, true);
});

test("admission and Execution.invoke assert format by default, so the call never reaches dispatch", async () => {
  const admitted = ToolCatalog.admitBatch([{ name: "fetch", revision: "1", inputSchema: schema }]);
  assert.ok(admitted.ok);
  let dispatched = 0;
  const result = await Execution.invoke(
    admitted.value,
    { name: "fetch", arguments: bad },
    { dispatch: () => dispatched++ },
  );
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, "arguments_invalid");
  assert.equal(dispatched, 0);
});

test("the MCP provider gives the boundary's verdicts by default and with formatAssertion: false", () => {
  for (const formatAssertion of [undefined, false]) {
    const options = formatAssertion === undefined ? {} : { formatAssertion };
    const provider = new BackplaneJsonSchemaValidator(options).getValidator(schema as never);
    const boundary = InputSchema.validate(schema, bad, options);
    assert.equal(provider(bad).valid, boundary.ok, `formatAssertion ${String(formatAssertion)}`);
  }
});
