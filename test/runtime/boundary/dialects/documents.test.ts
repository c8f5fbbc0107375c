/** F4 of issue 14: upgrading draft-07 documents that reference each other, consistently. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compile, upgradeDraft07, upgradeDraft07Documents, type UpgradedDocument } from "../../../../src/index.js";
import { D07, D2020, deepFreeze, draft07Verdicts, rules } from "./helpers.js";

const BASE = "https://example.com/schemas/base.json";
const USER = "https://example.com/schemas/user.json";

function upgradedAll(documents: Record<string, unknown> | Map<string, unknown>): Map<string, UpgradedDocument> {
  const before = JSON.stringify(documents instanceof Map ? [...documents] : documents);
  const result = upgradeDraft07Documents(deepFreeze(documents));
  assert.equal(JSON.stringify(documents instanceof Map ? [...documents] : documents), before, "input changed");
  if (!result.ok) assert.fail(`refused in ${result.error.document} at "${result.error.schemaPointer}"`);
  return result.value;
}

/** Compiles `root` of the upgraded set with every other document registered under its key. */
function validatorOf(documents: Map<string, UpgradedDocument>, root: string) {
  const schemaRegistry = new Map([...documents].map(([uri, doc]) => [uri, doc.schema]));
  return compile(documents.get(root)?.schema, { baseUri: root, schemaRegistry });
}

const base = { $schema: D07, definitions: { name: { type: "string", minLength: 1 } } };
const user = {
  $schema: D07,
  type: "object",
  properties: { name: { $ref: "base.json#/definitions/name" } },
  required: ["name"],
};

test("F4: a $ref into another document's definitions is rewritten with it", () => {
  const documents = upgradedAll({ [BASE]: base, [USER]: user });
  assert.deepEqual(documents.get(BASE)?.schema, { $schema: D2020, $defs: { name: { type: "string", minLength: 1 } } });
  assert.deepEqual(documents.get(USER)?.schema, {
    $schema: D2020,
    type: "object",
    properties: { name: { $ref: "base.json#/$defs/name" } },
    required: ["name"],
  });
  assert.deepEqual(rules(documents.get(USER)?.changes ?? []), [
    "schema-dialect /$schema",
    "ref-rewritten /properties/name/$ref",
  ]);
  const instances = [{ name: "ada" }, { name: "" }, { name: 1 }, {}];
  const ours = instances.map((i) => validatorOf(documents, USER).isValid(i));
  assert.deepEqual(ours, [true, false, false, false]);
  assert.deepEqual(ours, draft07Verdicts(user, instances, { uri: USER, others: [[BASE, base]] }));
});

test("F4: upgraded one at a time, the same documents no longer compile together (the reported break)", () => {
  const one = (schema: unknown) => {
    const result = upgradeDraft07(schema);
    assert.ok(result.ok);
    return result.value.schema;
  };
  const alone = one(user);
  const schemaRegistry = { [BASE]: one(base) };
  assert.deepEqual((alone as { properties: object }).properties, { name: { $ref: "base.json#/definitions/name" } });
  assert.throws(() => compile(alone, { baseUri: USER, schemaRegistry }), /definitions/);
  const result = upgradeDraft07(user);
  assert.ok(result.ok);
  const kept = result.value.changes.find((c) => c.rule === "external-ref-kept");
  assert.match(kept?.message ?? "", /upgradeDraft07Documents/);
});

test("documents are found by key or by root $id; renamed definitions, $defs and embedded resources follow", () => {
  const shared = {
    $id: "https://example.com/types/shared.json",
    definitions: { id: { type: "integer" }, tag: { type: "null" } },
    $defs: { tag: { type: "string" } },
    properties: {
      nested: { $id: "nested.json", definitions: { flag: { type: "boolean" } } },
      list: { items: [{ type: "number" }], additionalItems: { type: "string" } },
    },
  };
  const order = {
    properties: {
      id: { $ref: "https://example.com/types/shared.json#/definitions/id" },
      tag: { $ref: "https://example.com/shared-by-key.json#/definitions/tag" },
      label: { $ref: "shared-by-key.json#/$defs/tag" },
      flag: { $ref: "https://example.com/types/nested.json#/definitions/flag" },
      first: { $ref: "https://example.com/types/shared.json#/properties/list/items/0" },
      rest: { $ref: "https://example.com/types/shared.json#/properties/list/additionalItems" },
    },
  };
  const documents = upgradedAll(
    new Map<string, unknown>([
      ["https://example.com/shared-by-key.json", shared],
      ["https://example.com/order.json", order],
    ]),
  );
  assert.deepEqual(documents.get("https://example.com/order.json")?.schema, {
    properties: {
      id: { $ref: "https://example.com/types/shared.json#/$defs/id" },
      tag: { $ref: "https://example.com/shared-by-key.json#/$defs/tag-definitions" },
      label: { $ref: "shared-by-key.json#/$defs/tag" },
      flag: { $ref: "https://example.com/types/nested.json#/$defs/flag" },
      first: { $ref: "https://example.com/types/shared.json#/properties/list/prefixItems/0" },
      rest: { $ref: "https://example.com/types/shared.json#/properties/list/items" },
    },
  });
  const validator = validatorOf(documents, "https://example.com/order.json");
  const instances = [
    { id: 1, tag: null, label: "x", flag: true, first: 1, rest: "r" },
    { id: "1" },
    { tag: "x" },
    { label: null },
    { flag: 1 },
    { first: "x" },
    { rest: 1 },
  ];
  assert.deepEqual(
    instances.map((i) => validator.isValid(i)),
    [true, false, false, false, false, false, false],
  );
});

test("a $ref to a document outside the set is kept and noted", () => {
  const documents = upgradedAll({ [USER]: { properties: { a: { $ref: "elsewhere.json#/definitions/a" } } } });
  assert.deepEqual(rules(documents.get(USER)?.changes ?? []), ["external-ref-kept /properties/a/$ref"]);
  assert.deepEqual(documents.get(USER)?.schema, { properties: { a: { $ref: "elsewhere.json#/definitions/a" } } });
});

test("a refusal names the document and the pointer in it", () => {
  const result = upgradeDraft07Documents({
    [BASE]: base,
    [USER]: { properties: { a: { $ref: "base.json#/definitions/missing" } } },
  });
  assert.ok(!result.ok);
  assert.deepEqual(result.error, {
    class: "unsupported_capability",
    code: "upgrade_blocked",
    message: `$ref "base.json#/definitions/missing" does not resolve`,
    schemaPointer: "/properties/a/$ref",
    dialect: "draft-07",
    document: USER,
  });
  const invalid = upgradeDraft07Documents({ [BASE]: base, [USER]: { minLength: -1 } });
  assert.ok(!invalid.ok);
  assert.equal(invalid.error.document, USER);
  assert.equal(invalid.error.schemaPointer, "/minLength");
});

test("a root $id that draft-07 ignores (beside $ref) does not name the document; its key does", () => {
  const tool = {
    $id: "https://example.com/alias.json",
    $ref: "#/definitions/a",
    definitions: { a: { type: "string" } },
  };
  const byAlias = upgradeDraft07Documents({ [BASE]: tool, [USER]: { $ref: "https://example.com/alias.json" } });
  assert.ok(!byAlias.ok);
  assert.equal(byAlias.error.document, USER);
  assert.match(byAlias.error.message, /ignores/);
  const documents = upgradedAll({ [BASE]: tool, [USER]: { $ref: "base.json#/definitions/a" } });
  assert.deepEqual(documents.get(USER)?.schema, { $ref: "base.json#/$defs/a" });
  assert.deepEqual(
    [1, "s"].map((i) => validatorOf(documents, USER).isValid(i)),
    [false, true],
  );
});

test("two documents claiming one $id are refused; keys must be absolute URIs without fragment", () => {
  const twice = upgradeDraft07Documents({ [BASE]: { $id: "https://example.com/x.json" }, [USER]: { $id: BASE } });
  assert.ok(!twice.ok);
  assert.match(twice.error.message, /identifies two schemas/);
  for (const key of ["base.json", "https://example.com/a.json#/x", "/abs/path.json"]) {
    assert.throws(() => upgradeDraft07Documents({ [key]: {} }), TypeError);
  }
  assert.throws(() => upgradeDraft07Documents({ [BASE]: {}, [BASE + "#"]: {} }), TypeError);
  const trailing = upgradedAll({ [BASE + "#"]: base, [USER]: user });
  assert.ok(trailing.has(BASE + "#"), "results keep the caller's keys");
});

test("one document alone upgrades as upgradeDraft07 upgrades it", () => {
  const alone = upgradeDraft07(user);
  assert.ok(alone.ok);
  assert.deepEqual(upgradedAll({ [USER]: user }).get(USER), alone.value);
  assert.deepEqual(upgradedAll({}), new Map());
});
