/**
 * Hostile input is normal input: `__proto__` is an ordinary name in schemas and tool names, a throwing getter or a
 * value that is not JSON is `tool_invalid`, and a deep or exploding schema hits a limit (`execution_failure` /
 * `limit_exceeded`) before the stack does. Nothing throws.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkCatalog, checkTool } from "../../../src/index.js";
import { sentSchema } from "./verdicts.js";

test("__proto__ as a property name is data, kept as an own property of what is sent", () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","const":"x"}},"$defs":{"__proto__":{"type":"string"}}}',
  );
  const check = checkTool({ name: "t", inputSchema: schema }, "gemini-parameters");
  assert.equal(check.outcome, "translated");
  const sent = sentSchema(check.tool) as { properties: Record<string, unknown> };
  assert.ok(Object.hasOwn(sent.properties, "__proto__"));
  assert.deepEqual(sent.properties["__proto__"], { type: "string", enum: ["x"] });
  assert.equal(Object.getPrototypeOf(sent.properties), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["type"], undefined);
});

test("tool names that are prototype names are names", () => {
  const catalog = checkCatalog(
    ["__proto__", "constructor", "toString"].map((name) => ({ name, inputSchema: { type: "object" } })),
    "openai",
  );
  assert.deepEqual([...catalog.report.keys()], ["__proto__", "constructor", "toString"]);
  assert.equal(catalog.names.mcpName("constructor"), "constructor");
  assert.equal(catalog.tools.length, 3);
});

test("a throwing getter, a function or a cycle in a descriptor is tool_invalid, never a throw", () => {
  const getter = {
    name: "t",
    get inputSchema(): unknown {
      throw new Error("boom");
    },
  };
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic["properties"] = { self: cyclic };
  for (const descriptor of [
    getter,
    { name: "t", inputSchema: { type: "object", properties: { f: () => 1 } } },
    { name: "t", inputSchema: cyclic },
    "not a tool",
    null,
  ]) {
    const check = checkTool(descriptor, "openai-strict");
    assert.equal(check.outcome, "refused");
    assert.equal(check.error?.code, "tool_invalid", String(check.error?.message));
  }
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error("no keys");
      },
    },
  );
  assert.equal(checkCatalog([proxy], "openai").report.get("")?.error?.code, "tool_invalid");
});

test("a schema deeper than the walk's limit is limit_exceeded, not a stack overflow", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 20_000; i++) deep = { type: "object", properties: { a: deep } };
  const check = checkTool({ name: "t", inputSchema: deep }, "gemini-parameters");
  assert.equal(check.error?.class, "execution_failure");
  assert.equal(check.error?.code, "limit_exceeded");
  const shallow = checkTool(
    { name: "t", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
    "openai",
    {
      limits: { maxSchemaDepth: 0 },
    },
  );
  assert.equal(shallow.error?.code, "limit_exceeded");
});

test("a deep annotation value is a limit too (JSON equality and copies are bounded)", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 5_000; i++) deep = [deep];
  const schema = {
    type: "object",
    properties: { a: { $ref: "#/$defs/a", default: deep } },
    $defs: { a: { default: [deep] } },
  };
  for (const profile of ["gemini-parameters", "openai"]) {
    const check = checkTool({ name: "t", inputSchema: schema }, profile);
    assert.equal(check.error?.code, "limit_exceeded", profile);
  }
});

test("references that double at each level hit the node limit when inlined, instead of growing without bound", () => {
  const defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= 40; i++)
    defs[`d${i}`] = {
      type: "object",
      properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } },
    };
  const schema = { type: "object", properties: { top: { $ref: "#/$defs/d40" } }, $defs: defs };
  const check = checkTool({ name: "t", inputSchema: schema }, "gemini-parameters");
  assert.equal(check.error?.code, "limit_exceeded");
  assert.match(check.error?.message ?? "", /maxSchemaNodes/);
  // The same schema where references are kept is checked at once.
  assert.notEqual(checkTool({ name: "t", inputSchema: schema }, "gemini-json-schema").error?.code, "limit_exceeded");
});
