/** What admission says of a descriptor names the field and the value's kind; `digest` only ever rejects. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolCatalog } from "../../../src/index.js";

const refused = (tool: Record<string, unknown>) => {
  const r = ToolCatalog.admitBatch([tool]);
  if (r.ok) assert.fail("expected a refusal");
  return r.error;
};

test("a revision that is not a string is named as such, not as missing", () => {
  const e = refused({ name: "t", revision: 1, inputSchema: { type: "object" } });
  assert.equal(e.code, "tool_revision_missing");
  assert.match(e.message, /a revision that is not a non-empty string \(1\)/);
  assert.match(refused({ name: "t", inputSchema: { type: "object" } }).message, /has no revision/);
});

test("Anthropic's input_schema spelling is named, with MCP's name for it", () => {
  const e = refused({ name: "t", revision: "1", input_schema: { type: "object" } });
  assert.equal(e.code, "tool_invalid");
  assert.match(e.message, /has no inputSchema \(it has "input_schema": MCP spells the field inputSchema\)/);
  assert.doesNotMatch(e.message, /undefined/);
  assert.match(refused({ name: "t", revision: "1" }).message, /has no inputSchema$/);
});

test("execution.taskSupport must be one of MCP's values", () => {
  const e = refused({
    name: "t",
    revision: "1",
    inputSchema: { type: "object" },
    execution: { taskSupport: "always" },
  });
  assert.equal(e.code, "tool_invalid");
  assert.match(e.message, /execution\.taskSupport "always"/);
});

test("ToolCatalog.digest never throws: whatever it is given, it returns a promise, which rejects", async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const cyclic: Record<string, unknown> = { name: "t", inputSchema: { type: "object" } };
  cyclic["self"] = cyclic;
  for (const given of ["x", null, undefined, 5, proxy, cyclic, { name: "t", x: () => 1 }]) {
    let promise: Promise<string> | undefined;
    assert.doesNotThrow(() => (promise = ToolCatalog.digest(given)));
    await assert.rejects(promise as Promise<string>);
  }
  await assert.rejects(ToolCatalog.digest({ name: "t" }, { maxSchemaBytes: -1 }), { code: "options_invalid" });
});

test("an optional MCP field set to undefined is absent, as an SDK 2.x client lists tools", () => {
  const listed = {
    name: "t",
    revision: "1",
    inputSchema: { type: "object" },
    title: undefined,
    annotations: undefined,
    execution: undefined,
    _meta: undefined,
  };
  const r = ToolCatalog.admitBatch([listed]);
  assert.ok(r.ok);
  assert.deepEqual(Object.keys(r.value.tools[0] ?? {}), ["name", "inputSchema"]);
});
