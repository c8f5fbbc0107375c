/**
 * Shared subschema objects (docs/reference/limits.md): a host-built schema may reuse one object many times. It means
 * its JSON tree expansion, whose size counts against the schema limits, but no walk may cost more than the limits allow
 * before it stops: work is counted through proxies that count every operation on the schema objects.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compile,
  InputSchema,
  LimitError,
  OutputSchema,
  SchemaCache,
  ToolCatalog,
  upgradeDraft07,
  type Limits,
} from "../../../src/index.js";

/** `s = { anyOf: [s', s'] }` nested `depth` deep: `depth + 3` objects whose expansion has 2^depth leaves. */
function sharedAnyOf(depth: number, wrap: (o: object) => object = (o) => o, extra = {}): Record<string, unknown> {
  let s: object = wrap({ type: "string" });
  for (let i = 0; i < depth; i++) s = wrap({ anyOf: [s, s] });
  return wrap({ ...extra, type: "object", properties: wrap({ a: s }) }) as Record<string, unknown>;
}

/** The same DAG built of proxies that count every operation the library performs on the schema objects. */
function counted(depth: number, extra: Record<string, unknown> = {}): { schema: object; operations: () => number } {
  let operations = 0;
  const handler: ProxyHandler<object> = {};
  for (const trap of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const) {
    (handler as Record<string, unknown>)[trap] = (...args: unknown[]) => {
      operations++;
      return (Reflect[trap] as (...a: unknown[]) => unknown)(...args);
    };
  }
  const schema = sharedAnyOf(depth, (o) => new Proxy(o, handler), extra);
  return { schema, operations: () => operations };
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const descriptor = (inputSchema: unknown) => ({ name: "t", revision: "1", backend: "b", inputSchema });

describe("a schema that shares one subschema object 20 and 40 levels deep", () => {
  for (const depth of [20, 40]) {
    test(`depth ${depth}: compile stops at maxSchemaNodes (its 2^${depth} leaves are values), else maxSchemaBytes`, () => {
      assert.throws(
        () => compile(sharedAnyOf(depth)),
        (e: unknown) => e instanceof LimitError && e.limit === "maxSchemaNodes",
      );
      assert.throws(
        () => compile(sharedAnyOf(depth), { limits: { maxSchemaNodes: Number.MAX_SAFE_INTEGER } }),
        (e: unknown) => e instanceof LimitError && e.limit === "maxSchemaBytes",
      );
    });
    test(`depth ${depth}: InputSchema, OutputSchema and admitBatch refuse it as limit_exceeded`, () => {
      const schema = sharedAnyOf(depth);
      for (const r of [
        InputSchema.validateSchema(schema),
        InputSchema.validateSchema(schema, { cache: new SchemaCache() }),
        OutputSchema.validateSchema(schema),
      ]) {
        assert.ok(!r.ok);
        assert.deepEqual(
          [r.error.class, r.error.code, r.error.limit?.name],
          ["execution_failure", "limit_exceeded", "maxSchemaNodes"],
        );
      }
      const admitted = ToolCatalog.admitBatch([descriptor(schema)], { backends: ["b"], mode: "quarantine" });
      assert.ok(!admitted.ok);
      assert.equal(admitted.error.code, "schema_rejected");
      assert.equal(admitted.error.cause?.code, "limit_exceeded");
    });
    test(`depth ${depth}: upgradeDraft07 refuses it as limit_exceeded instead of expanding it`, () => {
      const r = upgradeDraft07({ $schema: DRAFT_07, ...sharedAnyOf(depth) });
      assert.ok(!r.ok);
      assert.equal(r.error.class, "execution_failure");
      assert.equal(r.error.code, "limit_exceeded");
    });
    test(`depth ${depth}: draft07: "upgrade" through the boundary refuses it as limit_exceeded`, () => {
      const r = InputSchema.validateSchema({ $schema: DRAFT_07, ...sharedAnyOf(depth) }, { draft07: "upgrade" });
      assert.ok(!r.ok);
      assert.equal(r.error.code, "limit_exceeded");
    });
  }
});

describe("walks over a shared subschema cost what its distinct objects cost, up to the limits", () => {
  const limits: Partial<Limits> = { maxSchemaBytes: 2_000 };
  /** Operations on the schema objects for a DAG of `depth`, through `run`. */
  function work(depth: number, run: (schema: object) => void, extra?: Record<string, unknown>): number {
    const { schema, operations } = counted(depth, extra);
    run(schema);
    return operations();
  }
  const runs: [string, (schema: object) => void, Record<string, unknown>?][] = [
    ["compile", (s) => assert.throws(() => compile(s, { limits }), LimitError)],
    ["InputSchema.validateSchema", (s) => assert.ok(!InputSchema.validateSchema(s, { limits }).ok)],
    [
      "InputSchema.validateSchema with a cache",
      (s) => assert.ok(!InputSchema.validateSchema(s, { limits, cache: new SchemaCache() }).ok),
    ],
    [
      "ToolCatalog.admitBatch",
      (s) => assert.ok(!ToolCatalog.admitBatch([descriptor(s)], { backends: ["b"], limits }).ok),
    ],
    [
      'ToolCatalog.admitBatch with draft07: "upgrade"',
      (s) => assert.ok(!ToolCatalog.admitBatch([descriptor(s)], { backends: ["b"], limits, draft07: "upgrade" }).ok),
      { $schema: DRAFT_07 },
    ],
    ["upgradeDraft07", (s) => assert.ok(!upgradeDraft07(s).ok), { $schema: DRAFT_07 }],
  ];
  for (const [name, run, extra] of runs) {
    test(`${name}: work grows with the distinct objects, not with the expansion`, () => {
      // upgradeDraft07 has no options: the default maxSchemaBytes (4 MiB) is what a 17-deep DAG exceeds.
      const [small, large] = name === "upgradeDraft07" ? [17, 40] : [10, 40];
      const before = work(small, run, extra);
      // Each distinct object is looked at a bounded number of times (the expansion has 2^depth leaves).
      assert.ok(before <= 40 * (small + 3), `${name}: ${before} operations on ${small + 3} objects`);
      const after = work(large, run, extra);
      assert.ok(after <= 40 * (large + 3), `${name}: ${after} operations on ${large + 3} objects`);
    });
  }
});

describe("a shared subschema within the limits means its expansion", () => {
  test("it compiles and validates as the tree it stands for, cache or not", () => {
    const schema = sharedAnyOf(6);
    for (const options of [{}, { cache: new SchemaCache() }]) {
      const compiled = InputSchema.validateSchema(schema, options);
      assert.ok(compiled.ok);
      assert.equal(compiled.value.validate({ a: "x" }).ok, true);
      const refused = compiled.value.validate({ a: 1 });
      assert.ok(!refused.ok);
      assert.equal(refused.error.code, "arguments_invalid");
    }
  });
  test("its expanded size counts against maxSchemaBytes, exactly as the same tree written out", () => {
    const schema = sharedAnyOf(8);
    const tree = JSON.parse(JSON.stringify(schema)) as unknown;
    const fits = (value: unknown, maxSchemaBytes: number): boolean => {
      try {
        compile(value, { limits: { maxSchemaBytes } });
        return true;
      } catch (e) {
        if (e instanceof LimitError && e.limit === "maxSchemaBytes") return false;
        throw e;
      }
    };
    // The smallest limit the tree fits in, by bisection.
    let [low, high] = [0, 1_000_000];
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (fits(tree, mid)) high = mid;
      else low = mid + 1;
    }
    // 256 leaves of `{"type":"string"}` alone: the expansion is measured, not the 11 distinct objects.
    assert.ok(low > 256 * 17, `the expansion is what is measured (${low} bytes)`);
    assert.equal(fits(schema, low), true);
    assert.equal(fits(schema, low - 1), false);
  });
  test("a draft-07 DAG within the limits upgrades to the tree it stands for", () => {
    const r = upgradeDraft07({ $schema: DRAFT_07, ...sharedAnyOf(4) });
    assert.ok(r.ok);
    const v = compile(r.value.schema);
    assert.equal(v.isValid({ a: "x" }), true);
    assert.equal(v.isValid({ a: 1 }), false);
  });
});
