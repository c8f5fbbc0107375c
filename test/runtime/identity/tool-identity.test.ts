/** A tool definition's identity: what of a descriptor its canonical form covers, and its SHA-256 digest. */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { LimitError, SchemaError } from "../../../src/index.js";
import {
  canonicalDigest,
  canonicalTool,
  modelFacing,
  toolDigest,
} from "../../../src/runtime/identity/tool-identity.js";
import { reordered } from "./helpers.js";

const search = () => ({
  name: "search",
  revision: "r1",
  backend: "b",
  title: "Search",
  description: "Searches the index.",
  inputSchema: {
    type: "object",
    properties: { q: { type: "string", description: "the query" }, limit: { type: "integer", minimum: 1 } },
    required: ["q"],
  },
  annotations: { readOnlyHint: true },
  _meta: { fetchedAt: "2026-01-01T00:00:00Z" },
});

/** What node:crypto says the digest of a text is, in the form `toolDigest` writes. */
const nodeDigest = (text: string): string => "sha256-" + createHash("sha256").update(text, "utf8").digest("base64url");

function refusal(run: () => unknown): SchemaError {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof SchemaError, `a SchemaError, got ${String(e)}`);
    return e;
  }
  assert.fail("expected a refusal");
}

describe("canonicalTool", () => {
  test("the model-facing fields and the backend, sorted; not _meta or revision", () => {
    assert.equal(
      canonicalTool(search()),
      '{"annotations":{"readOnlyHint":true},"backend":"b","description":"Searches the index.","inputSchema":' +
        '{"properties":{"limit":{"minimum":1,"type":"integer"},"q":{"description":"the query","type":"string"}},' +
        '"required":["q"],"type":"object"},"name":"search","title":"Search"}',
    );
  });

  test("key-order permutations give the same text and the same digest", async () => {
    const texts = new Set<string>();
    const digests = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const tool = reordered(search(), seed);
      texts.add(canonicalTool(tool));
      digests.add(await toolDigest(tool));
    }
    assert.equal(texts.size, 1);
    assert.deepEqual([...digests], [await toolDigest(search())]);
  });

  test("_meta and revision changes do not change the canonical form; the backend does", () => {
    const before = canonicalTool(search());
    const changed = { ...search(), revision: "r2", _meta: { fetchedAt: "later", nonce: [1, 2] } };
    assert.equal(canonicalTool(changed), before);
    assert.notEqual(canonicalTool({ ...changed, backend: "other" }), before);
    const { _meta: _dropped, ...withoutMeta } = search();
    assert.equal(canonicalTool(withoutMeta), before);
  });

  test("every other field counts, those a later MCP version adds included", () => {
    const base = canonicalTool(search());
    const variants = [
      { icons: [{ src: "https://example.test/i.png" }] },
      { execution: { taskSupport: "optional" } },
      { outputSchema: true },
      { futureField: { x: 1 } },
      { description: "Searches the index. " },
      { annotations: { readOnlyHint: false } },
    ];
    const texts = variants.map((extra) => canonicalTool({ ...search(), ...extra }));
    assert.equal(new Set([base, ...texts]).size, variants.length + 1);
  });

  test("modelFacing keeps the very same values and does not change the descriptor", () => {
    const tool = search();
    const part = modelFacing(tool);
    assert.equal(part["inputSchema"], tool.inputSchema);
    assert.deepEqual(Object.keys(part).sort(), ["annotations", "description", "inputSchema", "name", "title"]);
    assert.equal(tool._meta.fetchedAt, "2026-01-01T00:00:00Z");
  });

  test("a field set to undefined is absent, as admission and JSON.stringify treat it; inside a field it is not JSON", () => {
    const absent = { ...search(), outputSchema: undefined, title: undefined };
    const { title: _title, ...untitled } = search();
    assert.equal(canonicalTool(absent), canonicalTool(untitled));
    assert.equal(refusal(() => canonicalTool({ ...search(), annotations: { title: undefined } })).code, "not_json");
  });

  test("refusals: not an object, a class instance, an accessor field, non-JSON inside, the limits", () => {
    for (const bad of [null, "search", [search()]])
      assert.equal(refusal(() => canonicalTool(bad)).code, "tool_invalid");
    class Tool {
      name = "x";
    }
    assert.deepEqual(
      [refusal(() => canonicalTool(new Tool())).code, refusal(() => canonicalTool(new Tool())).schemaPointer],
      ["not_json", ""],
    );
    const accessor = Object.defineProperty(search(), "description", { get: () => "x", enumerable: true });
    assert.equal(refusal(() => canonicalTool(accessor)).schemaPointer, "/description");
    const withFunction = search();
    (withFunction.inputSchema.properties.limit as Record<string, unknown>)["default"] = () => 10;
    assert.equal(refusal(() => canonicalTool(withFunction)).schemaPointer, "/inputSchema/properties/limit/default");
    const long = { ...search(), description: "x".repeat(2_000) };
    const e = refusal(() => canonicalTool(long, { maxSchemaBytes: 1_000 }));
    assert.ok(e instanceof LimitError && e.limit === "maxSchemaBytes", e.message);
    assert.equal(e.schemaPointer, "/description");
    // Not model-facing, so not part of the canonical form, so not refused by it.
    assert.equal(canonicalTool({ ...search(), _meta: { f: () => 1 } }), canonicalTool(search()));
  });
});

describe("toolDigest", () => {
  test("known SHA-256 vectors (FIPS 180-2 'abc', the empty string), as sha256- and unpadded base64url", async () => {
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    assert.equal(await canonicalDigest("abc"), "sha256-" + Buffer.from(abc, "hex").toString("base64url"));
    assert.equal(await canonicalDigest(""), "sha256-" + Buffer.from(empty, "hex").toString("base64url"));
    assert.equal(await canonicalDigest("abc"), "sha256-ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });

  test("the digest of the canonical text's UTF-8 bytes, as node:crypto computes it", async () => {
    const tools = [
      search(),
      { ...search(), description: "Sucht im Index: äöü € \u{1F50D}" },
      { name: "t", inputSchema: { type: "object" } },
    ];
    for (const tool of tools) {
      const digest = await toolDigest(tool);
      assert.match(digest, /^sha256-[A-Za-z0-9_-]{43}$/);
      assert.equal(digest, nodeDigest(canonicalTool(tool)));
    }
  });

  test("rejects (never throws synchronously) with what canonicalTool throws", async () => {
    const pending = toolDigest({ name: "x", inputSchema: { default: 1n } });
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof SchemaError && e.schemaPointer === "/inputSchema/default",
    );
  });

  test("without Web Crypto the digest is unsupported_capability", async (t) => {
    const original = Object.getOwnPropertyDescriptor(globalThis, "crypto");
    assert.ok(original !== undefined);
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    t.after(() => Object.defineProperty(globalThis, "crypto", original));
    await assert.rejects(
      toolDigest(search()),
      (e: unknown) => e instanceof SchemaError && e.code === "web_crypto_unavailable",
    );
  });
});
