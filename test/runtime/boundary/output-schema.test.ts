/** OutputSchema: the InputSchema boundary without the object-root rule, for any schema and any JSON value. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InputSchema, OutputSchema, type InputSchemaError } from "../../../src/index.js";

function refused(r: { ok: boolean }): InputSchemaError {
  assert.equal(r.ok, false, "expected a refusal");
  return (r as { ok: false; error: InputSchemaError }).error;
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

describe("OutputSchema.validateSchema", () => {
  const roots: [string, unknown, unknown, unknown][] = [
    ["object", { type: "object", required: ["n"] }, { n: 1 }, {}],
    ["array", { type: "array", items: { type: "string" } }, ["a"], ["a", 1]],
    ["string", { type: "string", maxLength: 3 }, "abc", "abcd"],
    ["number", { type: "integer" }, 3, 3.5],
    ["true", true, null, undefined],
    ["false", false, undefined, { anything: 1 }],
  ];
  for (const [label, schema, good, bad] of roots) {
    test(`a ${label} root compiles; values are checked against it`, () => {
      const compiled = OutputSchema.validateSchema(schema);
      if (!compiled.ok) assert.fail(compiled.error.message);
      assert.equal(compiled.value.schema, schema, "the very same schema");
      if (good !== undefined) {
        const r = compiled.value.validate(good);
        assert.ok(r.ok);
        assert.equal(r.value, good, "the very same value");
      }
      if (bad !== undefined) {
        const e = refused(compiled.value.validate(bad));
        assert.equal(e.class, "validation");
        assert.equal(e.code, "output_invalid");
        assert.ok(e.errors !== undefined && e.errors.length > 0, "basic-output errors");
      }
    });
  }
  test("an input schema with a non-object root is refused by InputSchema, admitted by OutputSchema", () => {
    assert.equal(refused(InputSchema.validateSchema({ type: "string" })).code, "root_not_object");
    assert.equal(refused(InputSchema.validateSchema(true)).code, "root_not_object");
    assert.equal(OutputSchema.validateSchema({ type: "string" }).ok, true);
  });
  test("a bad schema is a validation error; non-schemas too", () => {
    assert.equal(refused(OutputSchema.validateSchema({ type: "strin" })).code, "schema_invalid");
    assert.equal(refused(OutputSchema.validateSchema("string")).code, "schema_invalid");
    assert.equal(refused(OutputSchema.validateSchema({ $ref: "#/$defs/missing" })).code, "ref_unresolved");
  });
  test("registries, loaders and limits are the InputSchema ones", () => {
    const registry = { "https://example.test/item": { type: "string" } };
    const r = OutputSchema.validate({ items: { $ref: "https://example.test/item" } }, ["x"], {
      schemaRegistry: registry,
    });
    assert.equal(r.ok, true);
    const loaded: string[] = [];
    const viaLoader = OutputSchema.validateSchema(
      { $ref: "https://example.test/n" },
      { schemaLoader: (uri) => (loaded.push(uri), { type: "number" }) },
    );
    assert.ok(viaLoader.ok);
    assert.deepEqual(loaded, ["https://example.test/n"]);
    const deep = refused(OutputSchema.validate(true, [[[[1]]]], { limits: { maxInstanceDepth: 2 } }));
    assert.equal(deep.class, "execution_failure");
    assert.equal(deep.code, "limit_exceeded");
    assert.equal(
      refused(OutputSchema.validateSchema(true, { limits: { maxBogus: 1 } as never })).code,
      "options_invalid",
    );
    assert.equal(refused(OutputSchema.validateSchema(true, { draft07: "yes" as never })).code, "options_invalid");
  });
  test("a draft-07 schema is unsupported_capability and the message names the draft07 option", () => {
    const e = refused(OutputSchema.validateSchema({ $schema: DRAFT_07, type: "object" }));
    assert.equal(e.class, "unsupported_capability");
    assert.equal(e.code, "dialect_unsupported");
    assert.match(e.message, /draft07: "upgrade"/);
  });
});

describe("OutputSchema.validate", () => {
  test("any JSON value; a value that is not JSON is output_invalid with its pointer", () => {
    for (const value of [null, 0, "x", [], {}, [{ a: [true] }]])
      assert.equal(OutputSchema.validate(true, value).ok, true);
    const e = refused(OutputSchema.validate(true, { a: [1, () => 1] }));
    assert.equal(e.code, "output_invalid");
    assert.equal(e.instancePointer, "/a/1");
    assert.match(e.message, /^the result is not JSON at "\/a\/1"/);
    assert.equal(refused(OutputSchema.validate(true, undefined)).code, "output_invalid");
  });
  test("a refused value: basic-output errors, a message, and model text worded for a result that quotes none of it", () => {
    const schema = { type: "object", properties: { items: { type: "array", items: { type: "string" } } } };
    const e = refused(OutputSchema.validate(schema, { items: ["a", 2] }));
    assert.equal(e.instancePointer, "/items/1");
    assert.match(e.message, /^the result does not match the output schema at "\/items\/1": must be string, got number/);
    assert.equal(
      e.toModelText(),
      "The tool's result does not match its output schema (1 problem):\n" +
        '- /items/1: must be string (expected by "type" at /properties/items/items/type)',
    );
    const root = refused(OutputSchema.validate({ type: "array" }, {}));
    assert.match(root.toModelText(), /^- \(result\): must be array \(expected by "type" at \/type\)$/m);
    assert.ok(!root.toModelText().includes("argument"));
  });
  test("an accessor in the result is refused at its pointer without being called, and not named to the model", () => {
    let calls = 0;
    const value = {
      get secret() {
        calls++;
        throw new Error("token=abc");
      },
    };
    const e = refused(OutputSchema.validate(true, value));
    assert.deepEqual([e.code, e.instancePointer], ["output_invalid", "/secret"]);
    assert.equal(calls, 0);
    assert.equal(
      e.toModelText(),
      "The tool's result does not match its output schema (1 problem):\n" +
        "- (result): must be JSON data (no functions, undefined, non-finite numbers, accessors or class instances)",
    );
  });
  test("a result whose Proxy trap throws: the exception stays on the error, not in model text", () => {
    const value = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("token=abc");
        },
      },
    );
    const e = refused(OutputSchema.validate(true, value));
    assert.equal(e.code, "output_invalid");
    assert.ok(!e.toModelText().includes("token"));
    assert.equal((e.cause as Error).message, "token=abc");
  });
});
