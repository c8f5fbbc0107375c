/**
 * The gateway's own JSON-RPC message check judges every message as the MCP SDK 1.x's `JSONRPCMessageSchema` does:
 * the messages MCP sends, each member broken in turn, and every combination of members from a pool of values.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { isJsonRpcMessage } from "../../../src/cli/gateway/transport/jsonrpc.js";

const sdk = (value: unknown) => JSONRPCMessageSchema.safeParse(value).success;

const WELL_FORMED: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "x" } } },
  { jsonrpc: "2.0", id: "a", method: "tools/list" },
  { jsonrpc: "2.0", id: 0, method: "x", params: { _meta: { progressToken: "t" } } },
  {
    jsonrpc: "2.0",
    id: 2,
    method: "x",
    params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 3, progress: 1 } },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 1, result: { content: [], _meta: { other: 1 } } },
  { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad" } },
  { jsonrpc: "2.0", error: { code: -32700, message: "parse error", data: [1] } },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m", extra: true } },
];

/** Values each member is tried with. */
const POOL: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 53,
  1e300,
  "",
  "s",
  true,
  [],
  [1],
  {},
  { _meta: {} },
  { _meta: null },
  { _meta: [] },
  { _meta: { progressToken: 1 } },
  { _meta: { progressToken: 1.5 } },
  { _meta: { progressToken: null } },
  { _meta: { "io.modelcontextprotocol/related-task": {} } },
  { _meta: { "io.modelcontextprotocol/related-task": { taskId: 1 } } },
  { code: 1, message: "m" },
  { code: 1.5, message: "m" },
  { code: 2 ** 53, message: "m" },
  { code: 1 },
  { message: "m" },
  { code: 1, message: 2 },
];

const MEMBERS = ["jsonrpc", "id", "method", "params", "result", "error"] as const;
const VALUES: Record<(typeof MEMBERS)[number], unknown[]> = {
  jsonrpc: [undefined, "2.0", "1.0", 2],
  id: [undefined, 1, "a", 1.5, null, 2 ** 53, -3],
  method: [undefined, "m", 1, null],
  params: [undefined, {}, { _meta: { progressToken: 1.5 } }, { _meta: [] }, [], null, 1],
  result: [undefined, {}, { _meta: { progressToken: "t" } }, { _meta: null }, [], null, "r"],
  error: [undefined, { code: 1, message: "m" }, { code: 1.5, message: "m" }, { message: "m" }, {}, null],
};

function* combinations(): Generator<Record<string, unknown>> {
  const pick = (i: number, into: Record<string, unknown>): Record<string, unknown>[] => {
    if (i === MEMBERS.length) return [into];
    const member = MEMBERS[i] as (typeof MEMBERS)[number];
    return VALUES[member].flatMap((value) => pick(i + 1, value === undefined ? into : { ...into, [member]: value }));
  };
  yield* pick(0, {});
}

describe("isJsonRpcMessage judges as the SDK's JSONRPCMessageSchema", () => {
  test("the messages MCP sends are messages", () => {
    for (const message of WELL_FORMED) {
      assert.equal(sdk(message), true, JSON.stringify(message));
      assert.equal(isJsonRpcMessage(message), true, JSON.stringify(message));
    }
  });

  test("each member of each message changed, removed, or a member added", () => {
    let judged = 0;
    for (const message of WELL_FORMED as Record<string, unknown>[]) {
      for (const member of [...Object.keys(message), "extra", "__proto__"]) {
        for (const value of POOL) {
          const changed = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
          if (value === undefined) delete changed[member];
          else Object.defineProperty(changed, member, { value, enumerable: true, writable: true, configurable: true });
          assert.equal(isJsonRpcMessage(changed), sdk(changed), `${member} = ${JSON.stringify(value)}`);
          judged++;
        }
      }
    }
    assert.ok(judged > 1_500, `${judged} judged`);
  });

  test("every combination of the members' values", () => {
    let agreed = 0;
    let messages = 0;
    for (const value of combinations()) {
      const expected = sdk(value);
      assert.equal(isJsonRpcMessage(value), expected, JSON.stringify(value));
      agreed++;
      if (expected) messages++;
    }
    assert.ok(agreed > 20_000, `${agreed} combinations`);
    assert.ok(messages >= 18, `${messages} of them messages`);
  });

  test("what is not an object is not a message", () => {
    for (const value of [null, undefined, 1, "x", [], [{ jsonrpc: "2.0", method: "m" }]]) {
      assert.equal(isJsonRpcMessage(value), false);
      assert.equal(sdk(value), false);
    }
  });
});
