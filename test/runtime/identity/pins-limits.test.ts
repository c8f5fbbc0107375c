/**
 * The canonical form at admission is bounded by limits derived from admission's own (docs/guide/pins.md): every tool
 * whose schemas admission accepts can be pinned, at the subschema-depth and byte boundaries; what is too large fails
 * closed as `execution_failure`, after work bounded by the limit.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InputSchema, ToolCatalog, type Limits } from "../../../src/index.js";
import { canonicalTool } from "../../../src/runtime/identity/tool-identity.js";
import { nested, sharedLevels } from "./helpers.js";

type Json = Record<string, unknown>;
const backends = ["b"];
const tool = (inputSchema: Json, extra: Json = {}): Json => ({
  name: "t",
  revision: "r1",
  backend: "b",
  inputSchema,
  ...extra,
});

/** `levels` nested `properties`, each subschema one level deeper than its parent. */
function deepProperties(levels: number): Json {
  let schema: Json = { type: "object" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

function admit(tools: unknown[], limits?: Partial<Limits>) {
  return ToolCatalog.admitBatch(tools, { backends, ...(limits === undefined ? {} : { limits }) });
}

describe("pins within what admission accepts", () => {
  test("a schema nested maxSchemaDepth subschemas deep is admitted and pinned; one more is the engine's limit", () => {
    const atLimit = tool(deepProperties(128));
    const r = admit([atLimit]);
    if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
    assert.equal(r.value.pins["t"], ToolCatalog.canonical(atLimit));
    // Its JSON nests 2 levels per subschema: the canonical form's own default depth limit would refuse it.
    assert.throws(() => canonicalTool(atLimit), { code: "limit_exceeded" });
    const over = admit([tool(deepProperties(129))]);
    assert.ok(!over.ok);
    assert.deepEqual([over.error.code, over.error.cause?.code], ["schema_rejected", "limit_exceeded"]);
    assert.match(over.error.message, /maxSchemaDepth \(128\)/);
  });

  test("a const nested as deep as maxSchemaDepth allows is admitted and pinned; 10,000 arrays deep is refused", () => {
    // The root schema is level 0, `properties` only holds subschemas (no level), `x` is level 1: 127 arrays fit.
    const deep = tool({ type: "object", properties: { x: { const: nested(126) } } });
    const r = admit([deep]);
    if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
    assert.equal(r.value.pins["t"], ToolCatalog.canonical(deep));
    const over = admit([tool({ type: "object", properties: { x: { const: nested(10_000) } } })]);
    assert.ok(!over.ok);
    assert.deepEqual([over.error.code, over.error.cause?.code], ["schema_rejected", "limit_exceeded"]);
    assert.equal(over.error.cause?.schemaPointer, "/properties/x/const" + "/0".repeat(127));
  });

  test("both schemas at maxSchemaBytes, every character one RFC 8785 writes as a six-byte escape, are pinned", () => {
    const limits = { maxSchemaBytes: 2_000 };
    let n = 2_000;
    const schema = (length: number): Json => ({ type: "object", description: "\u0001".repeat(length) });
    while (!InputSchema.validateSchema(schema(n), { limits }).ok) n--;
    // The fields beside the schemas have the remaining 4 × maxSchemaBytes.
    const big = tool(schema(n), { outputSchema: schema(n), description: "x".repeat(7_000) });
    const r = admit([big], limits);
    if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
    assert.ok(new TextEncoder().encode(r.value.pins["t"]).length > 12 * n, "six bytes per character, twice");
  });

  test("the byte budget is 16 × maxSchemaBytes of canonical text: at the boundary admitted, one byte over refused", () => {
    const limits = { maxSchemaBytes: 1_000 };
    const base = tool({ type: "object" }, { description: "" });
    const padding = 16_000 - canonicalTool(base).length;
    const exact = tool({ type: "object" }, { description: "x".repeat(padding) });
    assert.equal(ToolCatalog.canonical(exact, limits).length, 16_000);
    assert.ok(admit([exact], limits).ok);
    const over = admit([tool({ type: "object" }, { description: "x".repeat(padding + 1) })], limits);
    assert.ok(!over.ok);
    assert.deepEqual(
      [over.error.class, over.error.code, over.error.cause?.code],
      ["execution_failure", "tool_invalid", "limit_exceeded"],
    );
    assert.match(over.error.message, /maxSchemaBytes \(16000\)/);
  });

  test("a shared object in a non-schema field stops at the byte budget, reading at most that many objects", () => {
    const { root, visits } = sharedLevels(40);
    const r = admit([tool({ type: "object" }, { annotations: { shared: root } })], { maxSchemaBytes: 1_000 });
    assert.ok(!r.ok);
    assert.deepEqual([r.error.class, r.error.cause?.code], ["execution_failure", "limit_exceeded"]);
    // Each object listed writes at least five bytes: the listings are bounded by the 16,000-byte budget.
    assert.ok(visits() <= 16_000 / 5, `${visits()} listings`);
  });
});
