/**
 * `Conversation.start` / `tryStart` / `restore` check their own option names (docs/guide/admission.md): `mode` is
 * `admitBatch`'s name, and passing it here used to admit in quarantine while the conversation recorded strict.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Conversation, type ConversationOptions } from "../../../src/index.js";
import { DRAFT_07, tool } from "../helpers.js";

const backends = ["b"];
const tools = [tool("a"), tool("old", DRAFT_07)];

describe("Conversation.start checks its own option names", () => {
  test("mode is refused with a pointer to schemaAdmission, before anything is admitted", () => {
    const options = { tools, backends, mode: "quarantine" } as unknown as ConversationOptions;
    const r = Conversation.tryStart(options);
    assert.ok(!r.ok);
    assert.equal(r.error.code, "options_invalid");
    assert.match(r.error.message, /^Conversation\.start option "mode"/);
    assert.match(r.error.message, /schemaAdmission/);
    assert.throws(() => Conversation.start(options), /schemaAdmission/);
  });
  test("a misspelt option is named as a Conversation.start option, with the near miss", () => {
    const r = Conversation.tryStart({ tools, backends, schemaAdmision: "quarantine" } as never);
    assert.ok(!r.ok);
    assert.equal(r.error.code, "options_invalid");
    assert.match(r.error.message, /unknown Conversation\.start option "schemaAdmision"/);
    assert.match(r.error.message, /did you mean "schemaAdmission"\?/);
    assert.doesNotMatch(r.error.message, /admitBatch/);
  });
  test("a boundary option with a bad value is still named for Conversation.start", () => {
    const r = Conversation.tryStart({ tools, backends, draft07: "upgrad" } as never);
    assert.ok(!r.ok);
    assert.equal(r.error.code, "options_invalid");
    assert.match(r.error.message, /^Conversation\.start option "draft07"/);
  });
  test("tools are required", () => {
    const r = Conversation.tryStart({ backends } as never);
    assert.ok(!r.ok);
    assert.equal(r.error.code, "options_invalid");
    assert.match(r.error.message, /tools/);
  });
  test("what is admitted is what the conversation records: quarantine survives checkpoint and update", () => {
    const c = Conversation.start({ tools, backends, schemaAdmission: "quarantine" });
    assert.deepEqual(c.current.accepted, ["a"]);
    const checkpoint = c.checkpoint();
    assert.equal(checkpoint.schemaAdmission, "quarantine");
    const restored = Conversation.restore(checkpoint, { tools, backends });
    assert.ok(restored.ok);
    assert.equal(c.updateCatalog(tools).ok, true);
  });
});

describe("Conversation.restore checks its option names", () => {
  const checkpoint = () => Conversation.start({ tools, backends, schemaAdmission: "quarantine" }).checkpoint();
  test("schemaAdmission and mode are refused: the checkpoint records how the catalog is admitted", () => {
    for (const name of ["schemaAdmission", "mode"]) {
      const r = Conversation.restore(checkpoint(), { tools, backends, [name]: "strict" } as never);
      assert.ok(!r.ok);
      assert.equal(r.error.code, "options_invalid");
      assert.match(r.error.message, new RegExp(`^Conversation\\.restore option "${name}"`));
      assert.match(r.error.message, /checkpoint/);
    }
  });
  test("a misspelt option is refused with the near miss", () => {
    const r = Conversation.restore(checkpoint(), { tools, backend: backends } as never);
    assert.ok(!r.ok);
    assert.match(r.error.message, /unknown Conversation\.restore option "backend".*did you mean "backends"\?/);
  });
  test("no options, or null, is an options_invalid Result", () => {
    for (const bad of [undefined, null]) {
      const r = Conversation.restore(checkpoint(), bad as never);
      assert.ok(!r.ok);
      assert.equal(r.error.code, "options_invalid");
    }
  });
});
