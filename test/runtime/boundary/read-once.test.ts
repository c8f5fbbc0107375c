/**
 * What is checked is what runs (docs/guide/boundary.md, docs/project/security.md): accessor properties are not JSON
 * data, so the boundary's JSON check refuses them in arguments, results and schemas, naming the pointer, without
 * calling them; descriptor fields are read once, into what is checked and what is handed on.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compile,
  Execution,
  InputSchema,
  OutputSchema,
  SchemaError,
  ToolCatalog,
  type ExecutionError,
} from "../../../src/index.js";
import { tool } from "../helpers.js";

const backends = ["b"];

/** `object` (a new one by default) whose `key` is a getter returning `first` once, then `then`; `reads()` counts. */
function flipping<O extends object = Record<string, unknown>>(
  key: string,
  first: unknown,
  then: unknown,
  enumerable = true,
  object: O = {} as O,
) {
  let reads = 0;
  Object.defineProperty(object, key, {
    enumerable,
    configurable: true,
    get() {
      reads++;
      return reads === 1 ? first : then;
    },
  });
  return { object, reads: () => reads };
}

describe("accessor properties in arguments are refused, and never called", () => {
  const fileSchema = {
    type: "object",
    properties: { path: { type: "string", pattern: "^/safe/" }, list: { type: "array", items: { type: "string" } } },
    required: ["path"],
  };
  const admitted = () => {
    const r = ToolCatalog.admitBatch([tool("read", fileSchema)], { backends });
    assert.ok(r.ok);
    return r.value;
  };
  const cases: [string, () => { args: unknown; reads: () => number }, string][] = [
    [
      "a getter that passes the pattern, then returns another path",
      () => {
        const { object, reads } = flipping("path", "/safe/notes", "/etc/shadow");
        return { args: object, reads };
      },
      "/path",
    ],
    [
      "a getter inside an array",
      () => {
        const { object, reads } = flipping("0", "ok", 7, true, [] as unknown[]);
        return { args: { path: "/safe/a", list: object }, reads };
      },
      "/list/0",
    ],
    [
      "a non-enumerable getter (the schema's required and properties still see it)",
      () => {
        const { object, reads } = flipping("path", "/safe/notes", "/etc/shadow", false);
        return { args: object, reads };
      },
      "/path",
    ],
  ];
  for (const [label, make, pointer] of cases) {
    test(`${label}: arguments_invalid at ${pointer}, nothing dispatched`, async () => {
      const { args, reads } = make();
      let dispatched: unknown;
      const r = (await Execution.invoke(
        admitted(),
        { name: "read", arguments: args },
        { dispatch: (ctx) => (dispatched = (ctx.arguments as { path: unknown }).path) },
      )) as { ok: boolean; error: ExecutionError };
      assert.equal(r.ok, false);
      assert.deepEqual([r.error.code, r.error.stage], ["arguments_invalid", "arguments"]);
      assert.equal(r.error.cause?.instancePointer, pointer);
      assert.match(r.error.message, /property/);
      assert.equal(dispatched, undefined);
      assert.equal(reads(), 0, "the check never calls the getter");
    });
  }
  test("a non-enumerable data property is not JSON data either", () => {
    const args = {};
    Object.defineProperty(args, "path", { value: "/safe/x", enumerable: false });
    const r = InputSchema.validate(fileSchema, args);
    assert.ok(!r.ok);
    assert.deepEqual([r.error.code, r.error.instancePointer], ["arguments_invalid", "/path"]);
  });
  test("plain data with the same values passes, and is the very same object", () => {
    const args = { path: "/safe/notes", list: ["a"] };
    const r = InputSchema.validate(fileSchema, args);
    assert.ok(r.ok);
    assert.equal(r.value, args);
  });
});

describe("a result is read once: what is checked is what is returned", () => {
  const outputSchema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
  const admitted = () => {
    const r = ToolCatalog.admitBatch([tool("count", { type: "object" }, { outputSchema })], { backends });
    assert.ok(r.ok);
    return r.value;
  };
  const invoke = (result: unknown) =>
    Execution.invoke(admitted(), { name: "count" }, { dispatch: () => result }) as Promise<{
      ok: boolean;
      error: ExecutionError;
    }>;
  const results: [string, () => { result: unknown; reads: () => number }, string][] = [
    [
      "structuredContent that is valid when checked and invalid after",
      () => {
        const { object, reads } = flipping("structuredContent", { n: 1 }, { n: "one" });
        return { result: Object.assign(object, { content: [] }), reads };
      },
      "/structuredContent",
    ],
    [
      "isError that waives the check once, then reads false",
      () => {
        const { object, reads } = flipping("isError", true, false);
        return { result: Object.assign(object, { content: [], structuredContent: { n: "x" } }), reads };
      },
      "/isError",
    ],
    [
      "a getter inside structuredContent",
      () => {
        const { object, reads } = flipping("n", 1, "one");
        return { result: { content: [], structuredContent: object }, reads };
      },
      "/n",
    ],
  ];
  for (const [label, make, pointer] of results) {
    test(`${label}: output_invalid at ${pointer}`, async () => {
      const { result, reads } = make();
      const r = await invoke(result);
      assert.equal(r.ok, false);
      assert.deepEqual([r.error.code, r.error.stage], ["output_invalid", "result"]);
      assert.equal(r.error.cause?.instancePointer, pointer);
      assert.equal(r.error.detail, result);
      assert.equal(reads(), 0);
    });
  }
});

describe("descriptor fields are read once", () => {
  /** A descriptor whose every field is a getter that counts its reads. */
  function countedDescriptor(fields: Record<string, () => unknown>): {
    descriptor: object;
    reads: Map<string, number>;
  } {
    const reads = new Map<string, number>();
    const descriptor = {};
    for (const [key, read] of Object.entries(fields)) {
      Object.defineProperty(descriptor, key, {
        enumerable: true,
        get() {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return read();
        },
      });
    }
    return { descriptor, reads };
  }
  test("two descriptors whose name getters swap cannot register one tool's schema under the other's grant", () => {
    const open = { type: "object" };
    const locked = { type: "object", additionalProperties: false };
    let aReads = 0;
    let bReads = 0;
    const a = countedDescriptor({
      name: () => (++aReads === 1 ? "a" : "b"),
      revision: () => "1",
      backend: () => "b",
      inputSchema: () => open,
    });
    const b = countedDescriptor({
      name: () => (++bReads === 1 ? "b" : "a"),
      revision: () => "1",
      backend: () => "b",
      inputSchema: () => locked,
    });
    const r = ToolCatalog.admitBatch([a.descriptor, b.descriptor], {
      backends,
      authority: { grants: { a: "granted to a" } },
    });
    assert.ok(r.ok, r.ok ? "" : r.error.message);
    for (const reads of [a.reads, b.reads]) {
      assert.deepEqual([...reads.values()], [1, 1, 1, 1], "every field read once");
    }
    assert.equal(r.value.registry.get("a")?.inputSchema, open);
    assert.equal(r.value.registry.get("a")?.compiled.schema, open);
    assert.equal(r.value.registry.get("b")?.inputSchema, locked);
    assert.deepEqual(
      r.value.tools.map((t) => [t.name, t.inputSchema]),
      [
        ["a", open],
        ["b", locked],
      ],
    );
  });
  test("the schema a getter returns is the one compiled and the one the provider tool carries", () => {
    let reads = 0;
    const first = { type: "object", properties: { q: { type: "string" } } };
    const later = { type: "object" };
    const d = countedDescriptor({
      name: () => "t",
      revision: () => "1",
      backend: () => "b",
      inputSchema: () => (++reads === 1 ? first : later),
      description: () => "d",
    });
    const r = ToolCatalog.admitBatch([d.descriptor], { backends });
    assert.ok(r.ok);
    const admitted = r.value.registry.get("t")!;
    assert.equal(admitted.compiled.schema, first);
    assert.equal(admitted.inputSchema, first);
    assert.equal(admitted.provider.inputSchema, first);
    assert.equal(reads, 1);
  });
});

describe("accessor properties in schemas are refused where non-JSON values are", () => {
  const withGetter = (at: "root" | "nested") => {
    const target: Record<string, unknown> = {};
    Object.defineProperty(target, "type", { enumerable: true, get: () => "string" });
    return at === "root" ? Object.assign(target, { properties: {} }) : { type: "object", properties: { a: target } };
  };
  test("InputSchema, OutputSchema: schema_not_json at the accessor's pointer", () => {
    for (const [at, pointer] of [
      ["nested", "/properties/a/type"],
      ["root", "/type"],
    ] as const) {
      for (const r of [InputSchema.validateSchema(withGetter(at)), OutputSchema.validateSchema(withGetter(at))]) {
        assert.ok(!r.ok);
        assert.deepEqual([r.error.code, r.error.schemaPointer], ["schema_not_json", pointer]);
        assert.match(r.error.message, /accessor/);
      }
    }
  });
  test("compile: a SchemaError schema_not_json naming the pointer", () => {
    assert.throws(
      () => compile(withGetter("nested")),
      (e: unknown) =>
        e instanceof SchemaError && e.code === "schema_not_json" && e.schemaPointer === "/properties/a/type",
    );
  });
});
