/** The explicit draft07: "reject" | "upgrade" option on InputSchema, OutputSchema, ToolCatalog and Conversation. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Conversation,
  InputSchema,
  OutputSchema,
  ToolCatalog,
  upgradeDraft07,
  type InputSchemaError,
} from "../../../../src/index.js";
import { tool } from "../../helpers.js";

const D7 = "http://json-schema.org/draft-07/schema#";
const input = () => ({
  $schema: D7,
  type: "object",
  definitions: { id: { type: "integer", minimum: 1 } },
  properties: { id: { $ref: "#/definitions/id" }, tags: { type: "array", items: [{ type: "string" }] } },
  required: ["id"],
});
const output = () => ({ $schema: D7, type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
/** Two `#x` anchors in one resource: no exact translation exists. */
const blocked = () => ({ $schema: D7, type: "object", properties: { a: { $id: "#x" }, b: { $id: "#x" } } });

function refused(r: { ok: boolean }): InputSchemaError {
  assert.equal(r.ok, false, "expected a refusal");
  return (r as { ok: false; error: InputSchemaError }).error;
}

describe("InputSchema and OutputSchema", () => {
  test('"reject" is the default: dialect_unsupported, and the message names the option', () => {
    for (const options of [{}, { draft07: "reject" as const }]) {
      const e = refused(InputSchema.validateSchema(input(), options));
      assert.equal(e.class, "unsupported_capability");
      assert.equal(e.code, "dialect_unsupported");
      assert.match(e.message, /draft07: "upgrade"/);
    }
    assert.doesNotMatch(
      refused(InputSchema.validateSchema({ $schema: "http://json-schema.org/draft-04/schema#" })).message,
      /draft07/,
      "only a draft-07 schema is pointed at the option",
    );
  });
  test('"upgrade" translates exactly: the same verdicts, the published schema kept, the changes listed', () => {
    const schema = input();
    const before = JSON.stringify(schema);
    const r = InputSchema.validateSchema(schema, { draft07: "upgrade" });
    if (!r.ok) assert.fail(r.error.message);
    assert.equal(r.value.schema, schema, "the very same published object");
    assert.equal(JSON.stringify(schema), before, "not modified");
    const translation = upgradeDraft07(schema);
    assert.ok(translation.ok);
    assert.ok(translation.value.changes.length >= 3);
    assert.deepEqual(r.value.upgraded, translation.value.changes, "the changes upgradeDraft07 reports");
    assert.equal(r.value.validate({ id: 1, tags: ["a", 2] }).ok, true, "draft-07 items array: only the first item");
    assert.equal(r.value.validate({ id: 0 }).ok, false);
    assert.equal(r.value.validate({}).ok, false);
    const out = OutputSchema.validateSchema(output(), { draft07: "upgrade" });
    assert.ok(out.ok);
    assert.equal(out.value.validate({ ok: true }).ok, true);
    assert.equal(refused(out.value.validate({ ok: 1 })).code, "output_invalid");
  });
  test("a 2020-12 schema is untouched by the option: nothing is listed as upgraded", () => {
    const r = InputSchema.validateSchema({ type: "object" }, { draft07: "upgrade" });
    assert.ok(r.ok);
    assert.equal(r.value.upgraded, undefined);
  });
  test("a translation that cannot be exact stays unsupported_capability, with the reason", () => {
    const e = refused(InputSchema.validateSchema(blocked(), { draft07: "upgrade" }));
    assert.equal(e.class, "unsupported_capability");
    assert.equal(e.code, "upgrade_blocked");
    assert.equal(e.schemaPointer, "/properties/b/$id");
    assert.match(e.message, /cannot be translated to 2020-12 exactly: .*#x/);
  });
  test("a malformed value of the option is options_invalid, never a silent default", () => {
    for (const draft07 of ["upgrade ", "UPGRADE", true, null]) {
      assert.equal(
        refused(InputSchema.validateSchema({ type: "object" }, { draft07 } as never)).code,
        "options_invalid",
      );
    }
  });
});

describe("ToolCatalog.admitBatch", () => {
  const batch = () => [
    tool("a", input(), { outputSchema: output() }),
    tool("b", { type: "object" }),
    tool("c", { $schema: D7, type: "object" }, { revision: "r7" }),
  ];
  test("strict with draft07: 'upgrade' admits every tool and records the upgrades", () => {
    const tools = batch();
    const r = ToolCatalog.admitBatch(tools, { backends: ["b"], draft07: "upgrade" });
    if (!r.ok) assert.fail(r.error.message);
    assert.deepEqual(r.value.accepted, ["a", "b", "c"]);
    assert.deepEqual(
      r.value.upgraded.map((u) => [u.name, u.revision, u.schema, u.changes.length > 0]),
      [
        ["a", "r1", "inputSchema", true],
        ["a", "r1", "outputSchema", true],
        ["c", "r7", "inputSchema", true],
      ],
    );
    const published = tools[0] as Record<string, unknown>;
    assert.equal(r.value.tools[0]?.inputSchema, published["inputSchema"], "provider tools carry the published schema");
    assert.equal(r.value.tools[0]?.outputSchema, published["outputSchema"]);
    assert.ok(!JSON.stringify(r.value).includes("upgraded"), "the upgrade list is host data");
  });
  test("without the option the same batch is refused (strict) or quarantined", () => {
    const strict = ToolCatalog.admitBatch(batch(), { backends: ["b"] });
    assert.equal(strict.ok, false);
    const quarantined = ToolCatalog.admitBatch(batch(), { backends: ["b"], mode: "quarantine" });
    assert.ok(quarantined.ok);
    assert.deepEqual(quarantined.value.accepted, ["b"]);
    assert.deepEqual(quarantined.value.upgraded, []);
  });
  test("a malformed draft07 fails the batch as options_invalid, even an empty one", () => {
    for (const tools of [[], batch()]) {
      const r = ToolCatalog.admitBatch(tools, { backends: ["b"], draft07: "yes" as never });
      assert.equal((r as { ok: false; error: { code: string } }).error.code, "options_invalid");
    }
  });
  test("a blocked translation is quarantined with its reason, or fails a strict batch", () => {
    const tools = [tool("ok"), tool("x", blocked())];
    const q = ToolCatalog.admitBatch(tools, { backends: ["b"], mode: "quarantine", draft07: "upgrade" });
    assert.ok(q.ok);
    assert.deepEqual(
      q.value.rejected.map((r) => [r.name, r.schema, r.error.code]),
      [["x", "inputSchema", "upgrade_blocked"]],
    );
    const s = ToolCatalog.admitBatch(tools, { backends: ["b"], draft07: "upgrade" });
    assert.equal((s as { ok: false; error: { cause?: InputSchemaError } }).error.cause?.code, "upgrade_blocked");
  });
});

describe("Conversation", () => {
  test("start, update, checkpoint and restore keep the option", () => {
    const tools = [tool("a", input()), tool("b")];
    assert.equal(Conversation.tryStart({ tools, backends: ["b"] }).ok, false);
    const c = Conversation.start({ tools, backends: ["b"], draft07: "upgrade" });
    assert.deepEqual(c.current.accepted, ["a", "b"]);
    assert.equal(c.updateCatalog([...tools, tool("c", output())]).ok, true, "later catalogs are upgraded too");
    const checkpoint = JSON.parse(JSON.stringify(c.checkpoint()));
    assert.equal(checkpoint.draft07, "upgrade");
    const restored = Conversation.restore(checkpoint, { tools: [...tools, tool("c", output())], backends: ["b"] });
    assert.ok(restored.ok, "restored with the checkpoint's draft07");
    assert.equal(c.updateCatalog(tools, { draft07: "reject" }).ok, false, "an update may turn it off");
    const off = Conversation.start({ tools: [tool("b")], backends: ["b"] });
    assert.equal(off.updateCatalog(tools).ok, false);
    assert.equal(off.updateCatalog(tools, { draft07: "upgrade" }).ok, true);
    assert.equal(off.checkpoint().draft07, "upgrade");
  });
});
