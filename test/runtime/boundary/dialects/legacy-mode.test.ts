/**
 * `legacyDialects: "refuse" | "upgrade"` on every entry point that compiles — InputSchema, OutputSchema,
 * ToolCatalog.admitBatch, Conversation and the public `compile` — with `draft07` deciding for draft-07 when given;
 * the dialect error naming the option; and the registry and loader documents a compile reaches upgraded with the
 * schema as one set.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compile,
  Conversation,
  InputSchema,
  LimitError,
  OutputSchema,
  SchemaError,
  ToolCatalog,
  type InputSchemaError,
} from "../../../../src/index.js";
import { tool } from "../../helpers.js";
import { deepFreeze } from "./helpers.js";

const D04 = "http://json-schema.org/draft-04/schema#";
const D06 = "http://json-schema.org/draft-06/schema#";
const D07 = "http://json-schema.org/draft-07/schema#";
const D2019 = "https://json-schema.org/draft/2019-09/schema";

/** A draft-04 tool schema: `id`, a boolean exclusive bound, `definitions`. */
const draft04 = () => ({
  $schema: D04,
  type: "object",
  definitions: { count: { type: "integer", minimum: 0, exclusiveMinimum: true } },
  properties: { n: { $ref: "#/definitions/count" } },
  required: ["n"],
});
/** A 2019-09 output schema: an items array closed by additionalItems. */
const draft2019 = () => ({ $schema: D2019, type: "array", items: [{ type: "string" }], additionalItems: false });

function refused(r: { ok: boolean }): InputSchemaError {
  assert.equal(r.ok, false, "expected a refusal");
  return (r as { ok: false; error: InputSchemaError }).error;
}

describe("InputSchema and OutputSchema", () => {
  test('"refuse" is the default: dialect_unsupported, and the message names the option for each dialect', () => {
    for (const [declared, name] of [
      [D04, "draft-04"],
      [D06, "draft-06"],
      [D2019, "2019-09"],
    ] as const) {
      for (const options of [{}, { legacyDialects: "refuse" as const }, { draft07: "upgrade" as const }]) {
        const e = refused(InputSchema.validateSchema({ $schema: declared, type: "object" }, options));
        assert.deepEqual([e.class, e.code], ["unsupported_capability", "dialect_unsupported"]);
        assert.ok(e.message.endsWith(`(pass legacyDialects: "upgrade" to translate a ${name} schema exactly)`));
      }
    }
    const e = refused(InputSchema.validateSchema({ $schema: D07, type: "object" }));
    assert.match(e.message, /\(pass draft07: "upgrade" to translate a draft-07 schema exactly\)$/);
    const other = refused(InputSchema.validateSchema({ $schema: "http://json-schema.org/draft-03/schema#" }));
    assert.doesNotMatch(other.message, /pass/, "draft-03 has no upgrade to point at");
  });

  test('"upgrade" translates exactly: the same verdicts, the caller\'s schema kept, the changes listed', () => {
    const schema = deepFreeze(draft04());
    const r = InputSchema.validateSchema(schema, { legacyDialects: "upgrade" });
    if (!r.ok) assert.fail(r.error.message);
    assert.equal(r.value.schema, schema, "the very same object");
    assert.deepEqual(
      r.value.upgraded?.map((c) => c.rule),
      ["schema-dialect", "definitions-to-defs", "exclusive-bound", "ref-rewritten"],
    );
    assert.equal(r.value.validate({ n: 1 }).ok, true);
    assert.equal(refused(r.value.validate({ n: 0 })).code, "arguments_invalid", "exclusiveMinimum: true kept");
    const out = OutputSchema.validateSchema(draft2019(), { legacyDialects: "upgrade" });
    if (!out.ok) assert.fail(out.error.message);
    assert.equal(out.value.validate(["a"]).ok, true);
    assert.equal(refused(out.value.validate(["a", "b"])).code, "output_invalid", "additionalItems: false kept");
  });

  test("draft07, when given, decides for draft-07 alone", () => {
    const d07 = { $schema: D07, type: "object" };
    const d04 = { $schema: D04, type: "object" };
    const mixed = { legacyDialects: "upgrade", draft07: "reject" } as const;
    assert.equal(refused(InputSchema.validateSchema(d07, mixed)).code, "dialect_unsupported");
    assert.equal(InputSchema.validateSchema(d04, mixed).ok, true);
    assert.equal(InputSchema.validateSchema(d07, { draft07: "upgrade" }).ok, true);
    assert.equal(refused(InputSchema.validateSchema(d04, { draft07: "upgrade" })).code, "dialect_unsupported");
    assert.equal(InputSchema.validateSchema(d07, { legacyDialects: "upgrade" }).ok, true);
  });

  test("a translation that cannot be exact is upgrade_blocked with its pointer and reason", () => {
    const e = refused(
      InputSchema.validateSchema({ $schema: D04, properties: { a: true } }, { legacyDialects: "upgrade" }),
    );
    assert.deepEqual(
      [e.class, e.code, e.schemaPointer],
      ["unsupported_capability", "upgrade_blocked", "/properties/a"],
    );
    assert.match(e.message, /^the draft-04 schema cannot be translated to 2020-12 exactly: .*boolean schemas/);
  });

  test("a malformed value of the option is options_invalid", () => {
    for (const legacyDialects of ["upgrade ", "reject", true, null]) {
      const e = refused(InputSchema.validateSchema({ type: "object" }, { legacyDialects } as never));
      assert.equal(e.code, "options_invalid");
    }
  });
});

describe("registry and loader documents are upgraded with the schema as one set", () => {
  const BASE = "https://example.com/schemas/base.json";
  const base = { $schema: D04, id: BASE, definitions: { name: { type: "string", minLength: 1 } } };
  const user = {
    $schema: D07,
    type: "object",
    properties: { name: { $ref: "base.json#/definitions/name" } },
    required: ["name"],
  };
  const options = { baseUri: "https://example.com/schemas/user.json", legacyDialects: "upgrade" } as const;

  test("a $ref into a registry document's definitions is rewritten with it; the registry is not modified", () => {
    const schemaRegistry = deepFreeze({ [BASE]: base });
    const r = InputSchema.validateSchema(user, { ...options, schemaRegistry });
    if (!r.ok) assert.fail(r.error.message);
    assert.equal(r.value.validate({ name: "ada" }).ok, true);
    assert.equal(refused(r.value.validate({ name: "" })).code, "arguments_invalid");
    const v = compile(user, { ...options, schemaRegistry });
    assert.deepEqual(
      [{ name: "a" }, { name: "" }, {}].map((i) => v.isValid(i)),
      [true, false, false],
    );
  });

  test("a 2020-12 schema reaching an older registry document: upgraded with the option, named without it", () => {
    const root = { type: "object", properties: { name: { $ref: "base.json#/$defs/name" } } };
    const schemaRegistry = { [BASE]: base };
    const e = refused(InputSchema.validateSchema(root, { baseUri: options.baseUri, schemaRegistry }));
    assert.equal(e.code, "dialect_unsupported");
    assert.match(e.message, /pass legacyDialects: "upgrade" to translate a draft-04 schema/);
    const r = InputSchema.validateSchema(root, { ...options, schemaRegistry });
    if (!r.ok) assert.fail(r.error.message);
    assert.equal(r.value.upgraded, undefined, "the root itself was not translated");
    assert.equal(refused(r.value.validate({ name: "" })).code, "arguments_invalid");
  });

  test("a document no reference reaches changes nothing, even one that cannot be translated", () => {
    const schemaRegistry = { [BASE]: base, "https://example.com/schemas/bad.json": { $schema: D04, items: [true] } };
    assert.equal(InputSchema.validateSchema(user, { ...options, schemaRegistry }).ok, true);
    const reaching = { ...user, properties: { ...user.properties, x: { $ref: "bad.json" } } };
    const e = refused(InputSchema.validateSchema(reaching, { ...options, schemaRegistry }));
    assert.equal(e.code, "upgrade_blocked");
    assert.equal(e.schemaPointer, "https://example.com/schemas/bad.json#/items/0");
    assert.match(e.message, /^the draft-04 document "https:\/\/example\.com\/schemas\/bad\.json" cannot be/);
  });

  test("nothing is read from a document that is not JSON data: its getter never runs, the compiler names it", () => {
    let reads = 0;
    const accessor = { $schema: D04, definitions: {} };
    Object.defineProperty(accessor.definitions, "name", {
      enumerable: true,
      get: () => {
        reads++;
        return { type: "string" };
      },
    });
    const root = { $schema: D07, properties: { name: { $ref: "base.json#/definitions/name" } } };
    for (const schemaRegistry of [{ [BASE]: accessor }, { [BASE]: base }]) {
      const schema = schemaRegistry[BASE] === accessor ? root : { ...root, properties: accessor.definitions };
      const e = refused(InputSchema.validateSchema(schema, { ...options, schemaRegistry }));
      assert.equal(e.code, "schema_not_json", e.message);
      assert.throws(() => compile(schema, { ...options, schemaRegistry }), /not JSON/);
    }
    assert.equal(reads, 0);
  });

  test("a loader document is upgraded too, and the loader is asked once per document", () => {
    const asked: string[] = [];
    const schemaLoader = (uri: string) => {
      asked.push(uri);
      return uri === BASE ? base : undefined;
    };
    const v = compile(user, { ...options, schemaLoader });
    assert.deepEqual(
      [{ name: "a" }, { name: "" }].map((i) => v.isValid(i)),
      [true, false],
    );
    assert.deepEqual(asked, [BASE]);
  });

  test("a document found by an identifier embedded in another registry document is reached", () => {
    const holder = {
      $schema: D07,
      definitions: { inner: { $id: "https://example.com/inner.json", items: [{ type: "integer" }] } },
    };
    const root = { $schema: D07, $ref: "https://example.com/inner.json#/items/0" };
    const schemaRegistry = { "https://example.com/holder.json": holder };
    const v = compile(root, { legacyDialects: "upgrade", schemaRegistry });
    assert.deepEqual([v.isValid(1), v.isValid("x")], [true, false], "#/items/0 became #/prefixItems/0 in both");
  });
});

describe("compile", () => {
  test("takes legacyDialects (and draft07), and its dialect error names the option", () => {
    assert.throws(
      () => compile({ $schema: D06, const: 1 }),
      (e: unknown) =>
        e instanceof SchemaError &&
        e.code === "dialect_unsupported" &&
        e.message.includes('(pass legacyDialects: "upgrade" to translate a draft-06 schema exactly)'),
    );
    const v = compile({ $schema: D06, const: 1 }, { legacyDialects: "upgrade" });
    assert.deepEqual([v.isValid(1), v.isValid(2)], [true, false]);
    assert.equal(
      compile({ $schema: D07, items: [{ type: "string" }] }, { draft07: "upgrade" }).isValid(["a", 1]),
      true,
    );
  });

  test("refusals are SchemaErrors: upgrade_blocked with the pointer, a limit as LimitError, bad options", () => {
    assert.throws(
      () => compile({ $schema: D2019, $anchor: "a:b" }, { legacyDialects: "upgrade" }),
      (e: unknown) => e instanceof SchemaError && e.code === "upgrade_blocked" && e.schemaPointer === "/$anchor",
    );
    assert.throws(
      () =>
        compile(
          { $schema: D04, properties: { a: {}, b: {}, c: {} } },
          { legacyDialects: "upgrade", limits: { maxSchemaNodes: 2 } },
        ),
      (e: unknown) => e instanceof LimitError && e.limit === "maxSchemaNodes" && e.value === 2,
    );
    assert.throws(
      () => compile({}, { legacyDialects: "yes" as never }),
      (e: unknown) => e instanceof SchemaError && e.code === "options_invalid" && /legacyDialects/.test(e.message),
    );
  });
});

describe("ToolCatalog.admitBatch and Conversation", () => {
  const batch = () => [
    tool("a", draft04(), { outputSchema: draft2019() }),
    tool("b", { type: "object" }),
    tool("c", { $schema: D07, type: "object" }, { revision: "r7" }),
  ];

  test("one option admits every older dialect and records each upgrade", () => {
    const r = ToolCatalog.admitBatch(batch(), { backends: ["b"], legacyDialects: "upgrade" });
    if (!r.ok) assert.fail(r.error.message);
    assert.deepEqual(r.value.accepted, ["a", "b", "c"]);
    assert.deepEqual(
      r.value.upgraded.map((u) => [u.name, u.schema]),
      [
        ["a", "inputSchema"],
        ["a", "outputSchema"],
        ["c", "inputSchema"],
      ],
    );
    const strict = ToolCatalog.admitBatch(batch(), { backends: ["b"], draft07: "upgrade" });
    assert.equal(strict.ok, false, "draft07 alone leaves draft-04 and 2019-09 refused");
    const quarantined = ToolCatalog.admitBatch(batch(), { backends: ["b"], mode: "quarantine", draft07: "upgrade" });
    assert.ok(quarantined.ok);
    assert.deepEqual(quarantined.value.accepted, ["b", "c"]);
  });

  test("a conversation keeps the option through updates, checkpoints and restores", () => {
    const tools = batch();
    assert.equal(Conversation.tryStart({ tools, backends: ["b"] }).ok, false);
    const c = Conversation.start({ tools, backends: ["b"], legacyDialects: "upgrade" });
    assert.deepEqual(c.current.accepted, ["a", "b", "c"]);
    const checkpoint = JSON.parse(JSON.stringify(c.checkpoint()));
    assert.equal(checkpoint.legacyDialects, "upgrade");
    assert.equal(checkpoint.draft07, undefined, "draft07 is recorded only when the host gave it");
    assert.ok(Conversation.restore(checkpoint, { tools, backends: ["b"] }).ok, "restored with the checkpoint's option");
    assert.equal(c.updateCatalog(tools, { legacyDialects: "refuse" }).ok, false, "an update may turn it off");
    const edited = { ...checkpoint, legacyDialects: "sometimes" };
    assert.equal(refused(Conversation.restore(edited, { tools, backends: ["b"] }) as never).code, "checkpoint_invalid");
  });
});
