/**
 * The property-key rule where the public record puts it (issue 31): Anthropic's `Property keys should match pattern
 * '^[a-zA-Z0-9_.-]{1,64}$'` and Gemini's "Parameter names must …" are reported for a tool's own parameters, the
 * root's keys, so the built-in profiles say `propertyKeyScope: "top-level"` and a nested key (a MongoDB aggregation
 * stage such as `$match`) is not refused on a rule nobody has seen applied there. A profile that says `every-level`,
 * or says nothing, keeps the stricter reading.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkTool, defineProfile, profiles, ToolCatalog, type ProviderProfile } from "../../../src/index.js";

/** Shaped like a MongoDB server's `aggregate` tool: stage objects whose keys are operators. */
const aggregate = {
  name: "aggregate",
  description: "Run an aggregation pipeline.",
  inputSchema: {
    type: "object",
    properties: {
      collection: { type: "string" },
      pipeline: {
        type: "array",
        items: {
          type: "object",
          properties: {
            $match: { type: "object", additionalProperties: false },
            $sort: { type: "object", additionalProperties: false },
            $limit: { type: "integer" },
          },
          additionalProperties: false,
        },
      },
    },
    required: ["collection", "pipeline"],
    additionalProperties: false,
  },
};

const topLevel = { ...aggregate, inputSchema: { ...aggregate.inputSchema, properties: { "filter[id]": {} } } };

const builtIn = (id: string) => profiles.get(id) as ProviderProfile;

test("the built-in profiles with a key rule say in their data that the record shows it at the top level", () => {
  const scoped = [...profiles.values()].filter((p) => p.structure.propertyKeys !== undefined);
  assert.deepEqual(
    scoped.map((p) => [p.id, p.structure.propertyKeyScope]),
    [
      ["anthropic-strict@2026-10", "top-level"],
      ["anthropic@2026-10", "top-level"],
      ["gemini-parameters@2026-10", "top-level"],
    ],
  );
});

test("a nested key outside the pattern is not refused; a top-level one still is", () => {
  for (const id of ["anthropic@2026-10", "gemini-parameters@2026-10"]) {
    const nested = checkTool(aggregate, builtIn(id));
    assert.ok(!nested.problems.some((p) => p.rule === "property-key"), `${id}: ${JSON.stringify(nested.problems)}`);
    const root = checkTool(topLevel, builtIn(id));
    assert.equal(root.outcome, "refused");
    assert.deepEqual(
      root.problems.filter((p) => p.rule === "property-key").map((p) => p.schemaPointer),
      ["/properties/filter[id]"],
    );
  }
  // Nothing else in the tool stops Anthropic: it is sent as published.
  assert.equal(checkTool(aggregate, "anthropic").outcome, "fits");
  assert.equal(checkTool(aggregate, "anthropic-strict").outcome, "fits");
});

test("a profile that says every-level, or says nothing, refuses the nested key", () => {
  const base = builtIn("anthropic@2026-10");
  const every = defineProfile({
    ...base,
    name: "every-level",
    structure: { ...base.structure, propertyKeyScope: "every-level" },
  });
  const { propertyKeyScope: _scope, ...silent } = base.structure;
  const unsaid = defineProfile({ ...base, name: "unsaid", structure: silent });
  for (const result of [every, unsaid]) {
    assert.ok(result.ok);
    const check = checkTool(aggregate, result.value);
    assert.equal(check.outcome, "refused");
    assert.deepEqual(
      check.problems.map((p) => [p.rule, p.schemaPointer]),
      [
        ["property-key", "/properties/pipeline/items/properties/$match"],
        ["property-key", "/properties/pipeline/items/properties/$sort"],
        ["property-key", "/properties/pipeline/items/properties/$limit"],
      ],
    );
  }
});

test("at admission, an Anthropic target takes the tool", () => {
  const admitted = ToolCatalog.admitBatch([{ ...aggregate, revision: "1" }], { targets: ["anthropic-strict"] });
  assert.ok(admitted.ok, admitted.ok ? "" : admitted.error.message);
  assert.equal(admitted.value.forTarget("anthropic-strict")?.report.get("aggregate")?.outcome, "fits");
});
