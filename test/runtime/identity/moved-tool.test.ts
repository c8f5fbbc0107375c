/** The server a tool runs on is part of what a host reviewed: a tool moved to another backend is a changed tool. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { Conversation, ToolCatalog } from "../../../src/index.js";

const search = (backend: string) => ({
  name: "search",
  revision: "r1",
  backend,
  description: "Searches the index.",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});
const backends = ["trusted", "other"];
const authority = { caller: "u", grants: { search: { scope: "read" } } };

test("admitBatch: the same definition served from another listed backend differs from its pin at /backend", () => {
  const first = ToolCatalog.admitBatch([search("trusted")], { backends });
  assert.ok(first.ok);
  const moved = ToolCatalog.admitBatch([search("other")], { backends, pins: first.value.pins });
  assert.equal(!moved.ok && moved.error.code, "tool_changed");
  assert.deepEqual(!moved.ok && moved.error.fields, ["/backend"]);
});

test("a conversation holds the moved tool without its grant, and its calls never reach the other server", async () => {
  const conversation = Conversation.start({ tools: [search("trusted")], backends, authority });
  const update = conversation.updateCatalog([search("other")]);
  assert.ok(update.ok);
  assert.deepEqual(update.changed, [{ name: "search", fields: ["/backend"] }]);
  assert.deepEqual(update.held, ["search"]);
  assert.deepEqual(conversation.current.authority.grants, {});
  const dispatched: unknown[] = [];
  const call = await conversation.invoke(
    { name: "search", arguments: { q: "x" } },
    { dispatch: (c) => dispatched.push(c) },
  );
  assert.equal(!call.ok && call.error.code, "tool_held");
  assert.deepEqual(dispatched, []);
  // A person approves the move: the tool runs on the new backend, with the grant the host still gives it.
  const approved = conversation.approve(["search"]);
  assert.ok(approved.ok);
  assert.equal(conversation.current.registry.get("search")?.backend, "other");
});
