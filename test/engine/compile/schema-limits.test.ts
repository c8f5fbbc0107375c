/**
 * The schema limits count every JSON value of a schema (docs/reference/limits.md "The limits"): keyword values such as `const`, `enum`,
 * `default` and `examples`, and unknown keywords' values, count against `maxSchemaNodes` and nest under
 * `maxSchemaDepth` like subschemas do, in the one walk that measures a document. So a schema within the limits is
 * cheap to admit, and anything beyond them is refused naming the pointer where the walk stopped. Work is counted
 * through proxies, never timed.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, LimitError, type CompileOptions, type Limits } from "../../../src/index.js";

/** `depth` arrays, each holding the next (depth 1 is `[]`). */
function nestedArrays(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/** The `LimitError` compiling `schema` throws. */
function limitHit(schema: unknown, limits?: Partial<Limits>, options: CompileOptions = {}): LimitError {
  try {
    compile(schema, limits === undefined ? options : { ...options, limits });
  } catch (e) {
    assert.ok(e instanceof LimitError, String(e));
    return e;
  }
  return assert.fail("the schema should not compile");
}

/** `value` behind a proxy that counts every operation compiling performs on it. */
function counted<T extends object>(value: T): { value: T; operations: () => number } {
  let operations = 0;
  const handler: ProxyHandler<T> = {};
  for (const trap of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const) {
    (handler as Record<string, unknown>)[trap] = (...args: unknown[]) => {
      operations++;
      return (Reflect[trap] as (...a: unknown[]) => unknown)(...args);
    };
  }
  return { value: new Proxy(value, handler), operations: () => operations };
}

describe("maxSchemaNodes counts every value of a schema", () => {
  test("a 2,000,000-element const is refused at the array, before its elements are read", () => {
    const { value, operations } = counted(Array.from({ length: 2_000_000 }, (_, i) => i % 10));
    const e = limitHit({ type: "object", properties: { a: { const: value } } });
    assert.equal(e.limit, "maxSchemaNodes");
    assert.equal(e.schemaPointer, "/properties/a/const");
    assert.ok(operations() < 20, `${operations()} operations on the array`);
  });

  test("const, enum, default, examples and unknown keywords' values count, each value once", () => {
    // The root, "t", the array and its 2 numbers: 5 values in each.
    for (const keyword of ["const", "enum", "default", "examples", "x-unknown"]) {
      const schema = { title: "t", [keyword]: [1, 2] };
      const valid = keyword === "const" ? [1, 2] : keyword === "enum" ? 1 : {};
      assert.equal(compile(schema, { limits: { maxSchemaNodes: 5 } }).isValid(valid), true, keyword);
      const e = limitHit(schema, { maxSchemaNodes: 4 });
      assert.equal(e.limit, "maxSchemaNodes", keyword);
      assert.equal(e.schemaPointer, `/${keyword}`, keyword);
    }
  });

  test("an object's members count, and the pointer names the value that exceeds the limit", () => {
    const schema = { default: { a: 1, b: { c: [true, null] } } };
    // root, the object, 1, the inner object, the array, true, null: 7 values.
    assert.ok(compile(schema, { limits: { maxSchemaNodes: 7 } }).isValid(0));
    assert.equal(limitHit(schema, { maxSchemaNodes: 6 }).schemaPointer, "/default/b/c");
    assert.equal(limitHit(schema, { maxSchemaNodes: 3 }).schemaPointer, "/default/b");
  });

  test("the values of every document a compile reads count together", () => {
    const schemaRegistry = { "https://example.test/d": { enum: ["a", "b", "c"] } };
    // The root: the object and the reference (2 values); the document: the object, the array, 3 strings (5).
    const root = { $ref: "https://example.test/d" };
    assert.ok(compile(root, { schemaRegistry, limits: { maxSchemaNodes: 7 } }).isValid("a"));
    const e = limitHit(root, { maxSchemaNodes: 6 }, { schemaRegistry });
    assert.equal(e.limit, "maxSchemaNodes");
    assert.equal(e.schemaPointer, "https://example.test/d#/enum");
  });
});

describe("maxSchemaDepth counts the nesting of every value", () => {
  test("a const nested 1,000,000 arrays deep is refused at the 129th, reading only what lies above it", () => {
    const innermost = nestedArrays(1_000_000);
    const { value, operations } = counted(innermost);
    const e = limitHit({ type: "object", properties: { a: { const: value } } });
    assert.equal(e.limit, "maxSchemaDepth");
    // `a` is level 1 (`properties` only holds subschemas), the const's arrays levels 2, 3, …: the 128th is over.
    assert.equal(e.schemaPointer, "/properties/a/const" + "/0".repeat(127));
    assert.ok(operations() < 20, `${operations()} operations on the outermost array`);
  });

  test("an enum value nested 20,000 deep is refused naming its pointer", () => {
    const e = limitHit({ enum: [nestedArrays(20_000)] });
    assert.equal(e.limit, "maxSchemaDepth");
    // The enum array is level 1, its first value level 2: the 128th array of that value is level 129.
    assert.equal(e.schemaPointer, "/enum/0" + "/0".repeat(127));
  });

  test("values nest at the level of the subschema that holds them; holders of subschemas add no level", () => {
    const limits = { maxSchemaDepth: 3 };
    // Levels: the root 0, `p` 1, `items` 2, `default`'s array 3.
    const schema = { properties: { p: { items: { default: [] } } } };
    assert.ok(compile(schema, { limits }).isValid({ p: [1] }));
    const deeper = { properties: { p: { items: { default: [[]] } } } };
    assert.equal(limitHit(deeper, limits).schemaPointer, "/properties/p/items/default/0");
    const allOf = { allOf: [{ anyOf: [{ not: {} }] }] };
    assert.ok(compile(allOf, { limits }).isValid(1) === false);
    assert.equal(
      limitHit({ allOf: [{ anyOf: [{ not: { not: {} } }] }] }, limits).schemaPointer,
      "/allOf/0/anyOf/0/not/not",
    );
  });
});

describe("schemas at the limits still compile", () => {
  test("a const nested exactly to maxSchemaDepth, and a chain of maxSchemaDepth subschemas", () => {
    assert.ok(compile({ const: nestedArrays(128) }).isValid(nestedArrays(128)));
    assert.equal(limitHit({ const: nestedArrays(129) }).limit, "maxSchemaDepth");
    let chain: Record<string, unknown> = { type: "integer" };
    for (let i = 0; i < 128; i++) chain = { properties: { a: chain } };
    assert.equal(compile(chain).isValid({ a: { a: 1 } }), true);
    assert.equal(limitHit({ properties: { a: chain } }).limit, "maxSchemaDepth");
  });

  test("a schema of exactly maxSchemaNodes values", () => {
    const values = Array.from({ length: 99_998 }, (_, i) => i);
    // The root, the enum array and its 99,998 numbers: 100,000 values.
    const validator = compile({ enum: values });
    assert.equal(validator.isValid(99_997), true);
    assert.equal(limitHit({ enum: [...values, 99_998] }).limit, "maxSchemaNodes");
  });
});
