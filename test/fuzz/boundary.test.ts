/**
 * Mutation fuzzing of the runtime boundary: the catalog schemas and call arguments from fixtures/catalogs,
 * mutated (test/fuzz/mutations.ts), go through InputSchema.validateSchema, InputSchema.validate,
 * CompiledInputSchema.validate and ToolCatalog.admitBatch in both modes. Every outcome is a Result (never a
 * throw), success returns the same arguments reference, the schema is left unchanged, and no built-in
 * prototype is ever polluted.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { InputSchema, ToolCatalog } from "../../src/index.js";
import { repoRoot } from "../suite/locate.js";
import {
  mutate,
  mutationsArb,
  polluted,
  prototypeSnapshot,
  structuredCloneSafe,
  wrapDeep,
  type Mutation,
} from "./mutations.js";

interface Catalog {
  backends: string[];
  tools: { name: string; inputSchema: unknown }[];
  calls: { tool: string; arguments: unknown }[];
}

const dir = join(repoRoot, "fixtures", "catalogs");
const catalogs: Catalog[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Catalog);

const CLASSES = ["validation", "unsupported_capability", "execution_failure"];

/** Calls `fn`; the boundary never throws, so any throw fails the test. */
function guarded<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    return assert.fail(`${where} threw ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Asserts that `r` is a well-formed Result; returns its `ok`. */
function assertResult(r: unknown, where: string): boolean {
  assert.ok(r !== null && typeof r === "object", `${where}: not an object`);
  const result = r as { ok: unknown; value?: unknown; error?: { class?: unknown; code?: unknown; message?: unknown } };
  if (result.ok === true) {
    assert.ok(Object.hasOwn(result, "value"), `${where}: ok without value`);
    return true;
  }
  assert.equal(result.ok, false, `${where}: ok is neither true nor false`);
  const e = result.error;
  assert.ok(e !== undefined && e !== null, `${where}: failure without error`);
  assert.ok(CLASSES.includes(e.class as string), `${where}: error class ${String(e.class)}`);
  assert.equal(typeof e.code, "string", `${where}: error code`);
  assert.equal(typeof e.message, "string", `${where}: error message`);
  return false;
}

function jsonOrUndefined(v: unknown): string | undefined {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
  } catch {
    return undefined;
  }
}

interface BoundaryCase {
  file: number;
  tool: number;
  call: number;
  schemaMutations: Mutation[];
  argMutations: Mutation[];
  toolMutations: Mutation[];
  mode: "strict" | "quarantine";
}

const none = fc.constant<Mutation[]>([]);
const boundaryCase: fc.Arbitrary<BoundaryCase> = fc.record({
  file: fc.nat(),
  tool: fc.nat(),
  call: fc.nat(),
  schemaMutations: fc.oneof({ weight: 1, arbitrary: none }, { weight: 4, arbitrary: mutationsArb }),
  argMutations: fc.oneof({ weight: 1, arbitrary: none }, { weight: 2, arbitrary: mutationsArb }),
  toolMutations: fc.oneof({ weight: 2, arbitrary: none }, { weight: 1, arbitrary: mutationsArb }),
  mode: fc.constantFrom("strict" as const, "quarantine" as const),
});

function runCase(c: BoundaryCase, baseline: string): void {
  const catalog = catalogs[c.file % catalogs.length] as Catalog;
  const k = c.tool % catalog.tools.length;
  const tool = catalog.tools[k] as Catalog["tools"][number];
  const calls = catalog.calls.filter((x) => x.tool === tool.name);
  const call = calls.length === 0 ? { arguments: {} } : (calls[c.call % calls.length] as Catalog["calls"][number]);

  const schema = mutate(structuredCloneSafe(tool.inputSchema), c.schemaMutations);
  const args = mutate(structuredCloneSafe(call.arguments), c.argMutations);
  const schemaBefore = jsonOrUndefined(schema);

  const r1 = guarded("validateSchema", () => InputSchema.validateSchema(schema));
  const compiledOk = r1 !== undefined && assertResult(r1, "validateSchema");
  const r2 = guarded("validate", () => InputSchema.validate(schema, args));
  if (r2 !== undefined && assertResult(r2, "validate"))
    assert.equal((r2 as { value: unknown }).value, args, "validate must return the same arguments");
  if (compiledOk && r1.ok) {
    const r3 = guarded("compiled.validate", () => r1.value.validate(args));
    if (r3 !== undefined && r2 !== undefined) {
      assert.equal(assertResult(r3, "compiled.validate"), r2.ok, "compiled.validate and InputSchema.validate disagree");
    }
  }

  if (schemaBefore !== undefined) assert.equal(jsonOrUndefined(schema), schemaBefore, "the schema was changed");

  const window = [0, 1, 2].map(
    (d) => structuredCloneSafe(catalog.tools[(k + d) % catalog.tools.length]) as Record<string, unknown>,
  );
  const uniqueWindow = window.filter((t, i) => window.findIndex((u) => u["name"] === t["name"]) === i);
  (uniqueWindow[0] as Record<string, unknown>)["inputSchema"] = structuredCloneSafe(schema);
  const tools = mutate(uniqueWindow, c.toolMutations);
  const r4 = guarded(`admitBatch(${c.mode})`, () =>
    ToolCatalog.admitBatch(tools as unknown[], { mode: c.mode, backends: catalog.backends }),
  );
  if (r4 !== undefined) assertResult(r4, `admitBatch(${c.mode})`);
  assert.equal(prototypeSnapshot(), baseline, "a built-in prototype gained or lost a property");
  assert.equal(polluted(), false, "Object.prototype or Array.prototype was polluted");
}

describe("boundary mutation fuzzing", () => {
  test("mutated catalog schemas, arguments and batches always yield a Result", () => {
    const baseline = prototypeSnapshot();
    fc.assert(
      fc.property(boundaryCase, (c) => runCase(c, baseline)),
      { seed: 20260301, numRuns: 2500, includeErrorInReport: true },
    );
  });

  test("unmutated catalogs still behave (the fuzz harness itself is sound)", () => {
    const baseline = prototypeSnapshot();
    for (let file = 0; file < catalogs.length; file++) {
      for (let tool = 0; tool < (catalogs[file] as Catalog).tools.length; tool++) {
        runCase(
          { file, tool, call: 0, schemaMutations: [], argMutations: [], toolMutations: [], mode: "quarantine" },
          baseline,
        );
      }
    }
  });

  test("200-level allOf / not wrapping fails closed as a Result", () => {
    for (const kind of ["allOf", "not"] as const) {
      const schema = { type: "object", properties: { a: wrapDeep({ type: "string" }, 200, kind) } };
      const r = InputSchema.validate(schema, { a: "x" });
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.error.class, "execution_failure");
    }
  });

  test("prototype-named keys from JSON.parse stay data in schema and arguments", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}},"required":["__proto__"]}',
    ) as unknown;
    const good = JSON.parse('{"__proto__":"x","constructor":1}') as unknown;
    const bad = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    ) as unknown;
    assert.equal(InputSchema.validate(schema, good).ok, true);
    assert.equal(InputSchema.validate(schema, bad).ok, false);
    assert.equal(InputSchema.validate(schema, {}).ok, false);
    assert.equal(polluted(), false);
  });

  test("accessor properties and proxies in schemas yield a Result", () => {
    const throwingGetter = { type: "object" } as Record<string, unknown>;
    Object.defineProperty(throwingGetter, "properties", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    const trap = new Proxy(
      { type: "object" },
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    for (const schema of [throwingGetter, trap]) {
      assertResult(InputSchema.validateSchema(schema), "validateSchema(accessor)");
      assertResult(InputSchema.validate(schema, {}), "validate(accessor)");
      assertResult(
        ToolCatalog.admitBatch([{ name: "t", revision: "1", backend: "b", inputSchema: schema }], { backends: ["b"] }),
        "admitBatch(accessor)",
      );
    }
  });
});

/** Regressions: minimal reproductions of what the mutation fuzz found (fixed in src). */
describe("regressions found by fuzzing (boundary)", () => {
  test("regression: admitBatch throws on a bigint or cyclic tool name or backend", () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    for (const field of [{ name: 10n }, { name: cycle }, { backend: 10n }, { backend: cycle }]) {
      const tool = { name: "t", revision: "1", backend: "b", inputSchema: { type: "object" }, ...field };
      let r: unknown;
      assert.doesNotThrow(
        () => {
          r = ToolCatalog.admitBatch([tool], { backends: ["b"] });
        },
        `admitBatch threw for ${Object.keys(field)[0]}`,
      );
      assert.equal(assertResult(r, "admitBatch"), false);
    }
  });

  test("regression: InputSchema.validate throws on arguments with a throwing getter or a trapping Proxy", () => {
    const getter = {} as Record<string, unknown>;
    Object.defineProperty(getter, "a", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    for (const args of [getter, trap]) {
      let r: unknown;
      assert.doesNotThrow(() => {
        r = InputSchema.validate({ type: "object" }, args);
      });
      assert.equal(assertResult(r, "validate"), false);
    }
  });

  test("regression: admitBatch throws on a tool descriptor with a throwing getter", () => {
    const tool = { revision: "1", backend: "b", inputSchema: { type: "object" } } as Record<string, unknown>;
    Object.defineProperty(tool, "name", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    let r: unknown;
    assert.doesNotThrow(() => {
      r = ToolCatalog.admitBatch([tool], { backends: ["b"] });
    });
    assert.equal(assertResult(r, "admitBatch"), false);
  });
});
