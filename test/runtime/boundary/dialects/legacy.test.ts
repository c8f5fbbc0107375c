/**
 * The upgrade of draft-04, draft-06 and 2019-09 through the public functions (`upgradeLegacySchema`,
 * `upgradeLegacyDocuments`): what each draft's translation changes, what it refuses with the pointer, and that the
 * result judges instances as the draft does (verdicts written out from the drafts' texts).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  compile,
  upgradeLegacyDocuments,
  upgradeLegacySchema,
  type UpgradeChange,
  type UpgradeOptions,
} from "../../../../src/index.js";
import { D2020, deepFreeze, rules } from "./helpers.js";

const D04 = "http://json-schema.org/draft-04/schema#";
const D06 = "http://json-schema.org/draft-06/schema#";
const D07 = "http://json-schema.org/draft-07/schema#";
const D2019 = "https://json-schema.org/draft/2019-09/schema";

function upgraded(schema: unknown, options?: UpgradeOptions): { schema: unknown; changes: UpgradeChange[] } {
  const before = JSON.stringify(schema);
  const result = upgradeLegacySchema(deepFreeze(schema), options);
  assert.equal(JSON.stringify(schema), before, "input changed");
  if (!result.ok) assert.fail(`refused at "${result.error.schemaPointer}": ${result.error.message}`);
  return result.value;
}

function refused(schema: unknown, pointer: string, pattern: RegExp, options?: UpgradeOptions): void {
  const result = upgradeLegacySchema(deepFreeze(schema), options);
  if (result.ok) assert.fail(`expected a refusal, got ${JSON.stringify(result.value.schema)}`);
  assert.deepEqual([result.error.class, result.error.code], ["unsupported_capability", "upgrade_blocked"]);
  assert.equal(result.error.schemaPointer, pointer, result.error.message);
  assert.match(result.error.message, pattern);
}

/** The upgraded schema's verdicts on each instance. */
function verdicts(schema: unknown, instances: unknown[]): boolean[] {
  const validator = compile(upgraded(schema).schema);
  return instances.map((i) => validator.isValid(i));
}

describe("draft-04", () => {
  test("id becomes $id (or $anchor for a plain name); refs resolve as draft-04 resolved them", () => {
    const input = {
      $schema: D04,
      id: "https://example.com/root.json",
      definitions: { pos: { id: "#pos", type: "integer", minimum: 0 } },
      properties: { a: { $ref: "#pos" }, b: { $ref: "root.json#/definitions/pos" } },
      $id: "https://example.com/elsewhere.json",
    };
    const { schema, changes } = upgraded(input);
    assert.deepEqual(schema, {
      $schema: D2020,
      $id: "https://example.com/root.json",
      $defs: { pos: { $anchor: "pos", type: "integer", minimum: 0 } },
      properties: { a: { $ref: "#pos" }, b: { $ref: "root.json#/$defs/pos" } },
    });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "id-to-$id /id",
      "definitions-to-defs /definitions",
      "id-fragment-to-anchor /definitions/pos/id",
      "ref-rewritten /properties/b/$ref",
      "newer-keyword-dropped /$id",
    ]);
    assert.deepEqual(verdicts(input, [{ a: 1 }, { a: -1 }, { b: "x" }, {}]), [true, false, false, true]);
  });

  test("a boolean exclusiveMaximum / exclusiveMinimum moves its bound; false is dropped", () => {
    const { schema, changes } = upgraded({
      $schema: D04,
      properties: {
        a: { maximum: 5, exclusiveMaximum: true, minimum: 1, exclusiveMinimum: false },
        b: { exclusiveMinimum: true, minimum: 0 },
      },
    });
    assert.deepEqual(schema, {
      $schema: D2020,
      properties: { a: { exclusiveMaximum: 5, minimum: 1 }, b: { exclusiveMinimum: 0 } },
    });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "exclusive-bound /properties/a/exclusiveMaximum",
      "ignored-keyword-dropped /properties/a/exclusiveMinimum",
      "exclusive-bound /properties/b/exclusiveMinimum",
    ]);
    const v = compile(schema);
    assert.deepEqual(
      [{ a: 5 }, { a: 4.5 }, { a: 1 }, { b: 0 }, { b: 0.1 }].map((i) => v.isValid(i)),
      [false, true, true, false, true],
    );
  });

  test("what has no draft-04 meaning is refused with its pointer", () => {
    refused({ $schema: D04, exclusiveMaximum: true }, "/exclusiveMaximum", /needs "maximum"/);
    refused({ $schema: D04, maximum: 1, exclusiveMaximum: 1 }, "/exclusiveMaximum", /must be a boolean/);
    refused({ $schema: D04, properties: { a: true } }, "/properties/a", /boolean schemas came with draft-06/);
    refused({ $schema: D04, items: [false] }, "/items/0", /boolean/);
    refused({ $schema: D04, enum: [] }, "/enum", /must not be empty: the schema is invalid in draft-04/);
    refused({ $schema: D04, required: [] }, "/required", /must not be empty/);
    refused(true, "", /draft-04 schema must be an object/, { dialect: "draft-04" });
  });

  test("additionalProperties and additionalItems may be booleans, as draft-04 allows", () => {
    const input = { $schema: D04, additionalProperties: false, items: [{}], additionalItems: false };
    assert.deepEqual(upgraded(input).schema, {
      $schema: D2020,
      additionalProperties: false,
      prefixItems: [{}],
      items: false,
    });
    assert.deepEqual(verdicts(input, [[1], [1, 2], { a: 1 }]), [true, false, false]);
  });

  test("keywords draft-04 does not define are dropped (it ignores them); annotations 2020-12 accepts are kept", () => {
    const input = {
      $schema: D04,
      const: 1,
      contains: { type: "string" },
      propertyNames: { maxLength: 1 },
      if: true,
      then: false,
      examples: [1],
      readOnly: "yes",
      $comment: "kept",
    };
    const { schema, changes } = upgraded(input);
    assert.deepEqual(schema, { $schema: D2020, examples: [1], $comment: "kept" });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "newer-keyword-dropped /const",
      "newer-keyword-dropped /contains",
      "newer-keyword-dropped /propertyNames",
      "newer-keyword-dropped /if",
      "newer-keyword-dropped /then",
      "annotation-kept /examples",
      "newer-keyword-dropped /readOnly",
      "annotation-kept /$comment",
    ]);
    assert.deepEqual(verdicts(input, [2, [1], { long: 1 }]), [true, true, true]);
  });

  test("beside $ref every keyword is ignored, as in draft-07 (and said so, with draft-04's names)", () => {
    const { schema, changes } = upgraded({
      $schema: D04,
      definitions: { s: { type: "string" } },
      properties: { a: { $ref: "#/definitions/s", id: "x.json", maxLength: 1 } },
    });
    assert.deepEqual(schema, {
      $schema: D2020,
      $defs: { s: { type: "string" } },
      properties: { a: { $ref: "#/$defs/s" } },
    });
    const messages = changes.map((c) => c.message).join("\n");
    assert.match(messages, /"id" beside \$ref was ignored by draft-04/);
    assert.match(messages, /"maxLength" beside \$ref was ignored by draft-04, though it would constrain/);
  });
});

describe("draft-06", () => {
  test("if/then/else and the content keywords are dropped; const, contains, propertyNames are kept", () => {
    const input = {
      $schema: D06,
      if: { type: "string" },
      then: { minLength: 2 },
      contentMediaType: "application/json",
      const: "ab",
      propertyNames: { maxLength: 1 },
      contains: {},
      readOnly: true,
    };
    const { schema, changes } = upgraded(input);
    assert.deepEqual(schema, {
      $schema: D2020,
      const: "ab",
      propertyNames: { maxLength: 1 },
      contains: {},
      readOnly: true,
    });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "newer-keyword-dropped /if",
      "newer-keyword-dropped /then",
      "newer-keyword-dropped /contentMediaType",
      "annotation-kept /readOnly",
    ]);
    refused({ $schema: D06, enum: [] }, "/enum", /invalid in draft-06/);
  });

  test("format: 2020-12 makes it an annotation where draft-06 let validators assert it; the change says so", () => {
    const { changes } = upgraded({ $schema: D06, format: "email" });
    assert.deepEqual(rules(changes), ["format-annotation ", "schema-dialect /$schema"]);
    assert.match(changes[0]?.message ?? "", /draft-06 allowed validators to assert it/);
  });
});

describe("2019-09", () => {
  test("$recursiveAnchor: true becomes a $dynamicAnchor, and $recursiveRef the $dynamicRef that finds it", () => {
    const tree = {
      $schema: D2019,
      $id: "https://example.com/tree",
      $recursiveAnchor: true,
      type: "object",
      properties: { data: true, children: { type: "array", items: { $recursiveRef: "#" } } },
    };
    const strict = {
      $schema: D2019,
      $id: "https://example.com/strict-tree",
      $recursiveAnchor: true,
      $ref: "tree",
      unevaluatedProperties: false,
    };
    const documents = upgradeLegacyDocuments(deepFreeze({ "https://example.com/tree": tree }));
    assert.ok(documents.ok);
    const treeUpgraded = documents.value.get("https://example.com/tree");
    assert.deepEqual(treeUpgraded?.schema, {
      $schema: D2020,
      $id: "https://example.com/tree",
      $dynamicAnchor: "_recursive",
      type: "object",
      properties: { data: true, children: { type: "array", items: { $dynamicRef: "#_recursive" } } },
    });
    assert.deepEqual(rules(treeUpgraded?.changes ?? []), [
      "schema-dialect /$schema",
      "recursiveAnchor-translated /$recursiveAnchor",
      "recursiveRef-translated /properties/children/items/$recursiveRef",
    ]);
    // The strict tree extends the tree: its unevaluatedProperties reaches the children through the recursion.
    const v = compile(upgraded(strict).schema, {
      schemaRegistry: { "https://example.com/tree": treeUpgraded?.schema },
    });
    assert.equal(v.isValid({ children: [{ data: 1 }] }), true);
    assert.equal(v.isValid({ children: [{ daat: 1 }] }), false, "the misspelled child is refused by the extension");
  });

  test("$recursiveRef in a resource without $recursiveAnchor: true is a plain $ref", () => {
    const { schema, changes } = upgraded({
      $schema: D2019,
      $recursiveAnchor: false,
      properties: { next: { $recursiveRef: "#" }, inner: { $recursiveAnchor: true } },
    });
    assert.deepEqual(schema, { $schema: D2020, properties: { next: { $ref: "#" }, inner: {} } });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "ignored-keyword-dropped /$recursiveAnchor",
      "recursiveRef-translated /properties/next/$recursiveRef",
      "ignored-keyword-dropped /properties/inner/$recursiveAnchor",
    ]);
  });

  test("a schema with both $ref and $recursiveRef keeps both (the second $ref goes into allOf)", () => {
    const input = {
      $schema: D2019,
      allOf: [{ type: "object" }],
      $ref: "#/$defs/a",
      $recursiveRef: "#",
      $defs: { a: {} },
    };
    assert.deepEqual(upgraded(input).schema, {
      $schema: D2020,
      allOf: [{ type: "object" }, { $ref: "#" }],
      $ref: "#/$defs/a",
      $defs: { a: {} },
    });
  });

  test("items arrays and additionalItems are renamed, refs into them follow; keywords beside $ref stay", () => {
    const input = {
      $schema: D2019,
      items: [{ type: "string" }, { type: "number" }],
      additionalItems: { type: "boolean" },
      properties: { first: { $ref: "#/items/0", minLength: 2 }, rest: { $ref: "#/additionalItems" } },
      definitions: { kept: { type: "null" } },
    };
    const { schema } = upgraded(input);
    assert.deepEqual(schema, {
      $schema: D2020,
      prefixItems: [{ type: "string" }, { type: "number" }],
      items: { type: "boolean" },
      properties: { first: { $ref: "#/prefixItems/0", minLength: 2 }, rest: { $ref: "#/items" } },
      definitions: { kept: { type: "null" } },
    });
    const v = compile(schema);
    assert.deepEqual(
      [["a", 1, true], ["a", 1, 2], { first: "a" }, { first: "ab", rest: false }].map((i) => v.isValid(i)),
      [true, false, false, true],
    );
  });

  test("what 2019-09 cannot say in 2020-12 (or does not say at all) is refused with its pointer", () => {
    refused({ $schema: D2019, $defs: { a: { $anchor: "a:b" } } }, "/$defs/a/$anchor", /no ":" there/);
    refused({ $schema: D2019, $defs: { a: { $anchor: "_a" } } }, "/$defs/a/$anchor", /not a 2019-09 anchor/);
    refused({ $schema: D2019, $defs: { a: { $id: "#a" } } }, "/$defs/a/$id", /does not allow/);
    refused({ $schema: D2019, properties: { a: { $recursiveRef: "#/x" } } }, "/properties/a/$recursiveRef", /"#"/);
    refused({ $schema: D2019, $recursiveAnchor: "yes" }, "/$recursiveAnchor", /must be a boolean/);
    refused(
      { $schema: D2019, contains: { type: "string" }, unevaluatedItems: false },
      "/contains",
      /does not say whether the items contains matches count as evaluated/,
    );
  });

  test("$dynamicRef, $dynamicAnchor and prefixItems are no 2019-09 keywords: dropped; format is no change", () => {
    const { schema, changes } = upgraded({
      $schema: D2019,
      $dynamicAnchor: "a",
      prefixItems: [false],
      items: { $dynamicRef: "#a" },
      format: "email",
      dependencies: { a: ["b"] },
    });
    assert.deepEqual(schema, { $schema: D2020, items: {}, format: "email", dependencies: { a: ["b"] } });
    assert.deepEqual(rules(changes), [
      "schema-dialect /$schema",
      "newer-keyword-dropped /$dynamicAnchor",
      "newer-keyword-dropped /prefixItems",
      "newer-keyword-dropped /items/$dynamicRef",
    ]);
  });
});

describe("which schemas are upgraded", () => {
  test("a 2020-12 schema, or one that declares nothing, comes back as it is; `dialect` names an undeclared one", () => {
    const plain = { type: "object", id: "x" };
    const result = upgradeLegacySchema(plain);
    assert.ok(result.ok);
    assert.equal(result.value.schema, plain, "the very same object");
    assert.deepEqual(result.value.changes, []);
    assert.deepEqual(upgraded(plain, { dialect: "draft-04" }).schema, { type: "object", $id: "x" });
    // `dialect` never overrides what a schema declares.
    const declared = { $schema: D06, exclusiveMaximum: 1 };
    assert.deepEqual(upgraded(declared, { dialect: "draft-04" }).schema, { $schema: D2020, exclusiveMaximum: 1 });
  });

  test("options fail closed with a TypeError", () => {
    for (const options of [{ dialect: "draft-03" }, { limits: { maxSchemaNodes: -1 } }, { budget: 5 }, { nope: 1 }]) {
      assert.throws(() => upgradeLegacySchema({}, options as never), TypeError);
      assert.throws(() => upgradeLegacyDocuments({}, options as never), TypeError);
    }
  });

  test("a set mixes dialects: refs between them follow each target's renames; other documents pass through", () => {
    const base = "https://example.com/";
    const documents = {
      [base + "a.json"]: { $schema: D04, definitions: { n: { type: "number" } } },
      [base + "b.json"]: { $schema: D2019, items: [{ $ref: "a.json#/definitions/n" }] },
      [base + "c.json"]: { $schema: D07, properties: { x: { $ref: "b.json#/items/0" } } },
      [base + "d.json"]: { type: "string" },
    };
    const result = upgradeLegacyDocuments(deepFreeze(documents));
    assert.ok(result.ok);
    const schemas = Object.fromEntries([...result.value].map(([k, v]) => [k.slice(base.length), v.schema]));
    assert.deepEqual(schemas, {
      "a.json": { $schema: D2020, $defs: { n: { type: "number" } } },
      "b.json": { $schema: D2020, prefixItems: [{ $ref: "a.json#/$defs/n" }] },
      "c.json": { $schema: D2020, properties: { x: { $ref: "b.json#/prefixItems/0" } } },
      "d.json": { type: "string" },
    });
    assert.equal(result.value.get(base + "d.json")?.schema, documents[base + "d.json"], "passed through as it is");
    const registry = new Map([...result.value].map(([k, v]) => [k, v.schema]));
    const v = compile(schemas["c.json"], { baseUri: base + "c.json", schemaRegistry: registry });
    assert.deepEqual(
      [{ x: 1 }, { x: "1" }].map((i) => v.isValid(i)),
      [true, false],
    );
    const undeclared = upgradeLegacyDocuments(
      { [base + "d.json"]: { id: "x", type: "string" } },
      { dialect: "draft-04" },
    );
    assert.ok(undeclared.ok);
    assert.deepEqual(undeclared.value.get(base + "d.json")?.schema, { $id: "x", type: "string" });
  });

  test("a refusal in a set names the document, its dialect and the pointer", () => {
    const result = upgradeLegacyDocuments({
      "https://example.com/a.json": { $schema: D04, properties: { a: false } },
    });
    assert.ok(!result.ok);
    assert.deepEqual(
      [result.error.code, result.error.document, result.error.schemaPointer],
      ["upgrade_blocked", "https://example.com/a.json", "/properties/a"],
    );
    assert.equal(result.error.code === "upgrade_blocked" && result.error.dialect, "draft-04");
  });
});
