/**
 * Host vocabularies (the `vocabularies` option) through the boundary: `InputSchema`, admission and a call through
 * `Execution.invoke`. The host keyword asserts on arguments (and results) where a meta-schema lists its vocabulary; a
 * required vocabulary nobody registered is `unsupported_capability` (`vocabulary_unsupported`): it refuses a strict
 * batch and quarantines the tool otherwise.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  assertion,
  Execution,
  InputSchema,
  ToolCatalog,
  type ExecutionHost,
  type KeywordDefinition,
  type VocabularyDefinition,
} from "../../../src/index.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";
const SHOP = "https://example.test/vocab/shop";
const META = "https://example.test/meta/shop";
const LENIENT_META = "https://example.test/meta/shop-optional";

const divisibleBy: KeywordDefinition = {
  keyword: "divisibleBy",
  compile(value, ctx) {
    if (!Number.isInteger(value) || (value as number) < 1) ctx.fail("divisibleBy", "must be a positive integer");
    const divisor = value as number;
    return assertion(
      "divisibleBy",
      (instance) => typeof instance !== "number" || instance % divisor === 0,
      (instance) => ({
        message: `must be divisible by ${divisor}, got ${String(instance)}`,
        params: { limit: divisor },
      }),
    );
  },
};
const shop: VocabularyDefinition = { uri: SHOP, keywords: [divisibleBy] };

/** A meta-schema listing core, applicator and validation, and the shop vocabulary as required or optional. */
function metaSchema(id: string, required: boolean): Record<string, unknown> {
  const standard = Object.fromEntries(["core", "applicator", "validation"].map((v) => [VOCAB + v, true]));
  return {
    $schema: DIALECT,
    $id: id,
    $dynamicAnchor: "meta",
    $vocabulary: { ...standard, [SHOP]: required },
    allOf: [{ $ref: DIALECT }],
  };
}

const schemaRegistry = { [META]: metaSchema(META, true), [LENIENT_META]: metaSchema(LENIENT_META, false) };
const registered = { schemaRegistry, vocabularies: [shop] };

/** A tool input schema under `meta` whose `count` must be a multiple of six. */
function packsOf(meta: string | undefined): Record<string, unknown> {
  return {
    ...(meta === undefined ? {} : { $schema: meta }),
    type: "object",
    properties: { count: { type: "integer", divisibleBy: 6 } },
    required: ["count"],
  };
}
const packs = packsOf(META);

function recordingHost(calls: unknown[], result: unknown = "ran"): ExecutionHost<unknown> {
  return {
    dispatch: (ctx) => {
      calls.push(ctx.arguments);
      return result;
    },
  };
}

describe("InputSchema with the vocabularies option", () => {
  test("the host keyword asserts on arguments where the meta-schema lists its vocabulary", () => {
    const compiled = InputSchema.validateSchema(packs, registered);
    assert.ok(compiled.ok, compiled.ok ? "" : compiled.error.message);
    const args = { count: 12 };
    const good = compiled.value.validate(args);
    assert.ok(good.ok);
    assert.equal(good.value, args, "the very same arguments object");
    const bad = compiled.value.validate({ count: 8 });
    assert.equal(bad.ok, false);
    if (bad.ok) return;
    assert.deepEqual([bad.error.class, bad.error.code], ["validation", "arguments_invalid"]);
    assert.equal(
      bad.error.message,
      'arguments do not match the input schema at "/count": must be divisible by 6, got 8',
    );
    const [unit] = bad.error.errors ?? [];
    assert.deepEqual([unit?.keyword, unit?.instanceLocation, unit?.params], ["divisibleBy", "/count", { limit: 6 }]);

    const once = InputSchema.validate(packs, { count: 8 }, registered);
    assert.equal(once.ok ? "accepted" : once.error.code, "arguments_invalid");
    assert.equal(InputSchema.validate(packs, { count: 18 }, registered).ok, true);
  });

  test("where no meta-schema lists the vocabulary, or lists it as optional, the keyword only annotates", () => {
    assert.equal(InputSchema.validate(packsOf(undefined), { count: 8 }, registered).ok, true);
    assert.equal(InputSchema.validate(packsOf(LENIENT_META), { count: 8 }, { schemaRegistry }).ok, true);
    // Registered, an optional vocabulary is active.
    assert.equal(InputSchema.validate(packsOf(LENIENT_META), { count: 8 }, registered).ok, false);
  });

  test("a required vocabulary that is not registered is unsupported_capability (vocabulary_unsupported)", () => {
    for (const result of [
      InputSchema.validateSchema(packs, { schemaRegistry }),
      InputSchema.validate(packs, { count: 12 }, { schemaRegistry }),
      InputSchema.validateSchema(packs, { schemaRegistry, vocabularies: [] }),
    ]) {
      assert.equal(result.ok, false);
      if (result.ok) continue;
      assert.deepEqual([result.error.class, result.error.code], ["unsupported_capability", "vocabulary_unsupported"]);
      assert.match(result.error.message, /requires the unknown vocabulary "https:\/\/example\.test\/vocab\/shop"/);
    }
  });

  test("the host keyword's own refusals and failures are Results, never throws", () => {
    const zero = { $schema: META, type: "object", properties: { count: { divisibleBy: 0 } } };
    const refused = InputSchema.validateSchema(zero, registered);
    assert.equal(refused.ok, false);
    if (!refused.ok) {
      assert.deepEqual(
        [refused.error.class, refused.error.code, refused.error.schemaPointer],
        ["validation", "schema_invalid", "/properties/count/divisibleBy"],
      );
    }
    const cause = new Error("down");
    const throwing: KeywordDefinition = {
      keyword: "divisibleBy",
      compile: () =>
        assertion(
          "divisibleBy",
          () => {
            throw cause;
          },
          () => ({ message: "never" }),
        ),
    };
    const failed = InputSchema.validate(
      packs,
      { count: 6 },
      { schemaRegistry, vocabularies: [{ uri: SHOP, keywords: [throwing] }] },
    );
    assert.equal(failed.ok, false);
    if (!failed.ok) {
      assert.deepEqual([failed.error.class, failed.error.code], ["execution_failure", "keyword_failed"]);
      assert.equal(failed.error.cause, cause);
    }
  });
});

describe("admission and calls with the vocabularies option", () => {
  const order = { name: "order", revision: "1", backend: "shop", inputSchema: packs };
  const ping = { name: "ping", revision: "1", backend: "elsewhere", inputSchema: { type: "object" } };

  test("admitBatch (no backends) compiles tools with the host vocabulary; invoke checks calls with it", async () => {
    const admitted = ToolCatalog.admitBatch([order, ping], registered);
    assert.ok(admitted.ok, admitted.ok ? "" : admitted.error.message);
    assert.deepEqual(admitted.value.accepted, ["order", "ping"]);
    const calls: unknown[] = [];
    const bad = await Execution.invoke(
      admitted.value,
      { name: "order", arguments: { count: 8 } },
      recordingHost(calls),
    );
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.deepEqual(
        [bad.error.stage, bad.error.class, bad.error.code],
        ["arguments", "validation", "arguments_invalid"],
      );
      assert.equal(bad.error.cause?.errors?.[0]?.keyword, "divisibleBy");
      // A host keyword's own message quotes the value: the model is told the location and the keyword only.
      assert.match(bad.error.modelText, /\/count: does not satisfy "divisibleBy"/);
      assert.match(bad.error.cause?.errors?.[0]?.error ?? "", /must be divisible by 6, got 8/);
    }
    assert.deepEqual(calls, []);
    const args = { count: 12 };
    const good = await Execution.invoke(admitted.value, { name: "order", arguments: args }, recordingHost(calls));
    assert.deepEqual(good, { ok: true, value: "ran" });
    assert.deepEqual(calls, [args]);
  });

  test("a tool's output schema is compiled and results are checked with the host vocabulary too", async () => {
    const outputSchema = { $schema: META, type: "object", properties: { total: { divisibleBy: 6 } } };
    const counted = { ...ping, name: "counted", outputSchema };
    const admitted = ToolCatalog.admitBatch([counted], registered);
    assert.ok(admitted.ok, admitted.ok ? "" : admitted.error.message);
    const call = { name: "counted", arguments: {} };
    const result = (total: number) => ({ content: [], structuredContent: { total } });
    const good = await Execution.invoke(admitted.value, call, recordingHost([], result(24)));
    assert.equal(good.ok, true);
    const bad = await Execution.invoke(admitted.value, call, recordingHost([], result(9)));
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.deepEqual([bad.error.stage, bad.error.code], ["result", "output_invalid"]);
  });

  test("strict: a tool whose meta-schema requires an unregistered vocabulary refuses the batch", () => {
    const refused = ToolCatalog.admitBatch([order, ping], { schemaRegistry });
    assert.equal(refused.ok, false);
    if (refused.ok) return;
    assert.deepEqual([refused.error.class, refused.error.code], ["unsupported_capability", "schema_rejected"]);
    assert.deepEqual(refused.error.tool, { name: "order", revision: "1" });
    assert.equal(refused.error.cause?.code, "vocabulary_unsupported");
  });

  test("quarantine: such a tool is quarantined, the others admitted, and a call to it never dispatches", async () => {
    const admitted = ToolCatalog.admitBatch([order, ping], { schemaRegistry, mode: "quarantine" });
    assert.ok(admitted.ok, admitted.ok ? "" : admitted.error.message);
    const bundle = admitted.value;
    assert.deepEqual(bundle.accepted, ["ping"]);
    assert.deepEqual(
      bundle.rejected.map((r) => [r.name, r.revision, r.schema, r.error.class, r.error.code]),
      [["order", "1", "inputSchema", "unsupported_capability", "vocabulary_unsupported"]],
    );
    const calls: unknown[] = [];
    const quarantined = await Execution.invoke(
      bundle,
      { name: "order", arguments: { count: 12 } },
      recordingHost(calls),
    );
    assert.equal(quarantined.ok, false);
    if (!quarantined.ok) {
      assert.deepEqual(
        [quarantined.error.stage, quarantined.error.class, quarantined.error.code],
        ["lookup", "unsupported_capability", "tool_quarantined"],
      );
    }
    assert.deepEqual(calls, []);
    const pinged = await Execution.invoke(bundle, { name: "ping", arguments: {} }, recordingHost(calls));
    assert.equal(pinged.ok, true);
    assert.deepEqual(calls, [{}]);
    // Registered, the same batch admits both tools in quarantine mode.
    const both = ToolCatalog.admitBatch([order, ping], { ...registered, mode: "quarantine" });
    assert.deepEqual(both.ok ? both.value.accepted : both.error.code, ["order", "ping"]);
  });
});
