/**
 * The call object is checked like the host object: a misspelt field is refused with the name MCP gives it, a name
 * that is not a string is refused, and a revoked Proxy as the call, the arguments or the host is the caller's error
 * (`call_invalid`, `arguments_invalid`, `options_invalid`), never the gateway's own (`validator_failed`).
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { Execution, ToolCatalog, type ExecutionError, type ToolCall } from "../../../src/index.js";

const admitted = ToolCatalog.admitBatch([
  { name: "t", revision: "1", inputSchema: { type: "object", properties: { x: { type: "integer" } } } },
]);
assert.ok(admitted.ok);
const bundle = admitted.value;

async function refusal(call: unknown, host: unknown = { dispatch: () => "ran" }): Promise<ExecutionError> {
  const r = await Execution.invoke(bundle, call as ToolCall, host as { dispatch: () => unknown });
  if (r.ok) assert.fail(`expected a refusal, got ${String(r.value)}`);
  return r.error;
}

test("a misspelt field of the call is refused before anything runs, naming MCP's field", async () => {
  let ran = 0;
  const host = { dispatch: () => ran++ };
  const args = await refusal({ name: "t", args: { x: 1 } }, host);
  assert.deepEqual([args.code, args.stage], ["call_invalid", "lookup"]);
  assert.match(args.message, /unknown Execution\.invoke call field "args".*MCP calls it "arguments"/);
  const tool = await refusal({ tool: "t" }, host);
  assert.equal(tool.code, "call_invalid");
  assert.match(tool.message, /"tool".*MCP calls it "name"/);
  assert.doesNotMatch(tool.message, /undefined/);
  assert.equal(ran, 0);
});

test("a name that is not a string is call_invalid; MCP's other params fields are accepted", async () => {
  assert.equal((await refusal({ name: 7 })).code, "call_invalid");
  assert.equal((await refusal({})).code, "call_invalid");
  const r = await Execution.invoke(
    bundle,
    { name: "t", arguments: { x: 1 }, _meta: { progressToken: 1 } } as ToolCall,
    { dispatch: () => "ran" },
  );
  assert.ok(r.ok);
});

test("a revoked Proxy as the call, the arguments or the host is the caller's error, not the gateway's", async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal((await refusal(proxy)).code, "call_invalid");
  const args = await refusal({ name: "t", arguments: proxy });
  assert.deepEqual([args.code, args.stage], ["arguments_invalid", "arguments"]);
  assert.equal((await refusal({ name: "t", arguments: { x: proxy } })).code, "arguments_invalid");
  const host = await refusal({ name: "t", arguments: {} }, proxy);
  assert.deepEqual([host.code, host.stage], ["options_invalid", "host"]);
});
