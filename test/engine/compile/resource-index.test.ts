/** The resource index (src/engine/compile/resource-index.ts): resources, anchors and locations; schema limits. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { activateDefault } from "../../../src/engine/compile/dialect.js";
import { defaultLimits, LimitError, SchemaError, type Limits } from "../../../src/index.js";
import { ResourceIndex, type MetaCheck } from "../../../src/engine/compile/resource-index.js";
import { Places } from "../../../src/engine/compile/schema-places.js";
import { dialect2020_12 } from "../../../src/vocabularies/dialect-2020-12.js";

/** An index whose root document is `root` (errors in it are located by plain pointers). */
function index(limits: Partial<Limits> = {}, metaCheck?: MetaCheck, root?: unknown): ResourceIndex {
  const places = new Places();
  places.setRoot(root);
  return new ResourceIndex(
    dialect2020_12,
    { ...defaultLimits, ...limits },
    places,
    () => activateDefault(dialect2020_12),
    metaCheck,
    true,
  );
}

test("$id, $anchor and $dynamicAnchor are indexed in subschema positions, $defs and definitions alike", () => {
  const idx = index();
  const doc = {
    $id: "https://e.test/root",
    $defs: { a: { $anchor: "A" }, b: { $id: "b", $dynamicAnchor: "D" } },
    definitions: { c: { $id: "https://e.test/c", $anchor: "C" } },
    properties: { p: { $anchor: "P" } },
    const: { $id: "https://e.test/not-a-schema", $anchor: "no" },
  };
  idx.addDocument(doc, "urn:retrieved", false);
  const root = idx.resources.get("https://e.test/root")!;
  assert.deepEqual(
    [...root.anchors],
    [
      ["A", "/$defs/a"],
      ["P", "/properties/p"],
    ],
  );
  assert.deepEqual([...idx.resources.get("https://e.test/b")!.dynamicAnchorPointers], [["D", ""]]);
  assert.deepEqual([...idx.resources.get("https://e.test/c")!.anchors], [["C", ""]]);
  assert.equal(idx.resources.has("https://e.test/not-a-schema"), false, "const holds data, not a schema");
  assert.equal(idx.resources.get("urn:retrieved"), root, "the retrieval URI names the document too");
  assert.deepEqual(idx.locationOf(doc.$defs.b), { resource: idx.resources.get("https://e.test/b"), pointer: "" });
  assert.deepEqual(idx.locationOf(doc.$defs.a), { resource: root, pointer: "/$defs/a" });
});

test("an $id with a fragment is a schema error at its pointer", () => {
  const doc = { $defs: { x: { $id: "y#frag" } } };
  assert.throws(
    () => index({}, undefined, doc).addDocument(doc, "urn:t", true),
    (e: unknown) => e instanceof SchemaError && e.code === "schema_invalid" && e.schemaPointer === "/$defs/x/$id",
  );
  assert.throws(
    () => index().addDocument(doc, "urn:other", false),
    (e: unknown) =>
      e instanceof SchemaError && e.schemaPointer === "urn:other#/$defs/x/$id" && /in "urn:other"/.test(e.message),
    "in another document the location is absolute and the message names it",
  );
});

test("schema limits fail closed while walking, naming the limit", () => {
  const nested = { properties: { a: { properties: { b: { properties: { c: {} } } } } } };
  const cases: [Partial<Limits>, string, unknown][] = [
    [{ maxSchemaDepth: 2 }, "maxSchemaDepth", nested],
    [{ maxSchemaNodes: 3 }, "maxSchemaNodes", nested],
    [{ maxReferences: 1 }, "maxReferences", { allOf: [{ $ref: "#" }, { $ref: "#" }] }],
    [{ maxSchemaBytes: 10 }, "maxSchemaBytes", nested],
  ];
  for (const [limits, name, doc] of cases) {
    assert.throws(
      () => index(limits).addDocument(doc, "urn:t", true),
      (e: unknown) => e instanceof LimitError && e.limit === name,
      name,
    );
  }
});

test("a document that is not JSON is schema_not_json at the pointer of the first offending value", () => {
  const doc = { properties: { a: { default: () => 1 } } };
  assert.throws(
    () => index({}, undefined, doc).addDocument(doc, "urn:t", true),
    (e: unknown) =>
      e instanceof SchemaError && e.code === "schema_not_json" && e.schemaPointer === "/properties/a/default",
  );
});

test("each new resource is checked against its meta-schema once; built-in meta-schemas are not", () => {
  const checked: unknown[] = [];
  const idx = index({}, (doc) => {
    checked.push(doc);
    return undefined;
  });
  const embedded = { $id: "https://e.test/e", type: "string" };
  const doc = { $id: "https://e.test/d", $defs: { e: embedded } };
  idx.addDocument(doc, "urn:t", false);
  assert.deepEqual(checked, [doc], "an embedded resource of the same dialect is checked with its document");
  idx.addDocument(dialect2020_12.documents[0], "https://json-schema.org/draft/2020-12/schema", false);
  assert.equal(checked.length, 1);
});
