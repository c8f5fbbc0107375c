/**
 * The whole descriptor inside the counted limits (issue 44, observation 2): `annotations`, `icons`, `execution`,
 * `_meta` and unknown fields nest at most `maxSchemaDepth` levels and hold at most `maxSchemaNodes` values, or the
 * tool is `tool_invalid` with a `limit_exceeded` cause (class
 * `execution_failure`): strict and quarantine refuse the batch, isolate the tool alone, and nothing admitted can make
 * `JSON.stringify(modelRequest())` overflow.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Conversation, ToolCatalog } from "../../../src/index.js";
import { tool } from "../helpers.js";

/** An object nested `depth` levels (`{ a: { a: … {} } }`), built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("the descriptor outside its schemas is inside the limits", () => {
  for (const field of ["annotations", "execution", "_meta", "x-future"]) {
    test(`a 20,000-deep ${field} is refused with an execution_failure limit, the tool alone in isolate mode`, () => {
      const deep = tool("deep", { type: "object" }, { [field]: nested(20_000) });
      const strict = ToolCatalog.admitBatch([tool("ok"), deep], { backends: ["b"] });
      assert.ok(!strict.ok);
      assert.deepEqual(
        [strict.error.class, strict.error.code, strict.error.cause?.code, strict.error.tool?.name],
        ["execution_failure", "tool_invalid", "limit_exceeded", "deep"],
      );
      assert.match(strict.error.message, new RegExp(`over maxSchemaDepth \\(128\\) in ${field}`));
      const isolated = ToolCatalog.admitBatch([tool("ok"), deep], { backends: ["b"], mode: "isolate" });
      assert.ok(isolated.ok);
      assert.deepEqual(isolated.value.accepted, ["ok"]);
      assert.deepEqual(
        isolated.value.rejected.map((r) => [r.name, r.status, r.error.class]),
        [["deep", "refused", "execution_failure"]],
      );
    });
  }

  test("icons 20,000 deep in an array: refused the same way", () => {
    let icons: unknown[] = [];
    for (let i = 0; i < 20_000; i++) icons = [icons];
    const r = ToolCatalog.admitBatch([tool("deep", { type: "object" }, { icons })], { backends: ["b"] });
    assert.equal(r.ok ? "" : r.error.cause?.code, "limit_exceeded");
  });

  test("maxSchemaDepth levels are admitted, one more is refused; maxSchemaNodes counts too", () => {
    const at = (depth: number, limits = {}) =>
      ToolCatalog.admitBatch([tool("t", { type: "object" }, { annotations: nested(depth) })], {
        backends: ["b"],
        limits,
      });
    assert.ok(at(128).ok);
    assert.ok(!at(129).ok);
    assert.ok(at(5, { maxSchemaDepth: 5 }).ok);
    assert.ok(!at(6, { maxSchemaDepth: 5 }).ok);
    const wide = tool("t", { type: "object" }, { annotations: { list: Array.from({ length: 200 }, () => 1) } });
    const nodes = ToolCatalog.admitBatch([wide], { backends: ["b"], limits: { maxSchemaNodes: 100 } });
    assert.match(nodes.ok ? "" : nodes.error.message, /over maxSchemaNodes \(100\) in annotations/);
  });

  test("JSON.stringify(modelRequest()) cannot overflow: a conversation never admits the deep tool", () => {
    const tools = [tool("ok"), tool("deep", { type: "object" }, { annotations: nested(20_000) })];
    const conversation = Conversation.start({ tools, backends: ["b"], schemaAdmission: "isolate" });
    const text = JSON.stringify(conversation.modelRequest());
    assert.deepEqual(
      (JSON.parse(text) as { tools: { name: string }[] }).tools.map((t) => t.name),
      ["ok"],
    );
    assert.throws(
      () => Conversation.start({ tools, backends: ["b"], schemaAdmission: "quarantine" }),
      /maxSchemaDepth/,
    );
  });
});
