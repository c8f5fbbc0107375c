/** The compiler's reference resolution: registry documents matter only when reached; `definitions` is like `$defs`. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, SchemaError, type CompileOptions } from "../../../src/index.js";

const DRAFT_07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };

function compileError(schema: unknown, options: CompileOptions): SchemaError {
  try {
    compile(schema, options);
  } catch (e) {
    assert.ok(e instanceof SchemaError, String(e));
    return e;
  }
  return assert.fail("the schema should not compile");
}

/** Registries in both orders: an unrelated document must not matter wherever it sits. */
function bothOrders(entries: [string, unknown][]): Map<string, unknown>[] {
  return [new Map(entries), new Map([...entries].reverse())];
}

describe("registry documents matter only when a reference reaches them", () => {
  test("a missing reference is ref_unresolved, whatever unrelated draft-07 document is registered", () => {
    const e = compileError(
      { $ref: "https://example.com/missing.json" },
      { schemaRegistry: { "https://example.com/other.json": DRAFT_07 } },
    );
    assert.equal(e.class, "validation");
    assert.equal(e.code, "ref_unresolved");
    assert.match(e.message, /missing\.json/);
  });

  test("an $id embedded in a registry document is found though a draft-07 document comes first", () => {
    const host = { $defs: { e: { $id: "https://example.com/emb", type: "string" } } };
    for (const schemaRegistry of bothOrders([
      ["https://example.com/d7.json", DRAFT_07],
      ["https://example.com/host.json", host],
    ])) {
      const v = compile({ $ref: "https://example.com/emb" }, { schemaRegistry });
      assert.equal(v.isValid("x"), true);
      assert.equal(v.isValid(1), false);
    }
  });

  test("an embedded $id is found in a document whose root declares its own $id and in `definitions`", () => {
    const host = {
      $id: "https://example.com/tree/root.json",
      definitions: { leaf: { $id: "leaf.json", type: "integer" } },
    };
    const v = compile({ $ref: "https://example.com/tree/leaf.json" }, { schemaRegistry: { "urn:doc:host": host } });
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid("1"), false);
  });

  const unreached: [string, unknown][] = [
    ["declares another draft", DRAFT_07],
    ["does not match its meta-schema", { type: "strin" }],
    ["has a bad regular expression", { pattern: "(" }],
    ["has an unresolvable reference", { $ref: "#/nowhere" }],
    ["is too large for maxSchemaBytes", { description: "x".repeat(5_000) }],
    ["is too deep for maxSchemaDepth", { not: { not: { not: { not: { not: { not: {} } } } } } }],
    ["is not JSON", { default: () => 1 }],
  ];
  for (const [what, document] of unreached) {
    test(`a document that ${what} changes nothing while no reference reaches it`, () => {
      const limits = { maxSchemaBytes: 2_000, maxSchemaDepth: 4 };
      for (const schemaRegistry of bothOrders([
        ["https://example.com/bad.json", document],
        ["https://example.com/host.json", { $defs: { e: { $id: "https://example.com/emb", type: "string" } } }],
      ])) {
        assert.equal(compile({ $ref: "https://example.com/emb" }, { schemaRegistry, limits }).isValid("x"), true);
        const e = compileError({ $ref: "https://example.com/missing.json" }, { schemaRegistry, limits });
        assert.equal(e.code, "ref_unresolved", e.message);
      }
    });
  }

  test("unreached documents with cycles or throwing getters change nothing", () => {
    const cyclic: Record<string, unknown> = { $defs: {} };
    (cyclic["$defs"] as Record<string, unknown>)["self"] = cyclic;
    const hostile = {
      get $defs(): unknown {
        throw new Error("boom");
      },
    };
    const schemaRegistry = {
      "https://example.com/cyclic.json": cyclic,
      "https://example.com/hostile.json": hostile,
      "https://example.com/host.json": { $defs: { e: { $id: "https://example.com/emb", type: "string" } } },
    };
    assert.equal(compile({ $ref: "https://example.com/emb" }, { schemaRegistry }).isValid("x"), true);
    assert.equal(compileError({ $ref: "https://example.com/x" }, { schemaRegistry }).code, "ref_unresolved");
  });

  const reached: [string, unknown, string, string][] = [
    ["declares another draft", DRAFT_07, "unsupported_capability", "dialect_unsupported"],
    ["does not match its meta-schema", { type: "strin" }, "validation", "schema_invalid"],
    ["has a bad regular expression", { pattern: "(" }, "validation", "pattern_invalid"],
    ["has an unresolvable reference", { $ref: "#/nowhere" }, "validation", "ref_unresolved"],
    ["is too large for maxSchemaBytes", { description: "x".repeat(5_000) }, "execution_failure", "limit_exceeded"],
    ["is not JSON", { default: () => 1 }, "validation", "schema_not_json"],
  ];
  for (const [what, document, errorClass, code] of reached) {
    test(`a reached document that ${what} fails the compile, and the error names its URI`, () => {
      const schemaRegistry = { "https://example.com/bad.json": document };
      const e = compileError(
        { $ref: "https://example.com/bad.json" },
        { schemaRegistry, limits: { maxSchemaBytes: 2_000 } },
      );
      assert.equal(e.class, errorClass, e.message);
      assert.equal(e.code, code, e.message);
      assert.match(e.message, /https:\/\/example\.com\/bad\.json/);
      assert.match(e.schemaPointer ?? "", /^https:\/\/example\.com\/bad\.json#/);
    });
  }

  test("the document that embeds a reached $id is checked in full, and named", () => {
    const host = { $defs: { e: { $id: "https://example.com/emb", type: "string" }, broken: { minLength: -1 } } };
    const e = compileError(
      { $ref: "https://example.com/emb" },
      { schemaRegistry: { "https://example.com/host.json": host } },
    );
    assert.equal(e.code, "schema_invalid");
    assert.match(e.message, /https:\/\/example\.com\/host\.json/);
  });

  test("a reached document's embedded draft-07 resource names that resource", () => {
    const host = { $defs: { old: { $id: "https://example.com/old", ...DRAFT_07 } } };
    const e = compileError(
      { $ref: "https://example.com/host.json" },
      { schemaRegistry: { "https://example.com/host.json": host } },
    );
    assert.equal(e.code, "dialect_unsupported");
    assert.match(e.message, /in "https:\/\/example\.com\/host\.json"/);
  });
});

describe("`definitions` is indexed like `$defs` (Validation 2020-12 Appendix A)", () => {
  test("an $anchor inside definitions resolves", () => {
    const v = compile({ definitions: { a: { $anchor: "x", type: "string" } }, $ref: "#x" });
    assert.equal(v.isValid(1), false);
    assert.equal(v.isValid("x"), true);
  });

  test("an $id inside definitions is a resource: its own $defs win over the root's", () => {
    const v = compile({
      $id: "https://e.test/root",
      $defs: { c: { type: "string" } },
      definitions: { a: { $id: "https://e.test/a", $defs: { c: { type: "number" } }, $ref: "#/$defs/c" } },
      $ref: "#/definitions/a",
    });
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid("x"), false);
    assert.equal(
      compile({ $ref: "https://e.test/a" }, { schemaRegistry: { "https://e.test/root": v.schema } }).isValid(1),
      true,
    );
  });

  test("a $dynamicAnchor inside definitions is an anchor of its resource", () => {
    const v = compile({ definitions: { n: { $dynamicAnchor: "node", type: "integer" } }, $dynamicRef: "#node" });
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid("1"), false);
  });

  test("definitions annotates nothing, like $defs", () => {
    assert.deepEqual(compile({ definitions: { a: { type: "string" } } }).annotations(1), []);
  });
});
