/**
 * The verdict fast path against the accounted path (docs/project/performance.md "The verdict fast path"): on generated
 * schemas and instances, under the default limits and under limits set at and just under what each instance needs,
 * whatever the fast path decides is the accounted path's verdict, and a limit is only ever reported by the accounted
 * path (`isValid` throws what it throws). The accounted path here is the node's boolean path and the JSON data check
 * (`Validator.count`).
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { compile, LimitError, type Limits, type Validator } from "../../../src/index.js";
import { caseArb, instanceArb, poolOf, setOwn, type Json, type JsonObject } from "../../fuzz/arbitraries.js";

type Outcome = { valid: boolean } | { limit: string; value: number };

function outcome(run: () => boolean): Outcome {
  try {
    return { valid: run() };
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    return { limit: e.limit, value: e.value };
  }
}

/** How often the fast path decided, over every comparison of a test. */
interface Tally {
  decided: number;
  compared: number;
}

/** Compares both paths on one instance; returns whether the fast path decided. */
function agree(validator: Validator, instance: unknown, where: string): boolean {
  const accounted = outcome(() => validator.count(instance).valid);
  const fast = validator.fastVerdict(instance);
  if (fast !== undefined) assert.deepEqual({ valid: fast }, accounted, `fast path decided: ${where}`);
  assert.deepEqual(
    outcome(() => validator.isValid(instance)),
    accounted,
    `isValid: ${where}`,
  );
  // A limit is the accounted path's, and its output pass locates any limit it meets at an instance location.
  if ("limit" in accounted) {
    try {
      validator.evaluate(instance);
    } catch (e) {
      assert.ok(e instanceof LimitError && e.instancePointer !== undefined, `located: ${where}`);
    }
  }
  return fast !== undefined;
}

/** The limits an instance meets as it goes: each counted limit at what it needs, and one less. */
function limitsAround(validator: Validator, instance: unknown): Partial<Limits>[] {
  let need = 50;
  try {
    need = validator.count(instance).steps;
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
  }
  const variants: Partial<Limits>[] = [];
  for (const n of [need, need - 1, need + 1, Math.floor(need / 2)])
    if (n >= 0) variants.push({ maxEvaluationSteps: n });
  for (const n of [0, 1, 2, 3, 5, 8]) {
    variants.push({ maxInstanceNodes: n }, { maxInstanceDepth: n }, { maxArrayLength: n });
    variants.push({ maxObjectProperties: n }, { maxEvaluationDepth: n + 1 }, { maxReferenceDepth: n });
  }
  return variants;
}

/** Checks `schema` on `instances` under the default limits and the limits around each instance. */
function checkBoth(schema: unknown, instances: readonly unknown[], tally: Tally): void {
  const validator = compile(schema);
  for (const instance of instances) {
    const where = JSON.stringify({ schema, instance });
    tally.compared++;
    if (agree(validator, instance, where)) tally.decided++;
    for (const limits of limitsAround(validator, instance)) {
      const limited = compile(schema, { limits });
      tally.compared++;
      if (agree(limited, instance, `${where} ${JSON.stringify(limits)}`)) tally.decided++;
    }
  }
}

const NAMES = ["a", "b", "c", "__proto__", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"];
const name = fc.constantFrom(...NAMES);

/** Leaves every fast leaf record can express: a type with at most one constraint that fits it, or none. */
const leaf: fc.Arbitrary<JsonObject | boolean> = fc.oneof(
  fc.constantFrom<JsonObject | boolean>(
    true,
    false,
    {},
    { type: "string" },
    { type: "integer" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: ["string", "null"] },
    { title: "t", "x-unknown": [1] },
    { type: "object" },
    { type: "array" },
  ),
  fc.constantFrom(0, 1, 2).map((n): JsonObject => ({ type: "string", minLength: n })),
  fc.constantFrom(1, 2).map((n): JsonObject => ({ type: "string", maxLength: n })),
  fc.constantFrom(-1, 0, 2).map((n): JsonObject => ({ type: "integer", minimum: n })),
  fc.constantFrom(0.5, 3).map((n): JsonObject => ({ type: "number", exclusiveMaximum: n, multipleOf: 0.5 })),
  // Bounds alone (tested as data by the fast path), without `type` too (then any other value passes them).
  fc
    .record(
      {
        minimum: fc.constantFrom(-1, 0, 1.5),
        maximum: fc.constantFrom(0, 2),
        exclusiveMinimum: fc.constantFrom(-1, 0),
      },
      { requiredKeys: [] },
    )
    .chain((bounds) =>
      fc.constantFrom<JsonObject>(bounds, { ...bounds, type: "integer" }, { ...bounds, exclusiveMaximum: 1 }),
    ),
  fc.constantFrom<Json[]>(["a", 1], [null, true], ["", "ab"]).map((e): JsonObject => ({ enum: e })),
  fc.constantFrom<Json>("a", 2, null).map((c): JsonObject => ({ const: c })),
  fc.constantFrom(0, 1, 2).map((n): JsonObject => ({ type: "array", minItems: n, maxItems: n + 1 })),
  fc.uniqueArray(name, { maxLength: 2 }).map((required): JsonObject => ({ type: "object", required })),
  fc.constant<JsonObject>({ type: "object", dependentRequired: { a: ["b"] } }),
);

/**
 * Schemas of what the fast path covers: objects (open, closed, wide), arrays, `allOf`, `anyOf`, `oneOf`, `not`, `if`,
 * `$ref` (recursive too).
 */
const fastSchema: fc.Arbitrary<JsonObject | boolean> = fc.letrec<{ s: JsonObject | boolean }>((tie) => ({
  s: fc.oneof(
    { depthSize: "small", maxDepth: 3, withCrossShrink: true },
    leaf,
    fc
      .record({
        properties: fc.uniqueArray(fc.tuple(name, tie("s")), { maxLength: 11, selector: ([k]) => k }),
        additional: fc.constantFrom<"absent" | "false" | "schema">("absent", "absent", "false", "schema"),
        additionalSchema: tie("s"),
        required: fc.uniqueArray(name, { maxLength: 3 }),
        requiredDeclared: fc.boolean(),
      })
      .map(({ properties, additional, additionalSchema, required, requiredDeclared }) => {
        const props: JsonObject = {};
        for (const [k, v] of properties) setOwn(props, k, v as Json);
        const out: JsonObject = { type: "object", properties: props };
        const declared = properties.map(([k]) => k);
        out["required"] = requiredDeclared ? declared.filter((_, i) => i % 2 === 0) : required;
        if (additional === "false") out["additionalProperties"] = false;
        if (additional === "schema") out["additionalProperties"] = additionalSchema as Json;
        return out;
      }),
    fc
      .record(
        { prefixItems: fc.array(tie("s"), { minLength: 1, maxLength: 2 }), items: tie("s") },
        { requiredKeys: [] },
      )
      .map((r) => ({ type: "array", ...r }) as JsonObject),
    fc
      .record(
        { contains: tie("s"), minContains: fc.constantFrom(0, 1, 2), maxContains: fc.constantFrom(1, 3) },
        { requiredKeys: ["contains"] },
      )
      .map((r) => ({ type: "array", ...r }) as JsonObject),
    fc.array(tie("s"), { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf }) as JsonObject),
    // Choices, beside a sibling keyword or alone: how many branches pass decides.
    fc
      .tuple(
        fc.constantFrom("anyOf", "oneOf"),
        fc.array(tie("s"), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<JsonObject>({}, { type: "object" }, { required: ["a"] }),
      )
      .map(([keyword, branches, beside]) => ({ ...beside, [keyword]: branches }) as JsonObject),
    tie("s").map((not) => ({ not }) as JsonObject),
    fc.record({ if: tie("s"), then: tie("s"), else: tie("s") }, { requiredKeys: ["if"] }) as fc.Arbitrary<JsonObject>,
    fc.constant<JsonObject>({ $ref: "#/$defs/node" }),
  ),
})).s;

const NODE: JsonObject = {
  type: "object",
  properties: { value: { type: "integer" }, next: { $ref: "#/$defs/node" } },
  required: ["value"],
  additionalProperties: false,
};

/** Instances that mostly satisfy `schema` (so its deeper checks run), `depth` levels at most. */
function instanceOf(schema: Json, depth: number): fc.Arbitrary<Json> {
  const any = fc.constantFrom<Json>(null, true, 0, -1, 1.5, "", "a", "ab", [], {}, [1], { a: 1 });
  if (depth <= 0 || typeof schema !== "object" || schema === null || Array.isArray(schema)) return any;
  if (schema["$ref"] === "#/$defs/node") return instanceOf(NODE, depth - 1);
  const allOf = schema["allOf"];
  if (Array.isArray(allOf)) return instanceOf(allOf[0] as Json, depth);
  if (Object.hasOwn(schema, "if"))
    return fc.oneof(instanceOf(schema["then"] ?? true, depth), instanceOf(schema["else"] ?? true, depth));
  const branches = schema["anyOf"] ?? schema["oneOf"];
  if (Array.isArray(branches)) return fc.oneof(...branches.map((b) => instanceOf(b, depth)));
  if (Array.isArray(schema["enum"])) return fc.constantFrom(...(schema["enum"] as Json[]));
  if (Object.hasOwn(schema, "const")) return fc.constant(schema["const"] as Json);
  const type = schema["type"];
  if (type === "object" || isObjectSchema(schema)) return objectOf(schema, depth);
  if (type === "array") {
    const prefix = ((schema["prefixItems"] as Json[] | undefined) ?? []).map((s) => instanceOf(s, depth - 1));
    const rest = instanceOf((schema["items"] ?? schema["contains"] ?? true) as Json, depth - 1);
    return fc.tuple(fc.tuple(...prefix), fc.array(rest, { maxLength: 3 })).map(([a, b]) => [...a, ...b]);
  }
  if (type === "string") return fc.constantFrom("", "a", "ab", "abc", "é😀");
  if (type === "integer") return fc.constantFrom(-1, 0, 1, 2, 3);
  if (type === "number") return fc.constantFrom(0.5, 1, 1.5, 2.5, 4);
  if (type === "boolean") return fc.boolean();
  if (type === "null") return fc.constant(null);
  return any;
}

function isObjectSchema(schema: JsonObject): boolean {
  return Object.hasOwn(schema, "properties") || Object.hasOwn(schema, "required");
}

function objectOf(schema: JsonObject, depth: number): fc.Arbitrary<Json> {
  const props = (schema["properties"] ?? {}) as JsonObject;
  const required = new Set((schema["required"] ?? []) as string[]);
  const members = Object.keys(props).map((k) =>
    fc.tuple(
      fc.constant(k),
      instanceOf(props[k] as Json, depth - 1),
      fc.integer({ min: 0, max: 9 }).map((n) => n < (required.has(k) ? 9 : 6)),
    ),
  );
  const extras = fc.array(fc.tuple(name, instanceOf(schema["additionalProperties"] ?? true, depth - 1)), {
    maxLength: schema["additionalProperties"] === false ? 0 : 2,
  });
  const missing = fc.array(fc.tuple(fc.constantFrom(...required, "a"), fc.constant<Json>(1)), { maxLength: 1 });
  return fc.tuple(fc.tuple(...members), extras, missing).map(([declared, extra, others]) => {
    const out: JsonObject = {};
    for (const [k, v, present] of declared) if (present) setOwn(out, k, v);
    for (const [k, v] of [...extra, ...others]) if (!Object.hasOwn(out, k)) setOwn(out, k, v);
    return out;
  });
}

/** A schema (with the recursive `node` in `$defs`) and instances of it, some mutated by the generic generator. */
const fastCase = fastSchema.chain((s) => {
  const schema: JsonObject = typeof s === "boolean" ? { allOf: [s] } : { ...s };
  schema["$defs"] = { node: NODE };
  const instance = fc.oneof(
    { weight: 4, arbitrary: instanceOf(schema, 5) },
    { weight: 1, arbitrary: instanceArb(poolOf(schema)) },
  );
  return fc.array(instance, { minLength: 1, maxLength: 4 }).map((instances) => ({ schema, instances }));
});

describe("the fast path decides only what the accounted path decides the same way", () => {
  test("schemas it covers, under the default limits and limits at and around what each instance needs", () => {
    const tally: Tally = { decided: 0, compared: 0 };
    fc.assert(
      fc.property(fastCase, ({ schema, instances }) => checkBoth(schema, instances, tally)),
      { seed: 3501, numRuns: 150 },
    );
    // It must actually decide: a good part of the comparisons, near-limit ones included, are decided on the fast path.
    assert.ok(tally.decided > tally.compared / 3, `${tally.decided} of ${tally.compared} decided`);
  });

  test("generated schemas of every keyword (subtrees it does not cover run on the accounted path inside it)", () => {
    const tally: Tally = { decided: 0, compared: 0 };
    fc.assert(
      fc.property(caseArb(3, 3), ({ schema, instances }) => checkBoth(schema, instances, tally)),
      { seed: 3502, numRuns: 120 },
    );
    assert.ok(tally.decided > tally.compared / 10, `${tally.decided} of ${tally.compared} decided`);
  });
});
