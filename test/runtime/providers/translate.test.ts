/**
 * The exact translations, one by one: what is sent, which changes are listed with which pointers, and that the
 * translated schema judges instances as the original does (the property tests do this over generated schemas).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkTool, type ToolCheck } from "../../../src/index.js";
import { asJsonSchema, disagreements, instancesFor, plain, sentSchema } from "./verdicts.js";

type Schema = Record<string, unknown>;
const tool = (inputSchema: Schema, extra: Schema = {}) => ({ name: "t", description: "d", inputSchema, ...extra });

function sent(check: ToolCheck): Schema {
  assert.ok(check.tool !== undefined, JSON.stringify(check.problems));
  return sentSchema(check.tool) as Schema;
}

/** The changes as `pointer keyword change` lines. */
const changes = (check: ToolCheck) => check.changes.map((c) => `${c.pointer} ${c.keyword} ${c.change} ${c.kind}`);

/** Asserts the sent schema judges generated instances exactly as the original. */
function assertExact(original: Schema, check: ToolCheck, format: string): void {
  const translated = asJsonSchema(sent(check), format);
  fc.assert(
    fc.property(fc.array(instancesFor(original), { minLength: 5, maxLength: 10 }), (instances) => {
      const differ = disagreements(original, translated, plain(instances), "exact");
      assert.deepEqual(differ, [], `translated: ${JSON.stringify(translated)}`);
    }),
    { seed: 7, numRuns: 60 },
  );
}

test("const becomes a one-value enum where const is refused (gemini-parameters)", () => {
  const schema = { type: "object", properties: { kind: { type: "string", const: "issue" } } };
  const check = checkTool(tool(schema), "gemini-parameters");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(sent(check), { type: "object", properties: { kind: { type: "string", enum: ["issue"] } } });
  assert.deepEqual(changes(check), ["/properties/kind/const const const-to-enum exact"]);
  assertExact(schema, check, "gemini-parameters");
});

test("an integer exclusiveMinimum is minimum + 1; a number one is refused, or widened to minimum (pizza-bot#62)", () => {
  const integer = { type: "object", properties: { n: { type: "integer", exclusiveMinimum: 0, minimum: -5 } } };
  const check = checkTool(tool(integer), "gemini-parameters");
  assert.deepEqual(sent(check), { type: "object", properties: { n: { type: "integer", minimum: 1 } } });
  assert.deepEqual(changes(check), ["/properties/n/exclusiveMinimum exclusiveMinimum exclusive-to-inclusive exact"]);
  assertExact(integer, check, "gemini-parameters");

  const number = { type: "object", properties: { x: { type: "number", exclusiveMinimum: 0 } } };
  const refused = checkTool(tool(number), "gemini-parameters");
  assert.equal(refused.outcome, "refused");
  assert.equal(refused.error?.schemaPointer, "/properties/x/exclusiveMinimum");
  assert.match(refused.error?.message ?? "", /widen: true would drop it/);
  const widened = checkTool(tool(number), "gemini-parameters", { widen: true });
  assert.equal(widened.outcome, "widened");
  assert.deepEqual(sent(widened), { type: "object", properties: { x: { type: "number", minimum: 0 } } });
  assert.deepEqual(widened.changes[0]?.dropped, { exclusiveMinimum: 0 });
});

test('type [T, "null"] becomes nullable for Gemini parameters and stays for Gemini JSON Schema', () => {
  const schema = { type: "object", properties: { q: { type: ["string", "null"], maxLength: 3 } } };
  const gemini = checkTool(tool(schema), "gemini-parameters");
  assert.deepEqual(sent(gemini), {
    type: "object",
    properties: { q: { type: "string", maxLength: 3, nullable: true } },
  });
  assertExact(schema, gemini, "gemini-parameters");
  const json = checkTool(tool(schema), "gemini-json-schema");
  // maxLength is not in the parametersJsonSchema list: refused without widening, the type array itself is fine.
  assert.deepEqual(
    json.problems.map((p) => p.rule),
    ["keyword-unsupported"],
  );
});

test("a type array of several types becomes anyOf, one branch per type, siblings moved in", () => {
  const schema = {
    type: "object",
    properties: { v: { type: ["string", "integer"], description: "a value", minimum: 1 } },
  };
  const check = checkTool(tool(schema), "gemini-parameters");
  assert.deepEqual(sent(check), {
    type: "object",
    properties: {
      v: {
        anyOf: [
          { description: "a value", minimum: 1, type: "string" },
          { description: "a value", minimum: 1, type: "integer" },
        ],
      },
    },
  });
  assert.deepEqual(changes(check), ["/properties/v/type type type-array-to-anyof exact"]);
  assertExact(schema, check, "gemini-parameters");
});

test("an anyOf null branch becomes nullable; a single branch left is merged into its schema (pydantic Optional)", () => {
  const schema = {
    type: "object",
    properties: { lat: { anyOf: [{ type: "number", maximum: 90 }, { type: "null" }], default: null, title: "Lat" } },
  };
  const check = checkTool(tool(schema), "gemini-parameters");
  assert.deepEqual(sent(check), {
    type: "object",
    properties: { lat: { default: null, title: "Lat", type: "number", maximum: 90, nullable: true } },
  });
  assert.deepEqual(changes(check), ["/properties/lat/anyOf anyOf anyof-null-to-nullable exact"]);
  assertExact(schema, check, "gemini-parameters");
});

test("an enum branch beside a null branch is not nullable exactly (OpenAPI 3.0.3): refused, or widened", () => {
  const schema = {
    type: "object",
    properties: { status: { anyOf: [{ type: "string", enum: ["OPEN", "CLOSED"] }, { type: "null" }] } },
  };
  assert.equal(checkTool(tool(schema), "gemini-parameters").error?.rule, "type-null");
  const widened = checkTool(tool(schema), "gemini-parameters", { widen: true });
  assert.equal(widened.outcome, "widened");
  assert.deepEqual(sent(widened).properties, { status: { type: "string", nullable: true } });
  assert.deepEqual(widened.changes[0]?.dropped, { enum: ["OPEN", "CLOSED"] });
});

test("local references are inlined where $ref is refused, pointers naming the definition, $defs dropped", () => {
  const schema = {
    type: "object",
    properties: { owner: { $ref: "#/$defs/login" }, repo: { $ref: "#/$defs/name", description: "the repository" } },
    $defs: { login: { type: "string", minLength: 1 }, name: { type: "string", description: "a name" } },
  };
  const check = checkTool(tool(schema), "gemini-parameters");
  assert.deepEqual(sent(check), {
    type: "object",
    properties: {
      owner: { type: "string", minLength: 1 },
      repo: { description: "the repository", type: "string" },
    },
  });
  assert.deepEqual(changes(check), [
    "/properties/owner/$ref $ref ref-inlined exact",
    "/properties/repo/$ref $ref ref-inlined exact",
    "/$defs $defs definitions-dropped exact",
  ]);
  assertExact(schema, check, "gemini-parameters");
});

test("a refusal inside inlined content points into the definition", () => {
  const schema = {
    type: "object",
    properties: { tags: { $ref: "#/$defs/tags" } },
    $defs: { tags: { type: "array", items: { type: "string" }, uniqueItems: true } },
  };
  const check = checkTool(tool(schema), "gemini-parameters");
  assert.equal(check.error?.schemaPointer, "/$defs/tags/uniqueItems");
});

test("$ref with siblings is inlined for OpenAI strict ($ref cannot have keywords {'description'}, camel#3001)", () => {
  const schema = {
    type: "object",
    properties: { due: { $ref: "#/$defs/date", description: "when it is due" } },
    required: ["due"],
    additionalProperties: false,
    $defs: { date: { type: "string", format: "date", description: "a date" } },
  };
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(check.outcome, "translated");
  assert.deepEqual((sent(check).properties as Schema).due, {
    description: "when it is due",
    type: "string",
    format: "date",
  });
  assertExact(schema, check, "openai-function");
});

test("a recursive $ref keeps its reference; an annotation beside it goes exactly, an assertion is refused", () => {
  const node = (next: Schema) => ({
    type: "object",
    properties: { value: { type: "string" }, next: { anyOf: [next, { type: "null" }] } },
    required: ["value", "next"],
    additionalProperties: false,
  });
  const annotated = { ...node({ $ref: "#", description: "the rest" }) };
  const check = checkTool(tool(annotated), "openai-strict");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(((sent(check).properties as Schema).next as Schema).anyOf, [{ $ref: "#" }, { type: "null" }]);
  assert.deepEqual(changes(check), ["/properties/next/anyOf/0/description description ref-sibling-dropped exact"]);
  const constrained = node({ $ref: "#", type: "object" });
  assert.equal(checkTool(tool(constrained), "openai-strict").error?.rule, "ref-siblings");
});

test("a oneOf with a discriminator becomes anyOf exactly; an overlapping one is refused, or widened", () => {
  const branch = (kind: string) => ({
    type: "object",
    properties: { kind: { const: kind }, id: { type: "string" } },
    required: ["kind", "id"],
    additionalProperties: false,
  });
  const schema = {
    type: "object",
    properties: { target: { oneOf: [branch("issue"), branch("pull")] } },
    required: ["target"],
    additionalProperties: false,
  };
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(changes(check), ["/properties/target/oneOf oneOf oneof-to-anyof exact"]);
  assert.match(check.changes[0]?.message ?? "", /"kind" has distinct values/);
  assertExact(schema, check, "openai-function");

  const overlapping = {
    type: "object",
    properties: { v: { oneOf: [{ type: "string" }, { type: "string", pattern: "^a" }] } },
    required: ["v"],
    additionalProperties: false,
  };
  assert.equal(checkTool(tool(overlapping), "openai-strict").error?.keyword, "oneOf");
  const widened = checkTool(tool(overlapping), "openai-strict", { widen: true });
  assert.equal(widened.outcome, "widened");
  assert.deepEqual(
    widened.changes.map((c) => c.change),
    ["oneof-widened"],
  );
});

test("allOf is merged when no keyword of one branch changes another; a conflict is refused, or widened", () => {
  const schema = {
    type: "object",
    allOf: [
      { properties: { a: { type: "string" } }, required: ["a"] },
      { required: ["b"], properties: { b: { type: "integer" } } },
    ],
    additionalProperties: false,
  };
  // additionalProperties beside allOf reads only its own node's properties: merging would change what it refuses.
  assert.equal(checkTool(tool(schema), "openai-strict").outcome, "refused");
  const open = { type: "object", allOf: schema.allOf };
  const check = checkTool(tool(open), "gemini-parameters");
  assert.deepEqual(sent(check), {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "integer" } },
    required: ["a", "b"],
  });
  assertExact(open, check, "gemini-parameters");

  const clash = { type: "object", properties: { s: { allOf: [{ pattern: "^a" }, { pattern: "b$" }] } } };
  assert.equal(checkTool(tool(clash), "gemini-parameters").error?.keyword, "allOf");
  const widened = checkTool(tool(clash), "gemini-parameters", { widen: true });
  assert.deepEqual((sent(widened).properties as Schema).s, { pattern: "^a" });
  assert.equal(widened.outcome, "widened");
});

test("annotations a profile refuses are dropped exactly; known ones stay", () => {
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $comment: "generated",
    type: "object",
    properties: { q: { type: "string", title: "Query", examples: ["x"], default: "", deprecated: false } },
    required: ["q"],
    additionalProperties: false,
  };
  const check = checkTool(tool(schema), "openai-strict");
  assert.deepEqual(sent(check), {
    type: "object",
    properties: { q: { type: "string", title: "Query" } },
    required: ["q"],
    additionalProperties: false,
  });
  assert.ok(check.changes.every((c) => c.kind === "exact" && c.change === "annotation-dropped"));
  assert.equal(check.changes.length, 5);
});

test("a missing root type is added for an input schema (the boundary's reading) and refused for an output schema", () => {
  const schema = { properties: { q: { type: "string" } } };
  const check = checkTool(tool(schema, { outputSchema: schema }), "openai");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(sent(check), { properties: { q: { type: "string" } }, type: "object" });
  assert.equal(check.output?.outcome, "refused");
  assert.equal(check.output?.error?.rule, "root-type");
  assert.equal(check.output?.error?.field, "outputSchema");
});

test("a boolean root schema is refused where the root must be an object", () => {
  const check = checkTool({ name: "t", inputSchema: { type: "object" }, outputSchema: true }, "openai");
  assert.equal(check.outcome, "fits");
  assert.equal(check.output?.outcome, "refused");
  assert.equal(check.output?.error?.rule, "root-type");
});

test("a definition no reference reaches is dropped when it would need a change, kept when it fits", () => {
  const schema = {
    type: "object",
    properties: { q: { $ref: "#/$defs/used" } },
    required: ["q"],
    additionalProperties: false,
    $defs: { used: { type: "string" }, unused: { type: "array", items: { type: "string" }, uniqueItems: true } },
  };
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(sent(check).$defs, { used: { type: "string" } });
  assert.deepEqual(changes(check), ["/$defs/unused $defs unused-definition-dropped exact"]);
  const clean = { ...schema, $defs: { used: { type: "string" }, spare: { type: "integer" } } };
  const fits = checkTool(tool(clean), "openai-strict");
  assert.equal(fits.outcome, "fits");
});

test("unused definitions referring to each other go together: none is kept referring to one dropped", () => {
  // `b` needs a change (const → enum) and comes first; `a` fits but refers to `b`. Keeping `a` alone left a
  // reference to nothing (a ref-local refusal, as the notion server's unused block definitions met).
  const schema = {
    type: "object",
    properties: { q: { type: "string" } },
    $defs: { b: { const: "x" }, a: { $ref: "#/$defs/b" }, c: { type: "string" } },
  };
  const check = checkTool(tool(schema), "gemini-json-schema");
  assert.equal(check.outcome, "translated", JSON.stringify(check.problems));
  assert.deepEqual(sent(check).$defs, {});
  assert.deepEqual(changes(check), [
    "/$defs/b $defs unused-definition-dropped exact",
    "/$defs/a $defs unused-definition-dropped exact",
    "/$defs/c $defs unused-definition-dropped exact",
  ]);
  assertExact(schema, check, "gemini-parameters-json-schema");
});

test("a schema that fits is sent as the very same object, and no input is ever modified", () => {
  const schema = {
    type: "object",
    properties: { q: { type: "string" } },
    required: ["q"],
    additionalProperties: false,
  };
  const before = JSON.stringify(schema);
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(check.outcome, "fits");
  assert.equal(sentSchema(check.tool), schema);
  const translated = { type: "object", properties: { q: { const: "x" } }, $defs: { a: { type: "string" } } };
  const copy = JSON.stringify(translated);
  checkTool(tool(translated), "gemini-parameters", { widen: true });
  assert.equal(JSON.stringify(schema), before);
  assert.equal(JSON.stringify(translated), copy);
});

test("each profile writes its request format", () => {
  const schema = { type: "object", properties: {}, additionalProperties: false };
  const t = { name: "search", description: "finds", inputSchema: schema };
  assert.deepEqual(checkTool(t, "openai-strict").tool, {
    type: "function",
    function: { name: "search", description: "finds", parameters: schema, strict: true },
  });
  assert.deepEqual(checkTool(t, "openai").tool, {
    type: "function",
    function: { name: "search", description: "finds", parameters: schema, strict: false },
  });
  assert.deepEqual(checkTool(t, "anthropic-strict").tool, {
    name: "search",
    description: "finds",
    input_schema: schema,
    strict: true,
  });
  assert.deepEqual(checkTool(t, "anthropic").tool, { name: "search", description: "finds", input_schema: schema });
  const open = { type: "object", properties: {} };
  assert.deepEqual(checkTool({ ...t, inputSchema: open }, "gemini-parameters").tool, {
    name: "search",
    description: "finds",
    parameters: open,
  });
  assert.deepEqual(checkTool({ ...t, inputSchema: open }, "gemini-json-schema").tool, {
    name: "search",
    description: "finds",
    parametersJsonSchema: open,
  });
  assert.equal(
    Object.hasOwn(checkTool({ name: "x", inputSchema: open }, "gemini-json-schema").tool ?? {}, "description"),
    false,
  );
});

test("tool names are renamed to the provider's rule, the change listed", () => {
  const check = checkTool({ name: "github.create_issue", inputSchema: { type: "object" } }, "anthropic");
  assert.equal(check.providerName, "github_create_issue");
  assert.equal(check.outcome, "translated");
  assert.deepEqual(changes(check), [" name tool-renamed exact"]);
  const long = "a".repeat(100);
  const gemini = checkTool({ name: long, inputSchema: { type: "object" } }, "gemini-parameters");
  assert.equal(gemini.providerName?.length, 63);
  assert.match(gemini.providerName ?? "", /^a{54}_[0-9a-f]{8}$/);
  const digit = checkTool({ name: "7zip", inputSchema: { type: "object" } }, "gemini-parameters");
  assert.equal(digit.providerName, "_7zip");
});

test("the output schema is reported against the profile without changing the tool's outcome", () => {
  const t = {
    name: "get",
    inputSchema: { type: "object", properties: {} },
    outputSchema: { type: "object", properties: { n: { type: "integer", exclusiveMinimum: 0 } } },
  };
  const check = checkTool(t, "gemini-json-schema");
  assert.equal(check.outcome, "fits");
  assert.equal(check.output?.outcome, "translated");
  assert.deepEqual(check.output?.schema, { type: "object", properties: { n: { type: "integer", minimum: 1 } } });
  assert.equal(check.output?.changes[0]?.field, "outputSchema");
});
