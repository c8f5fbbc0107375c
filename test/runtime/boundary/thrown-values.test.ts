/**
 * "Never throws" means never throws (docs/project/security.md): whatever a host throws — a value without a prototype, a
 * Proxy whose every trap throws, an object whose `toString` or an Error whose `message` throws, a Symbol, `undefined`
 * — every Result API and `Execution.invoke` return a Result, with a message that is text.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  CatalogAdmissionError,
  compile,
  Conversation,
  Execution,
  InputSchema,
  OutputSchema,
  SchemaError,
  ToolCatalog,
  upgradeDraft07,
  upgradeDraft07Documents,
  type AdmittedBundle,
  type ExecutionHost,
} from "../../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../../src/adapters/mcp.js";
import { tool } from "../helpers.js";
import { THROWN, throwingField, throwingProxy } from "../hostile-values.js";

const schema = { type: "object", properties: { q: { type: "string" } } };
const backends = ["b"];

function bundle(): AdmittedBundle {
  const r = ToolCatalog.admitBatch([tool("search", schema)], { backends });
  assert.ok(r.ok);
  return r.value;
}

/** A failed Result whose error has a text message (and, for the gateway, text for the model). */
function assertRefused(r: { ok: boolean; error?: unknown }, code?: string): void {
  assert.equal(r.ok, false);
  const error = r.error as { code: unknown; message: unknown; modelText?: unknown };
  assert.equal(typeof error.message, "string");
  assert.equal(typeof error.code, "string");
  if (code !== undefined) assert.equal(error.code, code);
  if (Object.hasOwn(error, "modelText")) assert.equal(typeof error.modelText, "string");
}

for (const [label, make] of THROWN) {
  describe(`thrown: ${label}`, () => {
    test("Execution.invoke: a stage, dispatch, a rejected promise or an unreadable verdict is a Result", async () => {
      const call = { name: "search", arguments: { q: "x" } };
      const thrower = () => {
        throw make();
      };
      const hosts: [string, ExecutionHost<unknown>][] = [
        ["stage_failed", { authorize: thrower, dispatch: () => 1 }],
        ["stage_failed", { publishIntent: () => Promise.reject(make()), dispatch: () => 1 }],
        ["stage_failed", { approve: () => throwingProxy(make()) as never, dispatch: () => 1 }],
        ["stage_failed", { approve: () => throwingField({}, "ok", make()) as never, dispatch: () => 1 }],
        ["dispatch_failed", { dispatch: thrower }],
        ["dispatch_failed", { dispatch: () => Promise.reject(make()) }],
      ];
      for (const [code, host] of hosts) assertRefused(await Execution.invoke(bundle(), call, host), code);
    });
    test("Execution.invoke: a call, arguments or host that cannot be read is a Result", async () => {
      const host = { dispatch: () => assert.fail("dispatch must not run") };
      assertRefused(await Execution.invoke(bundle(), throwingProxy(make()) as never, host), "call_invalid");
      assertRefused(
        await Execution.invoke(bundle(), throwingField({ arguments: {} }, "name", make()) as never, host),
        "call_invalid",
      );
      assertRefused(await Execution.invoke(bundle(), { name: "search", arguments: throwingProxy(make()) }, host));
      assertRefused(await Execution.invoke(bundle(), { name: "search" }, throwingProxy(make()) as never));
      assertRefused(
        await Execution.invoke(bundle(), { name: "search" }, throwingField(host, "dispatch", make()) as never),
      );
      assertRefused(await Execution.invoke(throwingProxy(make()) as never, { name: "search" }, host));
    });
    test("InputSchema and OutputSchema: an unreadable schema, value, option or loader is a Result", () => {
      for (const boundary of [InputSchema, OutputSchema]) {
        assertRefused(boundary.validateSchema(throwingProxy(make())));
        assertRefused(boundary.validateSchema(throwingField(schema, "properties", make())));
        assertRefused(boundary.validate(schema, throwingProxy(make())));
        assertRefused(boundary.validate(schema, { q: throwingProxy(make()) }));
        assertRefused(boundary.validateSchema(schema, throwingProxy(make()) as never));
        assertRefused(boundary.validateSchema(schema, throwingField({}, "limits", make())));
        const loader = () => {
          throw make();
        };
        assertRefused(boundary.validateSchema({ $ref: "https://example.test/x" }, { schemaLoader: loader }));
      }
    });
    test("compile: a throwing loader or options getter is a SchemaError, not the thrown value", () => {
      const loader = () => {
        throw make();
      };
      assert.throws(
        () => compile({ $ref: "https://example.test/x" }, { schemaLoader: loader }),
        (e: unknown) => e instanceof SchemaError && e.code === "loader_failed" && typeof e.message === "string",
      );
      assert.throws(
        () => compile({}, throwingField({}, "limits", make())),
        (e: unknown) => e instanceof SchemaError && e.code === "options_invalid",
      );
    });
    test("ToolCatalog.admitBatch: any unreadable part of the batch or its options is a Result", () => {
      const good = tool("search", schema, { outputSchema: { type: "object" }, title: "t", annotations: {} });
      const fields = ["name", "revision", "backend", "description", "title", "inputSchema", "outputSchema"];
      const batches: unknown[] = [
        throwingProxy(make()),
        [throwingProxy(make())],
        ...fields.map((field) => [throwingField(good, field, make())]),
        ...["annotations", "_meta", "execution", "icons", "future"].map((field) => [
          throwingField(good, field, make()),
        ]),
        [{ ...good, inputSchema: throwingProxy(make()) }],
        [{ ...good, outputSchema: throwingProxy(make()) }],
        [{ ...good, inputSchema: { type: "object", properties: throwingProxy(make()) } }],
      ];
      for (const tools of batches) assertRefused(ToolCatalog.admitBatch(tools as never, { backends }));
      const options: unknown[] = [
        throwingProxy(make()),
        throwingField({ backends }, "mode", make()),
        throwingField({ backends }, "authority", make()),
        throwingField({}, "backends", make()),
        { backends: throwingProxy(make()) },
        { backends, authority: throwingProxy(make()) },
        { backends, authority: throwingField({}, "grants", make()) },
        { backends, authority: { grants: throwingProxy(make()) } },
        { backends, authority: { grants: throwingField({}, "search", make()) } },
        throwingField({ backends }, "limits", make()),
      ];
      for (const option of options) assertRefused(ToolCatalog.admitBatch([good], option as never));
    });
    test("upgradeDraft07 and upgradeDraft07Documents: an unreadable schema is a Result", () => {
      const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", properties: { a: {} } };
      for (const value of [
        throwingProxy(make()),
        throwingField(draft07, "properties", make()),
        { ...draft07, properties: { a: throwingProxy(make()) } },
      ]) {
        assertRefused(upgradeDraft07(value));
        assertRefused(upgradeDraft07Documents({ "https://example.test/a.json": value }));
      }
    });
    test("Conversation: tryStart, restore and updateCatalog return a Result for unreadable input", () => {
      assertRefused(Conversation.tryStart(throwingProxy(make()) as never));
      assertRefused(Conversation.tryStart({ tools: throwingProxy(make()) as never, backends }));
      assertRefused(Conversation.tryStart(throwingField({ backends }, "tools", make()) as never));
      // Checked options that throw when read again.
      let reads = 0;
      const later = {
        backends,
        get tools(): unknown[] {
          if (++reads > 1) throw make();
          return [];
        },
      };
      assertRefused(Conversation.tryStart(later));
      assert.throws(
        () => Conversation.start(throwingProxy(make()) as never),
        (e: unknown) => e instanceof CatalogAdmissionError,
      );
      const c = Conversation.start({ tools: [tool("search", schema)], backends });
      const checkpoint = c.checkpoint();
      assertRefused(
        Conversation.restore(throwingProxy(make()) as never, { tools: [tool("search", schema)], backends }),
      );
      assertRefused(
        Conversation.restore(throwingField({ ...checkpoint }, "tools", make()) as never, {
          tools: [tool("search", schema)],
          backends,
        }),
      );
      assertRefused(
        Conversation.restore({ ...checkpoint, tools: [throwingProxy(make())] } as never, {
          tools: [tool("search", schema)],
          backends,
        }),
      );
      assertRefused(Conversation.restore(checkpoint, throwingProxy(make()) as never));
      const before = c.current;
      assertRefused(c.updateCatalog(throwingProxy(make()) as never));
      assertRefused(c.updateCatalog([tool("search", schema)], throwingProxy(make()) as never));
      assert.equal(c.current, before);
    });
    test("a throwing subscriber: updateCatalog returns, the others hear of it, the update stands", () => {
      const c = Conversation.start({ tools: [tool("a")], backends });
      const thrown = make();
      const heard: string[] = [];
      c.subscribe(() => {
        heard.push("first");
        throw thrown;
      });
      c.subscribe((event) => void heard.push(`second ${event.accepted.join(",")}`));
      const r = c.updateCatalog([tool("b")]);
      assert.ok(r.ok);
      assert.deepEqual(heard, ["first", "second b"]);
      assert.deepEqual(c.current.accepted, ["b"]);
      assert.equal(c.checkpoint().catalogRevision, 2);
      assert.equal(r.subscriberErrors.length, 1);
      assert.equal(r.subscriberErrors[0], thrown, "the subscriber's exception reaches the host");
    });
    test("the MCP provider: an unreadable schema, input or loader fails closed, never throws", () => {
      const loader = () => {
        throw make();
      };
      const p = new BackplaneJsonSchemaValidator({ schemaLoader: loader });
      for (const validator of [
        p.getValidator(throwingProxy(make())),
        p.getValidator(throwingField({ type: "object" }, "properties", make())),
        p.getValidator({ $ref: "https://example.test/x" }),
      ]) {
        const r = validator({});
        assert.equal(r.valid, false);
        assert.equal(typeof r.errorMessage, "string");
      }
      const r = p.getValidator({ type: "object", required: ["a"] })(throwingProxy(make()));
      assert.equal(r.valid, false);
      assert.equal(typeof r.errorMessage, "string");
    });
  });
}
