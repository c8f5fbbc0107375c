/** The engine's host extensions through the boundary, admission and the MCP provider: formats, strictSchema, messages. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { assertion, Execution, InputSchema, ToolCatalog, type CompileContext } from "../../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../../src/adapters/mcp.js";

const isSku = (value: string): boolean => /^[A-Z]{3}-[0-9]{4}$/.test(value);
const schema = { type: "object", properties: { sku: { type: "string", format: "sku" } }, required: ["sku"] };

test("InputSchema: formats assert, a throwing checker is an execution_failure Result, never a throw", () => {
  const compiled = InputSchema.validateSchema(schema, { formats: { sku: isSku }, formatAssertion: true });
  assert.ok(compiled.ok);
  assert.equal(compiled.value.validate({ sku: "ABC-1234" }).ok, true);
  const refused = compiled.value.validate({ sku: "abc" });
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.equal(refused.error.errors?.[0]?.keyword, "format");
  const cause = new Error("down");
  const failing = InputSchema.validate(
    schema,
    { sku: "x" },
    {
      formats: {
        sku: () => {
          throw cause;
        },
      },
      formatAssertion: true,
    },
  );
  assert.equal(failing.ok, false);
  if (!failing.ok) {
    assert.equal(failing.error.class, "execution_failure");
    assert.equal(failing.error.code, "format_failed");
    assert.equal(failing.error.cause, cause);
    assert.equal(failing.error.toModelText(), "The check could not be completed (execution_failure/format_failed).");
  }
});

test("InputSchema: strictSchema and messages", () => {
  const typo = InputSchema.validateSchema({ type: "object", requried: ["a"] }, { strictSchema: true });
  assert.equal(typo.ok, false);
  if (!typo.ok) assert.deepEqual([typo.error.code, typo.error.schemaPointer], ["keyword_unknown", "/requried"]);
  const french = InputSchema.validate(
    { type: "object", required: ["a"] },
    {},
    { messages: (f) => (f.keyword === "required" ? `il manque ${f.params.missing?.join(", ")}` : undefined) },
  );
  assert.equal(french.ok, false);
  if (!french.ok) assert.match(french.error.message, /il manque a$/);
});

test("admission compiles tools with the host's formats, and calls are checked with them", async () => {
  const tool = { name: "order", revision: "1", backend: "shop", inputSchema: schema };
  const admitted = ToolCatalog.admitBatch([tool], {
    backends: ["shop"],
    formats: { sku: isSku },
    formatAssertion: true,
  });
  assert.ok(admitted.ok);
  let dispatched = 0;
  const host = {
    dispatch: () => {
      dispatched++;
      return "ran";
    },
  };
  const bad = await Execution.invoke(admitted.value, { name: "order", arguments: { sku: "nope" } }, host);
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.error.code, "arguments_invalid");
  const good = await Execution.invoke(admitted.value, { name: "order", arguments: { sku: "ABC-1234" } }, host);
  assert.equal(good.ok, true);
  assert.equal(dispatched, 1);
});

test("the MCP provider takes formats too", () => {
  const provider = new BackplaneJsonSchemaValidator({ formats: { sku: isSku }, formatAssertion: true });
  const check = provider.getValidator(schema);
  assert.equal(check({ sku: "ABC-1234" }).valid, true);
  const refused = check({ sku: "abc" });
  assert.equal(refused.valid, false);
  assert.match(refused.errorMessage ?? "", /must be a valid sku/);
});

test("host code sees frozen copies: a format checker or keyword cannot change the arguments or the schema", () => {
  const args = { order: { sku: "ABC-1234", qty: 1 } };
  const seen: unknown[] = [];
  const tamper = (value: unknown): boolean => {
    seen.push(value);
    const target = value as Record<string, unknown>;
    assert.throws(() => {
      "use strict";
      target["qty"] = 99;
    }, TypeError);
    return true;
  };
  const withFormat = { type: "object", properties: { order: { type: "object", format: "order" } } };
  const formats = { order: { check: tamper, types: ["object" as const] } };
  const checked = InputSchema.validate(withFormat, args, { formats, formatAssertion: true });
  assert.ok(checked.ok, checked.ok ? "" : checked.error.message);
  assert.equal(checked.value, args, "the very same arguments");
  assert.deepEqual(args, { order: { sku: "ABC-1234", qty: 1 } }, "unchanged");
  assert.notEqual(seen[0], args.order, "a copy, not the caller's object");
  assert.deepEqual(seen[0], args.order);

  const schemaSeen: unknown[] = [];
  const vocabulary = {
    uri: "https://example.test/vocab/tamper",
    keywords: [
      {
        keyword: "tamper",
        compile(value: unknown, ctx: CompileContext) {
          schemaSeen.push(value, ctx.schema);
          assert.ok(Object.isFrozen(ctx.schema) && Object.isFrozen(value));
          assert.throws(() => {
            (ctx.schema as Record<string, unknown>)["type"] = "string";
          }, TypeError);
          return assertion(
            "tamper",
            (instance) => tamper(instance),
            () => ({ message: "tampered" }),
          );
        },
      },
    ],
  };
  const meta = {
    $id: "https://example.test/meta/tamper",
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $vocabulary: {
      "https://json-schema.org/draft/2020-12/vocab/core": true,
      "https://json-schema.org/draft/2020-12/vocab/applicator": true,
      "https://json-schema.org/draft/2020-12/vocab/validation": true,
      "https://example.test/vocab/tamper": true,
    },
  };
  const hostSchema = {
    $schema: "https://example.test/meta/tamper",
    type: "object",
    properties: { order: { tamper: { deep: [1] } } },
  };
  const before = JSON.stringify(hostSchema);
  const result = InputSchema.validate(hostSchema, args, {
    vocabularies: [vocabulary],
    schemaRegistry: { "https://example.test/meta/tamper": meta },
  });
  assert.ok(result.ok, result.ok ? "" : result.error.message);
  assert.equal(JSON.stringify(hostSchema), before, "the schema is unchanged");
  assert.deepEqual(args, { order: { sku: "ABC-1234", qty: 1 } }, "the arguments are unchanged");
  assert.deepEqual(schemaSeen[0], { deep: [1] });
});
