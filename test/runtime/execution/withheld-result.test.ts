/**
 * A withheld result says nothing of its values (docs/guide/admission.md "What a model is told"):
 * the model text of a refused result names locations and constraints, never an instance value or an instance key the
 * schema does not itself declare. The host keeps the full errors on `cause`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Execution,
  OutputSchema,
  ToolCatalog,
  type ExecutionError,
  type OutputSchemaOptions,
} from "../../../src/index.js";
import { tool } from "../helpers.js";

const SECRET = "4111-1111-1111-1111";
const KEY = "sk_live_4242";
const NUMBER = 41111111.5;

/** [label, output schema, structured content, what the model text must still name, options]. */
type Case = [string, unknown, unknown, RegExp, OutputSchemaOptions?];

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

const cases: Case[] = [
  ["const", object({ card: { const: "x" } }), { card: SECRET }, /\/card: must be "x" .*"const" at \/properties\/card/],
  ["enum", object({ card: { enum: ["a", "b"] } }), { card: SECRET }, /\/card: must be one of "a", "b"/],
  ["pattern", object({ card: { pattern: "^x" } }), { card: SECRET }, /must match the pattern "\^x"/],
  [
    "format",
    object({ mail: { format: "email" } }),
    { mail: SECRET },
    /must be a valid email/,
    { formatAssertion: true },
  ],
  ["type", object({ n: { type: "integer" } }), { n: NUMBER }, /\/n: must be integer/],
  ["type of a string", object({ n: { type: "integer" } }), { n: SECRET }, /\/n: must be integer/],
  ["maxLength", object({ card: { maxLength: 3 } }), { card: SECRET }, /at most 3 characters/],
  ["minLength", object({ card: { minLength: 30 } }), { card: SECRET }, /at least 30 characters/],
  ["minimum", object({ n: { minimum: 0 } }), { n: -NUMBER }, /must be at least 0/],
  ["exclusiveMaximum", object({ n: { exclusiveMaximum: 1 } }), { n: NUMBER }, /must be less than 1/],
  ["multipleOf", object({ n: { multipleOf: 7 } }), { n: 41111111 }, /multiple of 7/],
  [
    "additionalProperties: false",
    object({ a: {} }, { additionalProperties: false }),
    { [KEY]: SECRET },
    /"additionalProperties"/,
  ],
  [
    "additionalProperties with a schema",
    object({}, { additionalProperties: { type: "integer" } }),
    { [KEY]: SECRET },
    /\(result\)\/\*: must be integer|\/\*: must be integer/,
  ],
  ["propertyNames", object({}, { propertyNames: { maxLength: 3 } }), { [KEY]: 1 }, /"maxLength" at \/propertyNames/],
  ["propertyNames pattern", object({}, { propertyNames: { pattern: "^a" } }), { [KEY]: 1 }, /pattern "\^a"/],
  [
    "patternProperties",
    object({}, { patternProperties: { "^sk_": { type: "integer" } } }),
    { [KEY]: SECRET },
    /\/\*: must be integer .*patternProperties\/\^sk_/,
  ],
  ["unevaluatedProperties", object({ a: {} }, { unevaluatedProperties: false }), { [KEY]: SECRET }, /unevaluated/],
  ["required", object({}, { required: ["id"] }), { [KEY]: SECRET }, /required property "id"/],
  ["dependentRequired", object({}, { dependentRequired: { a: ["b"] } }), { a: SECRET }, /"b" when "a" is present/],
  [
    "dependentSchemas",
    object({}, { dependentSchemas: { a: { properties: { b: { const: 1 } } } } }),
    { a: 1, b: SECRET },
    /\/b: must be 1/,
  ],
  ["items", { type: "array", items: { const: "x" } }, [SECRET], /\/0: must be "x"/],
  ["prefixItems", { type: "array", prefixItems: [{ enum: ["a"] }] }, [SECRET], /\/0: must be "a"/],
  ["items: false", { type: "array", prefixItems: [true], items: false }, [1, SECRET], /at most 1 item/],
  ["uniqueItems", { type: "array", uniqueItems: true }, [SECRET, SECRET], /items 0 and 1/],
  ["contains", { type: "array", contains: { const: "x" } }, [SECRET], /at least 1 item/],
  ["unevaluatedItems", { type: "array", prefixItems: [true], unevaluatedItems: false }, [1, SECRET], /unevaluated/],
  ["anyOf", object({ v: { anyOf: [{ const: "a" }, { const: "b" }] } }), { v: SECRET }, /\/v: must be one of "a", "b"/],
  ["oneOf", object({ v: { oneOf: [{ type: "integer" }, { type: "integer" }] } }), { v: SECRET }, /oneOf/],
  ["not", object({ v: { not: { type: "string" } } }), { v: SECRET }, /must not match/],
  ["a false schema", object({ v: false }), { v: SECRET }, /\/v: no value is allowed here/],
  ["if/then", { if: { required: ["a"] }, then: object({ a: { const: 1 } }) }, { a: SECRET }, /\/a: must be 1/],
  ["$ref", { $defs: { s: { const: "x" } }, properties: { a: { $ref: "#/$defs/s" } } }, { a: SECRET }, /\$ref/],
  ["maxProperties", object({}, { maxProperties: 1 }), { [KEY]: SECRET, b: 2 }, /at most 1 property/],
  ["enum of an object", object({ v: { enum: [1] } }), { v: { [KEY]: SECRET } }, /must be 1/],
  [
    "a key nested under additionalProperties",
    object({ outer: { additionalProperties: object({ x: { const: 1 } }) } }),
    { outer: { [KEY]: { x: SECRET } } },
    /\/outer\/\*\/x: must be 1/,
  ],
  [
    "contentEncoding",
    object({ blob: { contentEncoding: "base64" } }),
    { blob: `%${SECRET}%` },
    /base64/,
    { contentAssertion: true },
  ],
];

function assertWithheld(text: string): void {
  for (const secret of [SECRET, KEY, String(NUMBER), "4111", "4242"]) {
    assert.ok(!text.includes(secret), `the model text quotes ${secret}:\n${text}`);
  }
}

describe("OutputSchema: the model text of a refused value names locations and constraints only", () => {
  for (const [label, schema, value, mentions, options] of cases) {
    test(label, () => {
      const r = OutputSchema.validate(schema, value, options);
      assert.ok(!r.ok);
      assert.equal(r.error.code, "output_invalid");
      const text = r.error.toModelText();
      assert.match(text, /^The tool's result does not match its output schema \(\d+ problems?\):\n- /);
      assert.match(text, mentions);
      assertWithheld(text);
      // The host keeps the full errors.
      assert.ok((r.error.errors ?? []).length > 0);
    });
  }
  test("the host's errors still quote the refused values", () => {
    const r = OutputSchema.validate(object({ card: { const: "x" } }), { card: SECRET });
    assert.ok(!r.ok);
    assert.ok(JSON.stringify(r.error.errors).includes(SECRET));
    assert.ok(r.error.message.includes(SECRET));
  });
  test("arguments are withheld too: the model text names locations and constraints, never an argument value", () => {
    const r = ToolCatalog.admitBatch([tool("t", object({ card: { const: "x" } }))], { backends: ["b"] });
    assert.ok(r.ok);
    const checked = r.value.registry.get("t")!.compiled.validate({ card: SECRET });
    assert.ok(!checked.ok);
    const text = checked.error.toModelText();
    assert.ok(!text.includes(SECRET), text);
    assert.match(text, /^The arguments do not match the tool's input schema \(1 problem\):\n- \/card: must be "x"/);
    // The host still has the whole story, the value included.
    assert.ok(checked.error.errors?.some((e) => e.error?.includes(SECRET)));
  });
});

describe("Execution.invoke: a withheld result's modelText says nothing of its values", () => {
  const withOutput = (outputSchema: unknown, options: Record<string, unknown> = {}) => {
    const r = ToolCatalog.admitBatch([tool("t", { type: "object" }, { outputSchema })], {
      backends: ["b"],
      ...options,
    });
    assert.ok(r.ok, r.ok ? "" : r.error.message);
    return r.value;
  };
  const invoke = async (outputSchema: unknown, result: unknown, options?: Record<string, unknown>) => {
    const r = (await Execution.invoke(
      withOutput(outputSchema, options),
      { name: "t" },
      { dispatch: () => result },
    )) as {
      ok: boolean;
      error: ExecutionError;
    };
    assert.equal(r.ok, false);
    assert.equal(r.error.stage, "result");
    assert.equal(r.error.detail, result, "the host keeps the result");
    return r.error;
  };
  for (const [label, schema, value, mentions, options] of cases) {
    test(label, async () => {
      const e = await invoke(schema, { content: [], structuredContent: value }, options);
      assert.equal(e.code, "output_invalid");
      assert.match(e.modelText, mentions);
      assertWithheld(e.modelText);
    });
  }
  test("a result that is not a CallToolResult object", async () => {
    const e = await invoke({ type: "object" }, SECRET);
    assert.equal(e.code, "output_invalid");
    assertWithheld(e.modelText);
    assert.ok(e.message.includes("4111"), "the host message may quote it");
  });
  test("structuredContent that is not JSON, under a key the schema does not declare", async () => {
    const e = await invoke({ type: "object" }, { content: [], structuredContent: { [KEY]: () => SECRET } });
    assert.equal(e.code, "output_invalid");
    assertWithheld(e.modelText);
  });
  test("a limit hit under a key the schema does not declare", async () => {
    const e = await invoke(
      { type: "object" },
      { content: [], structuredContent: { [KEY]: SECRET } },
      {
        limits: { maxStringLength: 4 },
      },
    );
    assert.equal(e.code, "limit_exceeded");
    assertWithheld(e.modelText);
  });
});
