/** Standard Schema v1 + Standard JSON Schema for compiled validators: spec types, a generic consumer, paths. */

import assert from "node:assert/strict";
import { test } from "node:test";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { pathOf, standardSchemaOf, type StandardSchemaSource } from "../../src/engine/output/standard-schema.js";
import { compile } from "../../src/index.js";

/** A consumer written only against the spec, as a form or RPC library would be. */
async function parseWith<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Promise<
  | { ok: true; value: StandardSchemaV1.InferOutput<S> }
  | { ok: false; messages: string[]; paths: (readonly PropertyKey[])[] }
> {
  let result = schema["~standard"].validate(value);
  if (result instanceof Promise) result = await result;
  if (result.issues) {
    return {
      ok: false,
      messages: result.issues.map((i) => i.message),
      paths: result.issues.map((i) => (i.path ?? []).map((seg) => (typeof seg === "object" ? seg.key : seg))),
    };
  }
  return { ok: true, value: result.value };
}

/** A consumer of the JSON Schema extension. */
function toolDefinition(
  name: string,
  schema: StandardJSONSchemaV1,
): { name: string; inputSchema: Record<string, unknown> } {
  return { name, inputSchema: schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) };
}

const schema = {
  type: "object",
  properties: {
    tags: { type: "array", items: { type: "string" } },
    "a/b~c": { type: "integer" },
    "0": { type: "object", properties: { "1": { type: "boolean" } } },
  },
  required: ["tags"],
};

function wrapped(s: unknown): StandardSchemaV1 & StandardJSONSchemaV1 {
  const validator = compile(s);
  return { "~standard": standardSchemaOf(validator) };
}

test("satisfies the @standard-schema/spec types (Standard Schema and Standard JSON Schema)", () => {
  const validator = compile(schema);
  const s: StandardSchemaV1 = { "~standard": standardSchemaOf(validator) };
  const j: StandardJSONSchemaV1 = { "~standard": standardSchemaOf(validator) };
  const props: StandardSchemaV1.Props<{ tags: string[] }> = standardSchemaOf<{ tags: string[] }>(validator);
  assert.equal(s["~standard"].version, 1);
  assert.equal(j["~standard"].vendor, "backplane-agent-runtime");
  assert.equal(props, standardSchemaOf(validator), "the same object for the same validator");
  assert.ok(Object.isFrozen(props));
});

test("a valid value comes back as the very same reference, no issues", async () => {
  const value = { tags: ["x"], "a/b~c": 3 };
  const r = await parseWith(wrapped(schema), value);
  assert.equal(r.ok, true);
  assert.ok(r.ok);
  assert.equal(r.value, value);
  const direct = standardSchemaOf(compile(schema)).validate(value);
  assert.equal(direct.issues, undefined);
});

test("issues carry the message and a decoded path; array indices are numbers, object keys stay strings", async () => {
  const r = await parseWith(wrapped(schema), { tags: ["x", 7], "a/b~c": "no", "0": { "1": "no" } });
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.deepEqual(
    r.paths.map((p) => JSON.stringify(p)).sort(),
    [JSON.stringify(["0", "1"]), JSON.stringify(["a/b~c"]), JSON.stringify(["tags", 1])].sort(),
  );
  for (const m of r.messages) assert.match(m, /\S/);
  const missing = await parseWith(wrapped(schema), {});
  assert.ok(!missing.ok);
  assert.deepEqual(missing.paths, [[]]);
  assert.match(missing.messages[0]!, /tags/);
});

test("boolean and non-object roots", async () => {
  assert.deepEqual(await parseWith(wrapped(true), 1), { ok: true, value: 1 });
  const f = await parseWith(wrapped(false), 1);
  assert.equal(f.ok, false);
  const arr = await parseWith(wrapped({ items: { type: "string" } }), ["a", 2]);
  assert.ok(!arr.ok);
  assert.deepEqual(arr.paths, [[1]]);
});

test("pathOf decodes JSON Pointers against the actual value", () => {
  assert.deepEqual(pathOf({ a: [{ b: 1 }] }, "/a/0/b"), ["a", 0, "b"]);
  assert.deepEqual(
    pathOf({ a: { "0": 1 } }, "/a/0"),
    ["a", "0"],
    "an object key that looks like an index stays a string",
  );
  assert.deepEqual(pathOf([1], "/01"), ["01"], "a non-canonical index is a key");
  assert.deepEqual(pathOf({ "~/": 1 }, "/~0~1"), ["~/"]);
  assert.deepEqual(pathOf({ "": 1 }, "/"), [""]);
  assert.deepEqual(
    pathOf(JSON.parse('{"__proto__":[0,1]}'), "/__proto__/1"),
    ["__proto__", 1],
    "__proto__ is an own key, read as data",
  );
  assert.deepEqual(pathOf({ a: 1 }, ""), []);
});

test("jsonSchema.input/output return a copy of the schema for draft-2020-12 and throw for other targets", () => {
  const s = wrapped(schema);
  const def = toolDefinition("t", s);
  assert.deepEqual(def.inputSchema, schema);
  assert.notEqual(def.inputSchema, schema, "a copy: callers cannot alter the compiled schema");
  (def.inputSchema["properties"] as Record<string, unknown>)["tags"] = {};
  assert.deepEqual(s["~standard"].jsonSchema.output({ target: "draft-2020-12" }), schema);
  assert.throws(() => s["~standard"].jsonSchema.input({ target: "draft-07" }), /draft-07.*not supported/);
  assert.throws(() => s["~standard"].jsonSchema.output({ target: "openapi-3.0" }), /not supported/);
  assert.deepEqual(wrapped(true)["~standard"].jsonSchema.input({ target: "draft-2020-12" }), {});
  assert.deepEqual(wrapped(false)["~standard"].jsonSchema.input({ target: "draft-2020-12" }), { not: {} });
});

test("a __proto__ property name is copied as data", () => {
  const withProto = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
  const out = wrapped(withProto)["~standard"].jsonSchema.input({ target: "draft-2020-12" });
  const props = out["properties"] as Record<string, unknown>;
  assert.ok(Object.hasOwn(props, "__proto__"));
  assert.equal(Object.getPrototypeOf(props), Object.prototype);
  assert.deepEqual(props["__proto__"], { type: "string" });
});

test("every compiled Validator is a Standard Schema and a Standard JSON Schema", () => {
  const validator = compile(schema);
  const source: StandardSchemaSource = validator; // type level: Validator fits standardSchemaOf
  assert.equal(standardSchemaOf(source), standardSchemaOf(validator));
  const s: StandardSchemaV1 & StandardJSONSchemaV1 = validator;
  assert.equal(s["~standard"], standardSchemaOf(validator), "the getter returns the cached object");
  assert.equal(s["~standard"].vendor, "backplane-agent-runtime");
  assert.deepEqual(s["~standard"].jsonSchema.input({ target: "draft-2020-12" }), schema);
});
