/** Reference resolution at compile time (src/engine/compile/resolve.ts), through `compile`. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, SchemaError } from "../../../src/index.js";

function refused(schema: unknown, code: string, options = {}): SchemaError {
  try {
    compile(schema, options);
  } catch (e) {
    assert.ok(e instanceof SchemaError);
    assert.equal(e.code, code, e.message);
    return e;
  }
  return assert.fail("expected a SchemaError");
}

describe("resolution", () => {
  test("JSON Pointer fragments, escaped and percent-encoded", () => {
    const v = compile({
      $defs: { "a/b": { type: "string" }, "c%d": { type: "number" } },
      anyOf: [{ $ref: "#/$defs/a~1b" }, { $ref: "#/$defs/c%25d" }],
    });
    assert.equal(v.isValid("x"), true);
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid(null), false);
  });

  test("a pointer that enters an embedded resource resolves that resource's references against its own base", () => {
    const v = compile({
      $id: "https://e.test/root",
      $defs: { inner: { $id: "inner", $defs: { t: { type: "integer" } }, $ref: "#/$defs/t" }, t: { type: "string" } },
      $ref: "#/$defs/inner",
    });
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid("1"), false);
  });

  test("plain-name anchors, in the document and in a registry document", () => {
    const v = compile(
      { $ref: "https://e.test/other#name" },
      { schemaRegistry: { "https://e.test/other": { $defs: { x: { $anchor: "name", const: 1 } } } } },
    );
    assert.equal(v.isValid(1), true);
    assert.equal(v.isValid(2), false);
  });

  test("what cannot be resolved is a compile error, never a surprise during validation", () => {
    refused({ $ref: "#/$defs/missing" }, "ref_unresolved");
    refused({ $ref: "#nothing" }, "ref_unresolved");
    refused({ $ref: "https://e.test/unknown" }, "ref_unresolved");
    refused({ $ref: "#/%zz" }, "ref_invalid");
    refused({ $ref: "#/a~2b" }, "ref_invalid");
    const loader = (): unknown => {
      throw new Error("disk on fire");
    };
    assert.match(
      refused({ $ref: "https://e.test/x" }, "loader_failed", { schemaLoader: loader }).message,
      /disk on fire/,
    );
  });

  test("an async loader is named as the mistake it is, not as a schema that is no JSON", () => {
    const asyncLoader = (): unknown => Promise.resolve({ type: "string" });
    const e = refused({ $ref: "https://e.test/x" }, "loader_failed", { schemaLoader: asyncLoader });
    assert.match(e.message, /schemaLoader failed for "https:\/\/e.test\/x": it returned a Promise; .* synchronous/);
    const thenable = (): unknown => ({ then: () => undefined });
    assert.match(refused({ $ref: "https://e.test/y" }, "loader_failed", { schemaLoader: thenable }).message, /Promise/);
  });
});

describe("dynamic scope", () => {
  const tree = {
    $id: "https://e.test/tree",
    $dynamicAnchor: "node",
    type: "object",
    properties: { children: { type: "array", items: { $dynamicRef: "#node" } } },
  };
  const strict = {
    $id: "https://e.test/strict-tree",
    $dynamicAnchor: "node",
    $ref: "tree",
    unevaluatedProperties: false,
  };

  test("the outermost resource defining the anchor wins; resources in between without anchors do not matter", () => {
    const v = compile({ $defs: { tree }, ...strict, $id: "https://e.test/strict-tree" });
    assert.equal(v.isValid({ children: [{ children: [] }] }), true);
    assert.equal(v.isValid({ children: [{ children: [], extra: 1 }] }), false, "the strict tree applies deep down");
    const plain = compile(tree);
    assert.equal(plain.isValid({ children: [{ children: [], extra: 1 }] }), true);
  });

  test("through a middle resource without dynamic anchors the outer anchor still wins", () => {
    const middle = { $id: "https://e.test/middle", $ref: "tree" };
    const v = compile({
      $defs: { tree, middle },
      $id: "https://e.test/outer",
      $dynamicAnchor: "node",
      $ref: "middle",
      unevaluatedProperties: false,
    });
    assert.equal(v.isValid({ children: [{ extra: 1 }] }), false);
    assert.equal(v.isValid({ children: [{}] }), true);
  });
});
