/**
 * Widening: only with `widen: true`, only where accepting more in a subschema accepts more overall (never under
 * `not`, `if`, a kept `oneOf` or a bounded `contains`, never in a definition a reference reaches from there), and
 * never when dropping a keyword would make a sibling refuse more (`patternProperties` beside a closed
 * `additionalProperties`, `prefixItems` beside `items`, `minContains: 0`). Each widening is listed with what it
 * dropped, and can be rendered into the description for the model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkTool, defineProfile, profiles, type ProviderProfile } from "../../../src/index.js";
import { toolSchema } from "./arbitraries.js";
import { disagreements, instancesFor, plain, sentSchema } from "./verdicts.js";

type Schema = Record<string, unknown>;
const tool = (inputSchema: Schema) => ({ name: "t", description: "Finds things.", inputSchema });

const geminiJson = profiles.get("gemini-json-schema@2026-10") as ProviderProfile;

/** A profile that keeps the combinators whose subschemas are not positive, and refuses plain assertions. */
const combinators = (() => {
  const keywords = new Set(geminiJson.keywords === "any" ? [] : geminiJson.keywords);
  for (const k of ["not", "if", "then", "else", "oneOf", "allOf", "contains", "minContains", "maxContains"])
    keywords.add(k);
  const result = defineProfile({ ...geminiJson, name: "test-combinators", keywords });
  assert.ok(result.ok);
  return result.value;
})();

test("nothing is widened without widen: true, and the refusal says widening would do", () => {
  const schema = { type: "object", properties: { q: { type: "string", pattern: "^a" } } };
  const check = checkTool(tool(schema), "gemini-json-schema");
  assert.equal(check.outcome, "refused");
  assert.match(check.error?.message ?? "", /widen: true would drop it/);
});

test("the refusal says widening would do only when the tool checked widened is sent (issue 31)", () => {
  // The pattern can be dropped, but the open object stays refused by openai-strict: widening alone is not enough.
  const schema = { type: "object", properties: { q: { type: "string", maxLength: 5 } }, required: ["q"] };
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(checkTool(tool(schema), "openai-strict", { widen: true }).outcome, "refused");
  const maxLength = check.problems.find((p) => p.keyword === "maxLength");
  assert.ok(maxLength !== undefined, JSON.stringify(check.problems));
  assert.doesNotMatch(maxLength.message, /widen: true would drop it for the model/);
  assert.match(
    maxLength.message,
    /widen: true would drop it, but rule closed-objects at "\/additionalProperties" would/,
  );
  // Closed, the same tool is sent widened: then the refusal says so.
  const closed = { ...schema, additionalProperties: false };
  assert.equal(checkTool(tool(closed), "openai-strict", { widen: true }).outcome, "widened");
  assert.match(
    checkTool(tool(closed), "openai-strict").error?.message ?? "",
    /widen: true would drop it for the model/,
  );
  // The output schema's own widened check decides its hint.
  const output = checkTool({ ...tool(closed), outputSchema: schema }, "openai-strict").output;
  assert.match(output?.problems.find((p) => p.keyword === "maxLength")?.message ?? "", /would still refuse the output/);
});

test("a widening lists the pointer, the keyword and what was dropped, and may be described to the model", () => {
  const schema = { type: "object", properties: { email: { type: "string", pattern: "^[^@]+@[^@]+$" } } };
  const check = checkTool(tool(schema), "gemini-json-schema", { widen: true, describeWidening: true });
  assert.equal(check.outcome, "widened");
  assert.deepEqual(
    check.changes.map((c) => [c.pointer, c.keyword, c.kind, c.change, c.dropped]),
    [["/properties/email/pattern", "pattern", "widened", "keyword-dropped", "^[^@]+@[^@]+$"]],
  );
  const description = (check.tool as { description?: string }).description ?? "";
  assert.match(description, /^Finds things\.\n\nAlso checked when called/);
  assert.match(description, /\/properties\/email\/pattern: dropped "pattern" "\^\[\^@\]\+@/);
  const plainCheck = checkTool(tool(schema), "gemini-json-schema", { widen: true });
  assert.equal((plainCheck.tool as { description?: string }).description, "Finds things.");
});

test("nothing under not is widened: dropping there would refuse more", () => {
  const schema = { type: "object", properties: { q: { type: "string", not: { pattern: "^x" } } } };
  const check = checkTool(tool(schema), combinators, { widen: true });
  assert.equal(check.outcome, "refused");
  assert.equal(check.error?.schemaPointer, "/properties/q/not/pattern");
  assert.match(check.error?.message ?? "", /not widened/);
});

test("nothing under if or a kept oneOf is widened", () => {
  const underIf = { type: "object", if: { properties: { a: { minLength: 2 } } }, then: { required: ["b"] } };
  assert.equal(
    checkTool(tool(underIf), combinators, { widen: true }).error?.schemaPointer,
    "/if/properties/a/minLength",
  );
  const underOneOf = {
    type: "object",
    properties: {
      v: {
        oneOf: [
          { type: "string", maxLength: 2 },
          { type: "string", pattern: "^a" },
        ],
      },
    },
  };
  const check = checkTool(tool(underOneOf), combinators, { widen: true });
  assert.equal(check.outcome, "refused");
  // The same under a oneOf the profile rewrites to anyOf (oneOf ⊆ anyOf): positive, so widened.
  assert.equal(checkTool(tool(underOneOf), "gemini-json-schema", { widen: true }).outcome, "widened");
});

test("a definition a reference reaches from under not is not widened, even where another reference is positive", () => {
  const schema = {
    type: "object",
    properties: { a: { $ref: "#/$defs/s" }, b: { not: { $ref: "#/$defs/s" } } },
    $defs: { s: { type: "string", minLength: 3 } },
  };
  const check = checkTool(tool(schema), combinators, { widen: true });
  assert.equal(check.outcome, "refused");
  assert.equal(check.error?.schemaPointer, "/$defs/s/minLength");
});

test("dropping patternProperties beside a closed additionalProperties would refuse its names: refused", () => {
  const closedMap = {
    type: "object",
    patternProperties: { "^x-": { type: "string" } },
    additionalProperties: false,
  };
  assert.equal(checkTool(tool(closedMap), "gemini-json-schema", { widen: true }).error?.keyword, "patternProperties");
  // Gemini parameters refuse additionalProperties too, so both go: a superset again.
  const both = checkTool(tool(closedMap), "gemini-parameters", { widen: true });
  assert.equal(both.outcome, "widened");
  assert.deepEqual(sentSchema(both.tool), { type: "object" });
});

test("dropping prefixItems beside items, or a minContains of 0, would refuse more: refused", () => {
  const tuple = {
    type: "object",
    properties: { p: { type: "array", prefixItems: [{ type: "string" }], items: false } },
  };
  assert.equal(
    checkTool(tool(tuple), "openai-strict", { widen: true }).problems.some((p) => p.keyword === "prefixItems"),
    true,
  );
  // Without minContains, contains needs one match: where contains stays, dropping `minContains: 0` narrows.
  const keywords = new Set(combinators.keywords === "any" ? [] : combinators.keywords);
  keywords.delete("minContains");
  const containsOnly = defineProfile({ ...combinators, name: "test-contains", keywords });
  assert.ok(containsOnly.ok);
  const zero = {
    type: "object",
    properties: { l: { type: "array", items: {}, contains: { type: "string" }, minContains: 0 } },
  };
  const check = checkTool(tool(zero), containsOnly.value, { widen: true });
  assert.deepEqual(
    check.problems.map((p) => p.keyword),
    ["minContains"],
  );
  // Where contains goes too, minContains is inert and goes exactly.
  assert.equal(checkTool(tool(zero), "gemini-json-schema", { widen: true }).outcome, "widened");
});

test("a root combinator of required lists is dropped only when widening (Notion's root anyOf, langchain#39271)", () => {
  const schema = {
    type: "object",
    properties: { page_id: { type: "string" }, database_id: { type: "string" } },
    anyOf: [{ required: ["page_id"] }, { required: ["database_id"] }],
  };
  assert.equal(checkTool(tool(schema), "anthropic").error?.rule, "root-combinator");
  const widened = checkTool(tool(schema), "anthropic", { widen: true });
  assert.equal(widened.outcome, "widened");
  assert.equal(Object.hasOwn(sentSchema(widened.tool) as object, "anyOf"), false);
  const shaped = { ...schema, anyOf: [{ properties: { page_id: { minLength: 1 } } }, { required: ["database_id"] }] };
  assert.equal(checkTool(tool(shaped), "anthropic", { widen: true }).outcome, "refused");
});

test("minItems above Anthropic strict's 1 is lowered to 1 when widening", () => {
  const schema = {
    type: "object",
    properties: { ids: { type: "array", items: { type: "string" }, minItems: 3 } },
    required: ["ids"],
    additionalProperties: false,
  };
  const check = checkTool(tool(schema), "anthropic-strict", { widen: true });
  assert.equal(check.outcome, "widened");
  assert.equal(((sentSchema(check.tool) as Schema).properties as Record<string, Schema>).ids?.minItems, 1);
});

test("a format the boundary asserts is widened, not dropped exactly", () => {
  const schema = { type: "object", properties: { site: { type: "string", format: "uri" } }, required: ["site"] };
  const closed = { ...schema, additionalProperties: false };
  assert.equal(checkTool(tool(closed), "openai-strict").outcome, "translated");
  assert.equal(checkTool(tool(closed), "openai-strict", { formatAssertion: true }).outcome, "refused");
  assert.equal(checkTool(tool(closed), "openai-strict", { formatAssertion: true, widen: true }).outcome, "widened");
});

test("property: widening never refuses what the original accepts, even where combinators are kept", () => {
  let widened = 0;
  fc.assert(
    fc.property(
      toolSchema
        .map((s) => plain(s))
        .chain((s) => fc.tuple(fc.constant(s), fc.array(instancesFor(s), { minLength: 12, maxLength: 12 }))),
      ([schema, instances]) => {
        const check = checkTool({ name: "t", inputSchema: schema }, combinators, { widen: true });
        if (check.outcome !== "widened") return;
        widened++;
        const bad = disagreements(schema, sentSchema(check.tool), plain(instances), "superset");
        assert.deepEqual(bad, [], JSON.stringify(sentSchema(check.tool)));
      },
    ),
    { seed: 99, numRuns: 300 },
  );
  assert.ok(widened >= 20, `too few widened schemas: ${widened}`);
});
