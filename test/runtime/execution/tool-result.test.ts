/** checkToolResult: a dispatch's value read as an MCP CallToolResult against a compiled output schema. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { OutputSchema } from "../../../src/index.js";
import { checkToolResult } from "../../../src/runtime/execution/tool-result.js";

const compiled = (() => {
  const r = OutputSchema.validateSchema({ type: "array", items: { type: "integer" } });
  assert.ok(r.ok);
  return r.value;
})();

test("a valid result is the very same object; structuredContent of any JSON type is checked", () => {
  const result = { content: [], structuredContent: [1, 2] };
  const r = checkToolResult(result, compiled);
  assert.ok(r.ok);
  assert.equal(r.value, result);
  const bad = checkToolResult({ content: [], structuredContent: [1, "2"] }, compiled);
  assert.equal(bad.ok, false);
  const e = (bad as { ok: false; error: { code: string; instancePointer?: string } }).error;
  assert.deepEqual([e.code, e.instancePointer], ["output_invalid", "/1"]);
});

test("only an own isError: true waives the check; JSON.parse'd __proto__ keys are data", () => {
  assert.equal(checkToolResult({ isError: true }, compiled).ok, true);
  assert.equal(checkToolResult(Object.create({ isError: true }), compiled).ok, false);
  const parsed = JSON.parse('{"__proto__": {"isError": true}, "content": []}') as unknown;
  assert.equal(checkToolResult(parsed, compiled).ok, false, "a __proto__ field does not make a tool error");
});

test("non-objects and results without structuredContent are output_invalid", () => {
  for (const result of [null, 1, "text", [], { content: [] }, { structuredContent: undefined }]) {
    const r = checkToolResult(result, compiled);
    assert.equal(r.ok, false, JSON.stringify(result));
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "output_invalid");
  }
});

test("a tool error's structuredContent is checked when present (as the SDK clients check it); absent, it passes", () => {
  assert.equal(checkToolResult({ isError: true, content: [] }, compiled).ok, true);
  assert.equal(checkToolResult({ isError: true, content: [], structuredContent: [1, 2] }, compiled).ok, true);
  const bad = checkToolResult({ isError: true, content: [], structuredContent: [1, "secret"] }, compiled);
  assert.equal(bad.ok, false);
  const e = (bad as { ok: false; error: { code: string; instancePointer?: string } }).error;
  assert.deepEqual([e.code, e.instancePointer], ["output_invalid", "/1"]);
});
