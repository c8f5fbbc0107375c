/**
 * `checkCatalog`: one request's tools — the provider-ready list in input order, refused tools left out, the
 * reversible name map, collisions refused on both sides, and the per-request budgets summed over what is sent.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkCatalog } from "../../../src/index.js";

const open = { type: "object", properties: { q: { type: "string" } } };

/** The name an OpenAI request entry carries. */
const nameOf = (tool: unknown) => (tool as { function: { name: string } }).function.name;

test("the name map takes a provider's tool call back to its MCP tool, both ways", () => {
  const tools = ["github.create_issue", "github.list_issues", "search"].map((name) => ({ name, inputSchema: open }));
  const catalog = checkCatalog(tools, "openai");
  assert.deepEqual(catalog.errors, []);
  assert.deepEqual(catalog.tools.map(nameOf), ["github_create_issue", "github_list_issues", "search"]);
  assert.equal(catalog.names.mcpName("github_create_issue"), "github.create_issue");
  assert.equal(catalog.names.providerName("github.list_issues"), "github_list_issues");
  assert.equal(catalog.names.mcpName("github.create_issue"), undefined);
  assert.deepEqual(catalog.names.renamed(), [
    ["github.create_issue", "github_create_issue"],
    ["github.list_issues", "github_list_issues"],
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(catalog.names))[2], { mcp: "search", provider: "search" });
});

test("two tools with one provider name are both refused, and neither is sent", () => {
  const catalog = checkCatalog(
    [
      { name: "fs.read", inputSchema: open },
      { name: "fs_read", inputSchema: open },
      { name: "other", inputSchema: open },
    ],
    "anthropic",
  );
  assert.equal(catalog.tools.length, 1);
  for (const name of ["fs.read", "fs_read"]) {
    const report = catalog.report.get(name);
    assert.equal(report?.outcome, "refused");
    assert.equal(report?.error?.rule, "tool-name-collision");
    assert.equal(report?.tool, undefined);
  }
  assert.equal(catalog.names.mcpName("fs_read"), undefined);
  assert.equal(catalog.report.get("other")?.outcome, "fits");
});

test("refused tools are reported and left out; the rest keep their input order", () => {
  const catalog = checkCatalog(
    [
      { name: "a", inputSchema: open },
      { name: "b", inputSchema: { type: "object", properties: { t: { type: "array" } } } },
      { name: "c", inputSchema: open },
    ],
    "openai",
  );
  assert.deepEqual([...catalog.report.keys()], ["a", "b", "c"]);
  assert.equal(catalog.report.get("b")?.error?.rule, "array-items");
  assert.deepEqual(catalog.tools.map(nameOf), ["a", "c"]);
  assert.equal(catalog.usage.tools, 2);
});

test("Anthropic's strict budgets are summed over the strict tools sent (optional and union parameters)", () => {
  const schema = (optional: number, unions: number) => ({
    type: "object",
    properties: {
      ...Object.fromEntries(Array.from({ length: optional }, (_, i) => [`o${i}`, { type: "string" }])),
      ...Object.fromEntries(Array.from({ length: unions }, (_, i) => [`u${i}`, { type: ["string", "null"] }])),
    },
    required: Array.from({ length: unions }, (_, i) => `u${i}`),
    additionalProperties: false,
  });
  const catalog = checkCatalog(
    [
      { name: "a", inputSchema: schema(10, 6) },
      { name: "b", inputSchema: schema(10, 6) },
      { name: "c", inputSchema: schema(5, 5) },
    ],
    "anthropic-strict",
  );
  assert.deepEqual(catalog.usage, { tools: 3, strictTools: 3, optionalParameters: 25, unionParameters: 17 });
  assert.deepEqual(
    catalog.errors.map((e) => e.rule),
    ["max-optional-parameters", "max-union-parameters"],
  );
  // The same tools for the non-strict profile: no budgets.
  assert.deepEqual(checkCatalog([{ name: "a", inputSchema: schema(30, 20) }], "anthropic").errors, []);
});

test("optional parameters are counted through nested objects, items and references, at each use", () => {
  const schema = {
    type: "object",
    properties: {
      filter: { $ref: "#/$defs/filter" },
      again: { $ref: "#/$defs/filter" },
      rows: {
        type: "array",
        items: { type: "object", properties: { x: { type: "string" } }, additionalProperties: false },
      },
    },
    required: ["filter", "again", "rows"],
    additionalProperties: false,
    $defs: {
      filter: {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        additionalProperties: false,
      },
    },
  };
  const check = checkCatalog([{ name: "t", inputSchema: schema }], "anthropic-strict");
  assert.equal(check.usage.optionalParameters, 5);
});

test("a strict tool over a budget on its own is refused by the tool check too", () => {
  const properties = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`o${i}`, { type: "string" }]));
  const catalog = checkCatalog(
    [{ name: "t", inputSchema: { type: "object", properties, additionalProperties: false } }],
    "anthropic-strict",
  );
  assert.equal(catalog.report.get("t")?.error?.rule, "max-optional-parameters");
  assert.equal(catalog.tools.length, 0);
});

test("not an array of tools is tool_invalid; an empty catalog is an empty request", () => {
  assert.equal(checkCatalog("tools" as never, "openai").errors[0]?.code, "tool_invalid");
  const empty = checkCatalog([], "openai-strict");
  assert.deepEqual([empty.tools.length, empty.report.size, empty.errors.length], [0, 0, 0]);
});
