import assert from "node:assert/strict";
import { test } from "node:test";
import { InputSchema, SchemaCache, ToolCatalog } from "../../../src/index.js";
import { canonicalJson } from "../../../src/runtime/boundary/schema-cache.js";

const compiled = (schema: unknown, cache: SchemaCache, extra = {}) => {
  const r = InputSchema.validateSchema(schema, { cache, ...extra });
  assert.ok(r.ok);
  return r.value;
};

test("structurally identical schemas compile once; each keeps its own schema object", () => {
  const cache = new SchemaCache();
  const a = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
  const b = { required: ["q"], properties: { q: { type: "string" } }, type: "object" };
  const ca = compiled(a, cache);
  const cb = compiled(b, cache);
  assert.equal(ca.validator, cb.validator);
  assert.equal(ca.schema, a);
  assert.equal(cb.schema, b);
  assert.equal(cache.hits, 1);
  assert.notEqual(compiled({ ...a, required: ["r"] }, cache).validator, ca.validator);
  assert.notEqual(compiled(a, cache, { formatAssertion: true }).validator, ca.validator, "options are part of the key");
  assert.equal(compiled(a, cache, { formatAssertion: false }).validator, ca.validator, "false is the default");
});

test("the cache is bounded (least recently used first) and clearable", () => {
  const cache = new SchemaCache(2);
  const s = (n: number) => ({ type: "object", maxProperties: n });
  const first = compiled(s(1), cache).validator;
  compiled(s(2), cache);
  compiled(s(1), cache);
  compiled(s(3), cache);
  assert.equal(cache.size, 2);
  assert.equal(compiled(s(1), cache).validator, first, "recently used entries stay");
  cache.clear();
  assert.equal(cache.size, 0);
  assert.notEqual(compiled(s(1), cache).validator, first);
});

test("schemas with a registry or loader are not cached (their contents are not part of the key)", () => {
  const cache = new SchemaCache();
  const schema = { type: "object", $ref: "https://example.test/s" };
  compiled(schema, cache, { schemaRegistry: { "https://example.test/s": { type: "object" } } });
  assert.equal(cache.size, 0);
});

test("canonical JSON cannot be confused by data that looks like punctuation", () => {
  assert.notEqual(canonicalJson({ a: "\u0000raw:}" }), canonicalJson({ a: {} }));
  assert.equal(canonicalJson({ b: [1, { d: 2, c: 1 }], a: null }), '{"a":null,"b":[1,{"c":1,"d":2}]}');
  assert.equal(canonicalJson(JSON.parse('{"__proto__": 1}')), '{"__proto__":1}');
});

test("a batch compiles identical tool schemas once", () => {
  const schema = () => ({ type: "object", properties: { path: { type: "string" } } });
  const tools = ["a", "b", "c"].map((name) => ({ name, revision: "1", backend: "fs", inputSchema: schema() }));
  const r = ToolCatalog.admitBatch(tools, { backends: ["fs"] });
  assert.ok(r.ok);
  const validators = new Set(["a", "b", "c"].map((n) => r.value.registry.get(n)?.compiled.validator));
  assert.equal(validators.size, 1);
  assert.equal(r.value.registry.get("b")?.inputSchema, tools[1]?.inputSchema);
});
