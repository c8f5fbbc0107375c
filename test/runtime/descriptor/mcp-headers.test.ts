/** `x-mcp-header` (MCP 2026-07-28): the specification's example admitted, every rule's violation refused per tool. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Execution, ToolCatalog, type AdmitOptions } from "../../../src/index.js";

/** The specification's own example (server/tools §x-mcp-header). */
const executeSql = () => ({
  name: "execute_sql",
  revision: "1",
  description: "Execute SQL on Google Cloud Spanner",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", description: "The region to execute the query in", "x-mcp-header": "Region" },
      query: { type: "string", description: "The SQL query to execute" },
    },
    required: ["region", "query"],
  },
});

const withSchema = (name: string, inputSchema: Record<string, unknown>) => ({ name, revision: "1", inputSchema });

describe("x-mcp-header at admission", () => {
  test("the specification's example is admitted and its header listed with its property's place", () => {
    const r = ToolCatalog.admitBatch([executeSql()]);
    assert.ok(r.ok);
    assert.deepEqual(r.value.registry.get("execute_sql")?.headers, [
      { name: "Region", schemaPointer: "/properties/region", path: ["region"], types: ["string"] },
    ]);
  });

  test("a chain of properties keys is statically reachable; integer, boolean and nullable types are allowed", () => {
    const schema = {
      type: "object",
      properties: {
        tenant: {
          type: "object",
          properties: {
            id: { type: "integer", "x-mcp-header": "Tenant-Id" },
            beta: { type: ["boolean", "null"], "x-mcp-header": "Beta" },
          },
        },
      },
    };
    const r = ToolCatalog.admitBatch([withSchema("t", schema)]);
    assert.ok(r.ok);
    assert.deepEqual(
      r.value.registry.get("t")?.headers.map((h) => [h.name, h.schemaPointer, h.path.join("."), h.types.join()]),
      [
        ["Tenant-Id", "/properties/tenant/properties/id", "tenant.id", "integer"],
        ["Beta", "/properties/tenant/properties/beta", "tenant.beta", "boolean"],
      ],
    );
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    [
      "a space in the name",
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "Bad Header" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "a number property",
      { type: "object", properties: { a: { type: "number", "x-mcp-header": "Amount" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "an empty name",
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "CR LF in the name",
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "A\r\nX-Evil: 1" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "a name that is not a string",
      { type: "object", properties: { a: { type: "string", "x-mcp-header": 7 } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "a property without a type",
      { type: "object", properties: { a: { "x-mcp-header": "A" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "an object property",
      { type: "object", properties: { a: { type: "object", "x-mcp-header": "A" } } },
      "/properties/a/x-mcp-header",
    ],
    [
      "two names equal but for case",
      {
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "Region" },
          b: { type: "string", "x-mcp-header": "region" },
        },
      },
      "/properties/b/x-mcp-header",
    ],
    [
      "under items",
      { type: "object", properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } },
      "/properties/a/items/x-mcp-header",
    ],
    [
      "under oneOf",
      { type: "object", oneOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] },
      "/oneOf/0/properties/a/x-mcp-header",
    ],
    [
      "under if",
      { type: "object", if: { properties: { a: { type: "string", "x-mcp-header": "A" } } } },
      "/if/properties/a/x-mcp-header",
    ],
    [
      "behind $ref",
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/a" } },
        $defs: { a: { type: "string", "x-mcp-header": "A" } },
      },
      "/$defs/a/x-mcp-header",
    ],
    ["on the root", { type: "object", "x-mcp-header": "Root" }, "/x-mcp-header"],
  ];
  for (const [what, schema, pointer] of invalid) {
    test(`refused: ${what} (strict refuses the batch, quarantine the tool)`, () => {
      const strict = ToolCatalog.admitBatch([withSchema("bad", schema)]);
      assert.equal(!strict.ok && strict.error.code, "header_invalid");
      assert.equal(!strict.ok && strict.error.class, "validation");
      assert.equal(!strict.ok && strict.error.schemaPointer, pointer);
      const quarantine = ToolCatalog.admitBatch([executeSql(), withSchema("bad", schema)], { mode: "quarantine" });
      assert.ok(quarantine.ok);
      assert.deepEqual(quarantine.value.accepted, ["execute_sql"]);
      const [rejected] = quarantine.value.rejected;
      assert.deepEqual([rejected?.name, rejected?.status, rejected?.error.code], ["bad", "refused", "header_invalid"]);
      // A host talking to servers over stdio only may ignore the annotations (and gets none listed).
      const ignored = ToolCatalog.admitBatch([withSchema("bad", schema)], { mcpHeaders: "ignore" });
      assert.ok(ignored.ok);
      assert.deepEqual(ignored.value.registry.get("bad")?.headers, []);
    });
  }

  test("a property named x-mcp-header, and the word inside const or default data, are not annotations", () => {
    const schema = {
      type: "object",
      properties: {
        "x-mcp-header": { type: "string", default: { "x-mcp-header": "Nope" } },
        b: { const: { "x-mcp-header": "x y" } },
      },
    };
    const r = ToolCatalog.admitBatch([withSchema("t", schema)]);
    assert.ok(r.ok);
    assert.deepEqual(r.value.registry.get("t")?.headers, []);
  });

  test("the option is checked fail closed", () => {
    const r = ToolCatalog.admitBatch([executeSql()], { mcpHeaders: "off" } as unknown as AdmitOptions);
    assert.equal(!r.ok && r.error.code, "options_invalid");
  });
});

describe("x-mcp-header at call time", () => {
  const counter = withSchema("count", {
    type: "object",
    properties: { shard: { type: "integer", "x-mcp-header": "Shard" }, label: { type: "string" } },
  });

  test("an integer header outside ±(2^53−1) is refused before dispatch, without quoting the value", async () => {
    const r = ToolCatalog.admitBatch([counter]);
    assert.ok(r.ok);
    const dispatched: unknown[] = [];
    const host = { dispatch: (c: unknown) => dispatched.push(c) };
    const tooBig = await Execution.invoke(r.value, { name: "count", arguments: { shard: 2 ** 53 } }, host);
    assert.equal(!tooBig.ok && tooBig.error.code, "arguments_invalid");
    assert.equal(!tooBig.ok && tooBig.error.stage, "arguments");
    assert.equal(!tooBig.ok && tooBig.error.cause?.instancePointer, "/shard");
    assert.match(!tooBig.ok ? tooBig.error.modelText : "", /Mcp-Param-Shard/);
    assert.doesNotMatch(!tooBig.ok ? tooBig.error.modelText : "", /9007199254740992/);
    assert.deepEqual(dispatched, []);
    for (const shard of [2 ** 53 - 1, -(2 ** 53 - 1), 0]) {
      assert.ok((await Execution.invoke(r.value, { name: "count", arguments: { shard } }, host)).ok);
    }
    assert.ok((await Execution.invoke(r.value, { name: "count", arguments: { label: "no header" } }, host)).ok);
    assert.equal(dispatched.length, 4);
  });
});
