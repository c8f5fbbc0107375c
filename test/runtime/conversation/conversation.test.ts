import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CatalogAdmissionError, Conversation, type CatalogUpdatedEvent } from "../../../src/index.js";
import { DRAFT_07, tool } from "../helpers.js";

const backends = ["b"];
const BROKEN = { type: "object", properties: { a: { type: "strin" } } };

describe("Conversation", () => {
  test("start admits the catalog; modelRequest lists the provider tools", () => {
    const c = Conversation.start({
      tools: [tool("a"), tool("old", DRAFT_07)],
      backends,
      schemaAdmission: "quarantine",
    });
    assert.deepEqual(
      c.modelRequest().tools.map((t) => t.name),
      ["a"],
    );
  });
  test("start in strict mode throws a CatalogAdmissionError carrying the CatalogError; tryStart returns it", () => {
    assert.throws(
      () => Conversation.start({ tools: [tool("old", DRAFT_07)], backends }),
      (e: unknown) => e instanceof CatalogAdmissionError && e.error.class === "unsupported_capability",
    );
    const r = Conversation.tryStart({ tools: [tool("old", DRAFT_07)], backends });
    assert.equal(r.ok, false);
  });
  for (const mode of ["strict", "quarantine"] as const) {
    test(`a failing ${mode} update leaves the previous bundle in force and emits nothing`, () => {
      const c = Conversation.start({ tools: [tool("a")], backends });
      const events: CatalogUpdatedEvent[] = [];
      c.subscribe((e) => events.push(e));
      const before = c.current;
      const r = c.updateCatalog([tool("b", BROKEN)], { schemaAdmission: mode });
      assert.equal(r.ok, false);
      assert.equal(c.current, before);
      assert.deepEqual(events, []);
      assert.deepEqual(
        c.modelRequest().tools.map((t) => t.name),
        ["a"],
      );
    });
  }
  test("a succeeding quarantine update replaces the bundle and emits accepted names only", () => {
    const c = Conversation.start({ tools: [tool("a")], backends });
    const events: CatalogUpdatedEvent[] = [];
    const stop = c.subscribe((e) => events.push(e));
    const r = c.updateCatalog([tool("b"), tool("secret_old", DRAFT_07)], { schemaAdmission: "quarantine" });
    assert.equal(r.ok, true);
    assert.deepEqual(
      c.modelRequest().tools.map((t) => t.name),
      ["b"],
    );
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]?.accepted, ["b"]);
    assert.ok(!JSON.stringify(events).includes("secret_old"));
    stop();
    c.updateCatalog([tool("c")], { schemaAdmission: "quarantine" });
    assert.equal(events.length, 1, "unsubscribed");
  });
  test("a strict update refuses an unsupported tool; quarantine admits the rest", () => {
    const c = Conversation.start({ tools: [tool("a")], backends });
    assert.equal(c.updateCatalog([tool("b"), tool("old", DRAFT_07)], { schemaAdmission: "strict" }).ok, false);
    assert.equal(c.updateCatalog([tool("b"), tool("old", DRAFT_07)], { schemaAdmission: "quarantine" }).ok, true);
  });
  test("checkpoints are JSON, carry no diagnostics, and restore to the same catalog", () => {
    const tools = [tool("a"), tool("secret_old", DRAFT_07), tool("z", { type: "object" }, { revision: "r9" })];
    const c = Conversation.start({
      tools,
      backends,
      schemaAdmission: "quarantine",
      authority: { caller: "u", grants: { a: 1, secret_old: 2 } },
    });
    c.updateCatalog(tools, { schemaAdmission: "quarantine" });
    const checkpoint = JSON.parse(JSON.stringify(c.checkpoint()));
    assert.ok(!JSON.stringify(checkpoint).includes("secret_old"));
    const restored = Conversation.restore(checkpoint, { tools, backends });
    assert.ok(restored.ok);
    assert.deepEqual(restored.value.checkpoint(), c.checkpoint());
    assert.deepEqual(restored.value.modelRequest(), c.modelRequest());
    const changed = Conversation.restore(checkpoint, {
      tools: [tool("a"), tool("z", { type: "object" }, { revision: "r10" })],
      backends,
    });
    assert.equal(changed.ok, false);
    assert.equal((changed as { ok: false; error: { code: string } }).error.code, "checkpoint_mismatch");
  });
  test("invoke goes through the same boundary", async () => {
    const c = Conversation.start({ tools: [tool("a", { type: "object", required: ["x"] })], backends });
    let dispatched = false;
    const r = await c.invoke(
      { name: "a", arguments: {} },
      {
        dispatch: () => {
          dispatched = true;
        },
      },
    );
    assert.equal(r.ok, false);
    assert.equal(dispatched, false);
  });
});

describe("Conversation.updateCatalog and the authority", () => {
  const start = () =>
    Conversation.start({
      tools: [tool("a"), tool("b")],
      backends,
      authority: { caller: "u", grants: { a: { scope: 1 }, b: { scope: 2 } } },
    });
  const run = (c: Conversation, name: string) => c.invoke({ name, arguments: {} }, { dispatch: (ctx) => ctx.grant });
  test("a server that removed a granted tool does not block the update: the authority is narrowed", async () => {
    const c = start();
    const r = c.updateCatalog([tool("a")]);
    if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
    assert.deepEqual(c.current.authority, { caller: "u", grants: { a: { scope: 1 } } });
    assert.deepEqual(c.checkpoint().authority, { caller: "u", grants: { a: { scope: 1 } } });
    assert.deepEqual(await run(c, "a"), { ok: true, value: { scope: 1 } });
  });
  test("a tool the server adds gets no grant, and a removed tool's grant does not come back", async () => {
    const c = start();
    assert.equal(c.updateCatalog([tool("a")]).ok, true);
    assert.equal(c.updateCatalog([tool("a"), tool("b"), tool("c")]).ok, true);
    assert.deepEqual(c.current.authority.grants, { a: { scope: 1 } });
    for (const name of ["b", "c"]) {
      const r = await run(c, name);
      assert.equal((r as { ok: false; error: { code: string } }).error.code, "grant_missing", name);
    }
  });
  test("an explicit authority is checked as admitBatch checks it", () => {
    const c = start();
    const before = c.current;
    const r = c.updateCatalog([tool("a")], { authority: { grants: { a: 1, b: 2 } } });
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "grant_unknown_tool");
    assert.equal(c.current, before);
    assert.equal(c.updateCatalog([tool("a")], { authority: { caller: "v", grants: { a: 9 } } }).ok, true);
    assert.deepEqual(c.current.authority, { caller: "v", grants: { a: 9 } });
  });
  test("a conversation without grants stays without grants", async () => {
    const c = Conversation.start({ tools: [tool("a")], backends, authority: { caller: "u" } });
    assert.equal(c.updateCatalog([tool("b")]).ok, true);
    assert.deepEqual(c.current.authority, { caller: "u" });
    assert.deepEqual(await run(c, "b"), { ok: true, value: undefined });
  });
});

test("Conversation.invoke checks results against the output schema too", async () => {
  const c = Conversation.start({
    tools: [tool("n", { type: "object" }, { outputSchema: { type: "object", required: ["n"] } })],
    backends,
  });
  const good = { content: [], structuredContent: { n: 1 } };
  const r = await c.invoke({ name: "n" }, { dispatch: () => good });
  assert.ok(r.ok);
  assert.equal(r.value, good);
  const bad = await c.invoke({ name: "n" }, { dispatch: () => ({ content: [], structuredContent: {} }) });
  assert.equal((bad as { ok: false; error: { code: string } }).error.code, "output_invalid");
});

describe("Conversation options fail closed", () => {
  test("a misspelt start option is options_invalid", () => {
    const r = Conversation.tryStart({ tools: [], backends, schemaAdmision: "quarantine" } as never);
    assert.equal(r.ok, false);
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "options_invalid");
  });
  test("a misspelt update option is options_invalid and the bundle in force stays", () => {
    const c = Conversation.start({ tools: [tool("a")], backends });
    const before = c.current;
    const r = c.updateCatalog([tool("b")], { schemaAdmision: "quarantine" } as never);
    assert.equal(r.ok, false);
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "options_invalid");
    assert.equal(c.current, before);
  });
});

describe("tools whose schemas hold deep values", () => {
  /** `depth` arrays, each holding the next. */
  const nested = (depth: number): unknown => {
    let value: unknown = [];
    for (let i = 1; i < depth; i++) value = [value];
    return value;
  };
  test("an enum value nested 20,000 deep is refused at admission, naming the pointer", () => {
    const deep = tool("deep", { type: "object", properties: { a: { enum: [nested(20_000)] } } });
    const r = Conversation.tryStart({ tools: [tool("a"), deep], backends, schemaAdmission: "quarantine" });
    assert.ok(!r.ok);
    assert.equal(r.error.code, "schema_rejected");
    assert.equal(r.error.cause?.code, "limit_exceeded");
    assert.equal(r.error.cause?.schemaPointer, "/properties/a/enum/0" + "/0".repeat(126));
  });
  test("one nested as deep as maxSchemaDepth allows is admitted, and the model request serialises", () => {
    // `a` is level 1, the enum array level 2, its value's arrays levels 3 to 128.
    const deep = tool("deep", { type: "object", properties: { a: { enum: [nested(126)] } } });
    const c = Conversation.start({ tools: [deep], backends });
    const text = JSON.stringify(c.modelRequest());
    assert.ok(text.includes("[".repeat(126) + "]".repeat(126)));
  });
});
