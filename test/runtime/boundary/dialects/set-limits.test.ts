/**
 * Limits of a set upgrade (issue 33): upgrading SchemaStore's 682 draft-07 documents as one set used to fail with
 * `limit_exceeded` because `maxSchemaBytes` was counted across the whole set. A synthetic catalog of the same shape —
 * 682 documents referencing each other's `definitions`, long `enum`s, together over the default `maxSchemaBytes`,
 * each far under it — now upgrades; a budget for the set, when the host sets one, bounds the total.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  compile,
  defaultLimits,
  upgradeDraft07Documents,
  upgradeLegacyDocuments,
  type UpgradeDocumentsResult,
} from "../../../../src/index.js";

const DOCUMENTS = 682;
const uri = (i: number): string => `https://catalog.example/schemas/s${i}.json`;

/** Document i: a draft-07 catalog entry with a long enum, referencing the shared base and its neighbour. */
function document(i: number): Record<string, unknown> {
  return {
    $schema: i % 2 === 0 ? "http://json-schema.org/draft-07/schema#" : "http://json-schema.org/draft-07/schema",
    $id: uri(i),
    title: `schema ${i}`,
    definitions: {
      code: { type: "string", enum: Array.from({ length: 400 }, (_, k) => `value-${i}-${k}`) },
      pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
    },
    type: "object",
    properties: {
      code: { $ref: "#/definitions/code" },
      pair: { $ref: "#/definitions/pair" },
      name: { $ref: "s0.json#/definitions/name" },
      next: { $ref: `s${(i + 1) % DOCUMENTS}.json#/definitions/pair` },
    },
    dependencies: { code: ["name"] },
  };
}

function catalog(): Map<string, unknown> {
  const documents = new Map<string, unknown>();
  for (let i = 0; i < DOCUMENTS; i++) documents.set(uri(i), document(i));
  const first = documents.get(uri(0)) as { definitions: Record<string, unknown> };
  first.definitions["name"] = { type: "string", minLength: 1 };
  return documents;
}

function failed(result: UpgradeDocumentsResult) {
  assert.equal(result.ok, false, "expected a refusal");
  return (result as Extract<UpgradeDocumentsResult, { ok: false }>).error;
}

const documents = catalog();
const bytes = [...documents.values()].map((d) => JSON.stringify(d).length);

test("the synthetic catalog reproduces the observation: over maxSchemaBytes together, each document far under it", () => {
  const total = bytes.reduce((a, b) => a + b, 0);
  assert.ok(total > defaultLimits.maxSchemaBytes, `${total} bytes in all`);
  assert.ok(Math.max(...bytes) < defaultLimits.maxSchemaBytes / 100, `${Math.max(...bytes)} bytes at most`);
});

test("the set upgrades as one: each document within the limits, references between them rewritten", () => {
  for (const upgrade of [upgradeDraft07Documents, upgradeLegacyDocuments]) {
    const result = upgrade(documents);
    if (!result.ok) assert.fail(`${result.error.document}: ${result.error.message}`);
    assert.equal(result.value.size, DOCUMENTS);
    const fifth = result.value.get(uri(5))?.schema as { properties: Record<string, { $ref: string }> };
    assert.deepEqual(fifth.properties["name"], { $ref: "s0.json#/$defs/name" });
    assert.deepEqual(fifth.properties["next"], { $ref: "s6.json#/$defs/pair" });
    // The upgraded catalog compiles and validates across documents, as its draft-07 original does.
    const schemaRegistry = new Map([...result.value].map(([key, d]) => [key, d.schema]));
    const v = compile(fifth, { schemaRegistry });
    assert.equal(v.isValid({ code: "value-5-3", name: "n", next: ["a", 1] }), true);
    assert.equal(v.isValid({ code: "value-5-3", name: "n", next: ["a", 1, 2] }), false, "s6's closed tuple");
    assert.equal(v.isValid({ code: "value-5-3" }), false, "dependencies → dependentRequired: code needs a name...");
    assert.equal(v.isValid({ code: "value-5-3", name: "" }), false, "...which s0 defines as non-empty");
    assert.equal(v.isValid({ code: "value-6-3", name: "n" }), false, "s5's own enum");
  }
});

test("a budget for the set bounds the total, and says it is the set's", () => {
  const error = failed(
    upgradeDraft07Documents(documents, { budget: { maxSchemaBytes: defaultLimits.maxSchemaBytes } }),
  );
  assert.deepEqual([error.class, error.code], ["execution_failure", "limit_exceeded"]);
  assert.match(error.message, /^the set's budget maxSchemaBytes \(4194304\) exceeded at schema/);
  assert.equal(error.code === "limit_exceeded" && error.limit?.name, "maxSchemaBytes");
  const nodes = failed(upgradeLegacyDocuments(documents, { budget: { maxSchemaNodes: 1000 } }));
  assert.match(nodes.message, /^the set's budget maxSchemaNodes \(1000\) exceeded/);
});

test("the per-document limits are the caller's: a document over them is refused by name", () => {
  const small = failed(upgradeLegacyDocuments(documents, { limits: { maxSchemaBytes: Math.min(...bytes) - 1 } }));
  assert.deepEqual([small.code, small.document], ["limit_exceeded", uri(0)]);
  assert.match(small.message, /^limit maxSchemaBytes \(\d+\) exceeded/);
  const nodes = failed(upgradeDraft07Documents(documents, { limits: { maxSchemaNodes: 5 } }));
  assert.deepEqual([nodes.code, nodes.document], ["limit_exceeded", uri(0)]);
  assert.match(nodes.message, /^limit maxSchemaNodes \(5\) exceeded/);
});
