/** `fromOpenApi`, the test helper that reads a Gemini `parameters` schema (OpenAPI `nullable`) as 2020-12. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compile } from "../../../src/index.js";
import { fromOpenApi } from "./openapi.js";

const valid = (schema: unknown, value: unknown) => compile(fromOpenApi(schema)).isValid(value);

test("nullable: true adds null to what the schema accepts, and nothing else", () => {
  const schema = { type: "string", minLength: 2, nullable: true };
  assert.equal(valid(schema, null), true);
  assert.equal(valid(schema, "ab"), true);
  assert.equal(valid(schema, "a"), false);
  assert.equal(valid(schema, 3), false);
});

test("nullable: false, or no nullable, accepts no null", () => {
  assert.equal(valid({ type: "string", nullable: false }, null), false);
  assert.equal(valid({ type: "string" }, null), false);
});

test("nested positions are mapped: properties, items, anyOf branches", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "integer", nullable: true },
      b: { type: "array", items: { type: "string", nullable: true } },
      c: { anyOf: [{ type: "string", nullable: true }, { type: "number" }] },
    },
  };
  assert.equal(valid(schema, { a: null, b: ["x", null], c: null }), true);
  assert.equal(valid(schema, { b: [1] }), false);
  assert.equal(valid(schema, { c: true }), false);
});

test("an enum beside nullable: true still admits null (the reading the translations rely on)", () => {
  assert.equal(valid({ type: "string", enum: ["a"], nullable: true }, null), true);
  assert.equal(valid({ type: "string", enum: ["a"], nullable: true }, "b"), false);
});

test("the input is not modified and OpenAPI-only annotations pass through", () => {
  const schema = { type: "object", properties: { a: { type: "string", nullable: true, example: "x" } } };
  const before = JSON.stringify(schema);
  const mapped = fromOpenApi(schema) as { properties: { a: { anyOf: unknown[] } } };
  assert.equal(JSON.stringify(schema), before);
  assert.deepEqual(mapped.properties.a.anyOf[1], { type: "string", example: "x" });
});

test("__proto__ is an ordinary property name", () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","nullable":true}}}');
  const mapped = fromOpenApi(schema) as { properties: Record<string, unknown> };
  assert.ok(Object.hasOwn(mapped.properties, "__proto__"));
  assert.equal(compile(mapped).isValid(JSON.parse('{"__proto__":null}')), true);
  assert.equal(compile(mapped).isValid(JSON.parse('{"__proto__":1}')), false);
});
