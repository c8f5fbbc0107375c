/**
 * Narrowing and encoding, one case at a time (issue 31): `narrow: true` closes an open object and makes required an
 * optional property that accepts null; `encode: true` sends an optional property that refuses null as required and
 * nullable, its null meaning "absent" to the call decoder. Each is listed with its kind, done only where accepting
 * less accepts less overall, and refused with the reason where the decoder could not tell what a null means.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkCatalog,
  checkTool,
  compile,
  defineProfile,
  profiles,
  type ProviderProfile,
  type ToolCheck,
} from "../../../src/index.js";
import { sentSchema } from "./verdicts.js";

type Schema = Record<string, unknown>;
const tool = (inputSchema: Schema, extra: Schema = {}) => ({ name: "t", description: "d", inputSchema, ...extra });
const both = { narrow: true, encode: true } as const;

function sent(check: ToolCheck): Schema {
  assert.ok(check.tool !== undefined, JSON.stringify(check.problems));
  return sentSchema(check.tool) as Schema;
}

/** The changes as `kind change pointer` lines. */
const changes = (check: ToolCheck) => check.changes.map((c) => `${c.kind} ${c.change} ${c.pointer}`);

test("nothing is narrowed or encoded unless asked: the refusals are the ones before", () => {
  const schema = { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required: ["q"] };
  const check = checkTool(tool(schema), "openai-strict");
  assert.equal(check.outcome, "refused");
  assert.deepEqual(
    check.problems.map((p) => p.message),
    [
      "an object schema without additionalProperties: false; adding it would refuse properties the tool accepts",
      'property "n" is optional; making every property required would refuse calls without it',
    ],
  );
});

test("an open object is closed when narrowing: a narrowed change, the only one needed when all are required", () => {
  const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
  const check = checkTool(tool(schema), "openai-strict", { narrow: true });
  assert.equal(check.outcome, "translated");
  assert.deepEqual(changes(check), ["narrowed object-closed /additionalProperties"]);
  assert.deepEqual(sent(check), { ...schema, additionalProperties: false });
  // additionalProperties: true (or a schema) is closed too; a map with no declared property says so.
  const map = {
    type: "object",
    properties: { tags: { type: "object", additionalProperties: { type: "string" } } },
    required: ["tags"],
    additionalProperties: true,
  };
  const closed = checkTool(tool(map), "openai-strict", { narrow: true });
  assert.deepEqual(changes(closed), [
    "narrowed object-closed /additionalProperties",
    "narrowed map-closed /properties/tags/additionalProperties",
  ]);
  assert.match(closed.changes[1]?.message ?? "", /only \{\} there/);
  // Anthropic strict requires closed objects too (and no more): narrowing is all it needs.
  assert.equal(
    checkTool(tool({ type: "object", properties: { q: { type: "string" } } }), "anthropic-strict").outcome,
    "refused",
  );
  assert.equal(
    checkTool(tool({ type: "object", properties: { q: { type: "string" } } }), "anthropic-strict", { narrow: true })
      .outcome,
    "translated",
  );
});

test("an object requiring a property it does not declare is not closed: closed, nothing could satisfy it", () => {
  const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] };
  const check = checkTool(tool(schema), "openai-strict", both);
  assert.equal(check.outcome, "refused");
  assert.deepEqual(
    check.problems.map((p) => p.rule),
    ["closed-objects", "required-all"],
  );
});

test("an optional property that refuses null is encoded: required, nullable, listed as encoded", () => {
  const schema = {
    type: "object",
    properties: {
      path: { type: "string" },
      head: { type: "number", description: "first N lines" },
      mode: { enum: ["fast", "slow"] },
      never: false,
    },
    required: ["path"],
    additionalProperties: false,
  };
  const check = checkTool(tool(schema), "openai-strict", { encode: true });
  assert.equal(check.outcome, "translated");
  assert.deepEqual(changes(check), [
    "encoded optional-encoded /properties/head",
    "encoded optional-encoded /properties/mode",
    "encoded optional-encoded /properties/never",
  ]);
  assert.deepEqual(sent(check), {
    type: "object",
    properties: {
      path: { type: "string" },
      head: { type: ["number", "null"], description: "first N lines" },
      mode: { anyOf: [{ enum: ["fast", "slow"] }, { type: "null" }] },
      never: { type: "null" },
    },
    required: ["path", "head", "mode", "never"],
    additionalProperties: false,
  });
  // The sent schema asks for every property, null standing for the optional ones.
  const validator = compile(sent(check));
  assert.equal(validator.isValid({ path: "a", head: null, mode: null, never: null }), true);
  assert.equal(validator.isValid({ path: "a", head: 3, mode: "fast", never: null }), true);
  assert.equal(validator.isValid({ path: "a" }), false);
  assert.equal(validator.isValid({ path: null, head: null, mode: null, never: null }), false);
});

test("an optional property that accepts null is made required when narrowing: its null stays a null", () => {
  const schema = {
    type: "object",
    properties: { state: { anyOf: [{ type: "string" }, { type: "null" }], default: null } },
    additionalProperties: false,
  };
  assert.equal(checkTool(tool(schema), "openai-strict", { encode: true }).outcome, "refused");
  const check = checkTool(tool(schema), "openai-strict", both);
  assert.equal(check.outcome, "translated");
  assert.deepEqual(changes(check), [
    "narrowed nullable-required /properties/state",
    "exact annotation-dropped /properties/state/default",
  ]);
  const request = checkCatalog([tool(schema)], "openai-strict", both);
  const decoded = request.decodeCall({ name: "t", arguments: { state: null } });
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value.arguments, { state: null });
});

test("where null cannot stand for absence, the property is refused with the reason", () => {
  const cases: [Schema, RegExp][] = [
    // Whether `{ $dynamicRef }` accepts null is not decided from the schema alone.
    [{ q: { $dynamicRef: "#x" } }, /cannot be told/],
    // A $ref elsewhere names the property's schema: it would take the null where nothing decodes it.
    [{ a: { type: "string" }, b: { $ref: "#/properties/a" } }, /a \$ref elsewhere names its schema/],
  ];
  for (const [properties, reason] of cases) {
    const schema = {
      type: "object",
      properties,
      required: Object.keys(properties).slice(1),
      additionalProperties: false,
    };
    const check = checkTool(tool(schema), "openai-strict", both);
    assert.equal(check.outcome, "refused", JSON.stringify(schema));
    assert.match(check.error?.message ?? "", reason);
    assert.equal(check.error?.rule, "required-all");
  }
  // A keyword beside the properties that sees whether one is present (a profile taking minProperties shows it).
  const base = profiles.get("openai-strict@2026-10") as ProviderProfile;
  const keywords = new Set([...(base.keywords === "any" ? [] : base.keywords), "minProperties"]);
  const counting = defineProfile({ ...base, name: "openai-strict-counting", keywords });
  assert.ok(counting.ok);
  const sees = { type: "object", properties: { a: { type: "string" } }, minProperties: 1, additionalProperties: false };
  const check = checkTool(tool(sees), counting.value, both);
  assert.equal(check.outcome, "refused");
  assert.match(check.error?.message ?? "", /"minProperties" beside it would see the null/);
});

test("nothing under not is narrowed or encoded: less accepted there is more accepted overall", () => {
  const schema = {
    type: "object",
    properties: { q: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
    required: ["q"],
    additionalProperties: false,
  };
  assert.equal(checkTool(tool(schema), "openai-strict", both).outcome, "translated");
  const negated = { ...schema, $defs: { q: schema.properties.q }, properties: { q: { $ref: "#/$defs/q" } } };
  const profileWithNot = checkTool(tool({ ...negated, not: { $ref: "#/$defs/q" } }), "openai-strict", both);
  assert.equal(profileWithNot.outcome, "refused");
  assert.ok(
    profileWithNot.problems.some((p) => /not narrowed/.test(p.message)),
    JSON.stringify(profileWithNot.problems),
  );
});

test("an encoded object under an anyOf whose branches share a type is refused: the decoder could not pick one", () => {
  const branch = (name: string) => ({
    type: "object",
    properties: { [name]: { type: "string" }, limit: { type: "integer" } },
    required: [name],
    additionalProperties: false,
  });
  const shared = {
    type: "object",
    properties: { query: { anyOf: [branch("text"), branch("id")] } },
    required: ["query"],
    additionalProperties: false,
  };
  const check = checkTool(tool(shared), "openai-strict", both);
  assert.equal(check.outcome, "refused");
  assert.match(check.error?.message ?? "", /cannot tell which schema a call takes/);
  assert.equal(check.error?.schemaPointer, "/properties/query/anyOf/0/required");
  // Branches of distinct types are told apart by the value's type: encoded, and decoded.
  const distinct = { ...shared, properties: { query: { anyOf: [branch("text"), { type: "string" }] } } };
  const request = checkCatalog([tool(distinct)], "openai-strict", both);
  assert.equal(request.report.get("t")?.outcome, "translated");
  const decoded = request.decodeCall({ name: "t", arguments: { query: { text: "a", limit: null } } });
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value.arguments, { query: { text: "a" } });
  const plain = { query: "a" };
  const same = request.decodeCall({ name: "t", arguments: plain });
  assert.ok(same.ok);
  assert.equal(same.value.arguments, plain);
});

test("the output schema is narrowed when asked, never encoded (nothing decodes a result)", () => {
  const output = { type: "object", properties: { n: { type: "integer" } } };
  const check = checkTool(
    tool({ type: "object", properties: {}, additionalProperties: false }, { outputSchema: output }),
    "openai-strict",
    both,
  );
  assert.equal(check.outcome, "fits");
  assert.equal(check.output?.outcome, "refused");
  assert.deepEqual(
    check.output?.changes.map((c) => c.kind),
    ["narrowed"],
  );
  assert.equal(check.output?.error?.rule, "required-all");
});

test("decodeCall: names mapped back, encoded nulls removed through items and references, nothing else touched", () => {
  const schema = {
    type: "object",
    properties: {
      edits: { type: "array", items: { $ref: "#/$defs/edit" } },
      dryRun: { type: "boolean" },
      note: { type: ["string", "null"] },
    },
    required: ["edits", "note"],
    $defs: {
      edit: {
        type: "object",
        properties: { oldText: { type: "string" }, newText: { type: "string" }, count: { type: "integer" } },
        required: ["oldText", "newText"],
      },
    },
  };
  const request = checkCatalog([{ ...tool(schema), name: "fs.edit" }], "openai-strict", both);
  assert.deepEqual(request.errors, []);
  const check = request.report.get("fs.edit");
  assert.equal(check?.outcome, "translated", JSON.stringify(check?.problems));
  assert.deepEqual(changes(check as ToolCheck), [
    "exact tool-renamed ",
    "narrowed object-closed /additionalProperties",
    "encoded optional-encoded /properties/dryRun",
    "narrowed object-closed /$defs/edit/additionalProperties",
    "encoded optional-encoded /$defs/edit/properties/count",
  ]);
  const args = {
    edits: [
      { oldText: "a", newText: "b", count: null },
      { oldText: "c", newText: "d", count: 2 },
    ],
    dryRun: null,
    note: null,
  };
  const decoded = request.decodeCall({ name: "fs_edit", arguments: args });
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value, {
    name: "fs.edit",
    arguments: {
      edits: [
        { oldText: "a", newText: "b" },
        { oldText: "c", newText: "d", count: 2 },
      ],
      note: null,
    },
  });
  // The model's call is not modified, and what needs no change is the very same value.
  assert.equal(args.dryRun, null);
  const second = (decoded.value.arguments as { edits: unknown[] }).edits[1];
  assert.equal(second, args.edits[1]);
  const untouched = { edits: [], dryRun: true, note: "x" };
  const same = request.decodeCall({ name: "fs_edit", arguments: untouched });
  assert.ok(same.ok);
  assert.equal(same.value.arguments, untouched);
  // Absent arguments stay absent; a tool the request does not list is an error.
  assert.deepEqual(request.decodeCall({ name: "fs_edit" }), { ok: true, value: { name: "fs.edit" } });
  const unknown = request.decodeCall({ name: "fs.edit", arguments: {} });
  assert.ok(!unknown.ok);
  assert.equal(unknown.error.code, "tool_unknown");
});
