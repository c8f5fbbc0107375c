/**
 * fast-check arbitraries for the fuzz and differential tests: valid JSON Schema 2020-12 documents that use
 * every applicator and assertion keyword (no `format` / `content*`: those are annotations and peers differ on
 * them), and instances biased towards each schema's own edges (its consts, enum members, property names,
 * bounds ± 1, pattern samples, empty containers, wrong types).
 *
 * References never form a cycle that does not consume instance depth: a def may reference only later defs
 * unless an instance-descending applicator (properties, items, contains, propertyNames, ...) lies between it
 * and the reference, and the same holds for `$ref: "#"` and `$dynamicRef: "#meta"`. Every generated schema
 * therefore terminates on every finite instance, in any correct validator.
 */

import fc from "fast-check";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Schema = boolean | JsonObject;

export const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Sets an own enumerable property, so `__proto__` is data and never a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function objectOf(entries: readonly (readonly [string, Json])[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries) setOwn(out, k, v);
  return out;
}

/** Property names the generators draw from; includes prototype names, which must stay ordinary data. */
export const NAMES: readonly string[] = [
  "a",
  "b",
  "c",
  "foo",
  "",
  "0",
  "a b",
  "é",
  "__proto__",
  "constructor",
  "toString",
];

/** Patterns that every ECMA-262 (u-flag) engine reads the same way, with strings that match and miss them. */
export const PATTERNS: readonly { pattern: string; samples: readonly string[] }[] = [
  { pattern: "^a", samples: ["a", "ab", "ba"] },
  { pattern: "b$", samples: ["b", "ab", "bc"] },
  { pattern: "^[a-c]+$", samples: ["abc", "abd", ""] },
  { pattern: "^\\d{2,3}$", samples: ["12", "1234", "1a"] },
  { pattern: "x|y", samples: ["x", "zy", "z"] },
  { pattern: "^$", samples: ["", " "] },
  { pattern: ".", samples: ["", "\n", "q"] },
  { pattern: "^[^a]*$", samples: ["bcd", "bad"] },
  { pattern: "\\w+\\s", samples: ["ab c", "ab"] },
  { pattern: "^(ab)*$", samples: ["abab", "aba"] },
  { pattern: "^.{2}$", samples: ["😀😀", "ab", "é", "😀"] },
  { pattern: "[A-Z]", samples: ["aB", "ab"] },
  { pattern: "^fo+$", samples: ["foo", "f", "foox"] },
  { pattern: "^(?:a|b)?c{1,2}$", samples: ["c", "acc", "bccc"] },
];

const TYPES = ["null", "boolean", "object", "array", "number", "string", "integer"] as const;
const NUMBERS: readonly number[] = [
  -100, -3, -2, -1.5, -1, -0.5, 0, 0.1, 0.3, 0.5, 1, 1.5, 2, 2.5, 3, 7, 10, 100, 1e15, 1e308,
];
const MULTIPLES: readonly number[] = [0.1, 0.01, 0.5, 1, 1.5, 2, 3, 0.3, 0.0001, 7, 1e-9];
const COUNTS: readonly number[] = [0, 1, 2, 3, 5];

const name = fc.constantFrom(...NAMES);
const count = fc.constantFrom(...COUNTS);
const num = fc.constantFrom(...NUMBERS);

/** Small JSON values for const/enum/default: nested, with numbers and names from the pools. */
export const smallJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    fc.constantFrom<Json>(null, true, false, 0, 1, -1, 1.5, "", "a", "foo"),
    num,
    name,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.array(fc.tuple(name, tie("v")), { maxLength: 3 }).map(objectOf),
  ),
})).v;

/** Where a reference may point without creating a cycle that consumes no instance depth. */
interface Ctx {
  depth: number;
  descended: boolean;
  /** Always safe: later defs, other resources. */
  forward: readonly string[];
  /** Safe only below an instance-descending applicator: the resource root, earlier defs, this def. */
  back: readonly string[];
  /** `$dynamicRef: "#meta"` resolves in this resource (only below a descending applicator). */
  dynamic: boolean;
}

type Fragment = JsonObject;

function merge(fragments: readonly Fragment[]): JsonObject {
  const out: JsonObject = {};
  for (const f of fragments) for (const k of Object.keys(f)) setOwn(out, k, f[k] as Json);
  return out;
}

const memo = new Map<string, fc.Arbitrary<Schema>>();

/** A schema (object or boolean) valid under the 2020-12 meta-schema, at most `ctx.depth` applicators deep. */
function schemaIn(ctx: Ctx): fc.Arbitrary<Schema> {
  const key = `${ctx.depth}|${ctx.descended}|${ctx.forward.join(",")}|${ctx.back.join(",")}|${ctx.dynamic}`;
  let arb = memo.get(key);
  if (arb === undefined) {
    const objectSchema = fc.array(fragmentIn(ctx), { minLength: 0, maxLength: 3 }).map(merge);
    arb = fc.oneof(
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 7, arbitrary: objectSchema as fc.Arbitrary<Schema> },
    );
    memo.set(key, arb);
  }
  return arb;
}

function fragmentIn(ctx: Ctx): fc.Arbitrary<Fragment> {
  const leaf: fc.Arbitrary<Fragment>[] = [
    fc
      .oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }))
      .map((type) => ({ type })),
    fc.array(smallJson, { minLength: 1, maxLength: 4 }).map((e) => ({ enum: e })),
    smallJson.map((c) => ({ const: c })),
    fc.record(
      { minimum: num, maximum: num, exclusiveMinimum: num, exclusiveMaximum: num },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
    fc.constantFrom(...MULTIPLES).map((m) => ({ multipleOf: m })),
    fc.record(
      { minLength: count, maxLength: count, pattern: fc.constantFrom(...PATTERNS.map((p) => p.pattern)) },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
    fc.record(
      { minItems: count, maxItems: count, uniqueItems: fc.boolean() },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
    fc.record(
      {
        minProperties: count,
        maxProperties: count,
        required: fc.uniqueArray(name, { maxLength: 3 }),
        dependentRequired: fc
          .array(fc.tuple(name, fc.uniqueArray(name, { maxLength: 2 })), { maxLength: 2 })
          .map(objectOf),
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
    fc.record(
      {
        title: fc.constant("t"),
        description: fc.constant("d"),
        default: smallJson,
        deprecated: fc.boolean(),
        readOnly: fc.boolean(),
        examples: fc.array(smallJson, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
  ];
  const refs = ctx.descended ? [...ctx.forward, ...ctx.back] : [...ctx.forward];
  if (refs.length > 0) leaf.push(fc.constantFrom(...refs).map((r) => ({ $ref: r })));
  if (ctx.descended && ctx.dynamic) leaf.push(fc.constant({ $dynamicRef: "#meta" }));
  if (ctx.depth <= 0) return fc.oneof(...leaf);

  const same: Ctx = { ...ctx, depth: ctx.depth - 1 };
  const down: Ctx = { ...same, descended: true };
  const sub = schemaIn(same);
  const subDown = schemaIn(down);
  const subs = fc.array(sub, { minLength: 1, maxLength: 3 });
  const pattern = fc.constantFrom(...PATTERNS.map((p) => p.pattern));
  const applicators: fc.Arbitrary<Fragment>[] = [
    fc.record(
      { properties: fc.array(fc.tuple(name, subDown), { maxLength: 3 }).map(objectOf), additionalProperties: subDown },
      { requiredKeys: ["properties"] },
    ) as fc.Arbitrary<Fragment>,
    fc.record(
      {
        patternProperties: fc.array(fc.tuple(pattern, subDown), { minLength: 1, maxLength: 2 }).map(objectOf),
        additionalProperties: subDown,
      },
      { requiredKeys: ["patternProperties"] },
    ) as fc.Arbitrary<Fragment>,
    subDown.map((s) => ({ propertyNames: s })),
    fc.array(fc.tuple(name, sub), { minLength: 1, maxLength: 2 }).map((e) => ({ dependentSchemas: objectOf(e) })),
    fc.record(
      { prefixItems: fc.array(subDown, { minLength: 1, maxLength: 3 }), items: subDown },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
    fc.record(
      { contains: subDown, minContains: count, maxContains: count },
      { requiredKeys: ["contains"] },
    ) as fc.Arbitrary<Fragment>,
    subs.map((s) => ({ allOf: s })),
    subs.map((s) => ({ anyOf: s })),
    subs.map((s) => ({ oneOf: s })),
    sub.map((s) => ({ not: s })),
    fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: [] }) as fc.Arbitrary<Fragment>,
    fc.record(
      { unevaluatedProperties: subDown, unevaluatedItems: subDown },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Fragment>,
  ];
  return fc.oneof({ weight: 1, arbitrary: fc.oneof(...leaf) }, { weight: 1, arbitrary: fc.oneof(...applicators) });
}

export interface GeneratedSchema {
  /** The root schema (an object); embedded resources use relative `$id`s, so pass `baseUri`. */
  schema: JsonObject;
}

/**
 * A root schema: `$defs` d0..d2 (some with an `$anchor`), an optional embedded resource `tree` (its own
 * `$dynamicAnchor: "meta"`, recursing through `$dynamicRef`), and a root that may carry `$dynamicAnchor: "meta"`
 * so the dynamic reference inside `tree` reaches back to it.
 */
export function rootSchema(maxDepth = 3): fc.Arbitrary<JsonObject> {
  return fc
    .record({
      defs: fc.integer({ min: 0, max: 3 }),
      anchors: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      dynamic: fc.boolean(),
      tree: fc.boolean(),
      withDialect: fc.boolean(),
    })
    .chain(({ defs, anchors, dynamic, tree, withDialect }) => {
      const refTo = (k: number): string => (anchors[k] === true ? `#A${k}` : `#/$defs/d${k}`);
      const treeRefs = tree ? ["tree"] : [];
      const defArbs: fc.Arbitrary<Schema>[] = [];
      for (let k = 0; k < defs; k++) {
        const forward = [...Array.from({ length: defs - k - 1 }, (_, i) => refTo(k + 1 + i)), ...treeRefs];
        const back = ["#", ...Array.from({ length: k + 1 }, (_, i) => refTo(i))];
        defArbs.push(schemaIn({ depth: maxDepth - 1, descended: false, forward, back, dynamic }));
      }
      const treeArb: fc.Arbitrary<Schema | null> = tree
        ? schemaIn({ depth: maxDepth - 1, descended: false, forward: [], back: ["#"], dynamic: true })
        : fc.constant(null);
      const all = Array.from({ length: defs }, (_, k) => refTo(k));
      const body = fc.array(
        fragmentIn({ depth: maxDepth, descended: false, forward: [...all, ...treeRefs], back: ["#"], dynamic }),
        {
          minLength: 1,
          maxLength: 4,
        },
      );
      return fc.tuple(fc.tuple(...defArbs), treeArb, body).map(([defSchemas, treeSchema, fragments]) => {
        const root: JsonObject = {};
        if (withDialect) root["$schema"] = DIALECT;
        if (dynamic) root["$dynamicAnchor"] = "meta";
        const $defs: JsonObject = {};
        defSchemas.forEach((d, k) => {
          $defs[`d${k}`] = anchors[k] === true ? withAnchor(d, `A${k}`) : d;
        });
        if (treeSchema !== null) {
          const t: JsonObject = { $id: "tree", $dynamicAnchor: "meta" };
          if (typeof treeSchema === "boolean") t["allOf"] = [treeSchema];
          else for (const k of Object.keys(treeSchema)) setOwn(t, k, treeSchema[k] as Json);
          $defs["tree"] = t;
        }
        if (Object.keys($defs).length > 0) root["$defs"] = $defs;
        const merged = merge(fragments);
        for (const k of Object.keys(merged)) if (!Object.hasOwn(root, k)) setOwn(root, k, merged[k] as Json);
        return root;
      });
    });
}

function withAnchor(s: Schema, anchor: string): JsonObject {
  const out: JsonObject = { $anchor: anchor };
  if (typeof s === "boolean") out["allOf"] = [s];
  else for (const k of Object.keys(s)) setOwn(out, k, s[k] as Json);
  return out;
}

/** Values found in a schema, for instances that land on its edges. */
export interface Pool {
  values: Json[];
  numbers: number[];
  strings: string[];
  names: string[];
  lengths: number[];
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_ONE = new Set([
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);

export function poolOf(schema: Schema): Pool {
  const pool: Pool = { values: [], numbers: [], strings: [], names: [], lengths: [] };
  const addValue = (v: Json): void => {
    pool.values.push(v);
    walkValue(v);
  };
  const walkValue = (v: Json): void => {
    if (typeof v === "number") pool.numbers.push(v);
    else if (typeof v === "string") pool.strings.push(v);
    else if (Array.isArray(v)) v.forEach(walkValue);
    else if (v !== null && typeof v === "object") {
      for (const k of Object.keys(v)) {
        pool.names.push(k);
        walkValue(v[k] as Json);
      }
    }
  };
  const addNumber = (n: number): void => {
    for (const x of [n, n - 1, n + 1, n - 0.5, n + 0.5]) if (Number.isFinite(x)) pool.numbers.push(x);
  };
  const walk = (s: Json): void => {
    if (s === null || typeof s !== "object" || Array.isArray(s)) return;
    for (const k of Object.keys(s)) {
      const v = s[k] as Json;
      if (k === "const") addValue(v);
      else if (k === "enum" && Array.isArray(v)) v.forEach(addValue);
      else if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].includes(k) && typeof v === "number")
        addNumber(v);
      else if (k === "multipleOf" && typeof v === "number") {
        for (const f of [1, 2, 3, -1, 0.5, 7, 10]) if (Number.isFinite(v * f)) pool.numbers.push(v * f);
      } else if (
        [
          "minLength",
          "maxLength",
          "minItems",
          "maxItems",
          "minContains",
          "maxContains",
          "minProperties",
          "maxProperties",
        ].includes(k) &&
        typeof v === "number"
      ) {
        for (const n of [v - 1, v, v + 1]) if (n >= 0) pool.lengths.push(n);
      } else if (k === "pattern" && typeof v === "string") pool.strings.push(...samplesOf(v));
      else if (k === "required" && Array.isArray(v)) {
        for (const n of v) if (typeof n === "string") pool.names.push(n);
      } else if (k === "dependentRequired" && typeof v === "object" && v !== null && !Array.isArray(v)) {
        for (const n of Object.keys(v)) pool.names.push(n);
        for (const n of Object.values(v))
          if (Array.isArray(n)) for (const m of n) if (typeof m === "string") pool.names.push(m);
      } else if (SCHEMA_MAPS.has(k) && typeof v === "object" && v !== null && !Array.isArray(v)) {
        for (const n of Object.keys(v)) {
          if (k === "patternProperties") pool.names.push(...samplesOf(n));
          else if (k !== "$defs") pool.names.push(n);
          walk(v[n] as Json);
        }
      } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) v.forEach(walk);
      else if (SCHEMA_ONE.has(k)) walk(v);
    }
  };
  walk(schema);
  for (const n of pool.lengths) for (const c of ["a", "é", "😀"]) pool.strings.push(c.repeat(n));
  return pool;
}

function samplesOf(pattern: string): readonly string[] {
  return PATTERNS.find((p) => p.pattern === pattern)?.samples ?? [];
}

const GENERIC: readonly Json[] = [
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  2,
  1e308,
  -1e308,
  5e-324,
  "",
  "a",
  "😀",
  [],
  {},
];

/** JSON instances biased to the pool's values; nested at most 4 deep. */
export function instanceArb(pool: Pool): fc.Arbitrary<Json> {
  const names = fc.constantFrom(...pool.names, "x", "zz", "a");
  const prims: fc.Arbitrary<Json>[] = [
    fc.constantFrom(...GENERIC),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 4 }),
  ];
  if (pool.values.length > 0) prims.push(fc.constantFrom(...pool.values), fc.constantFrom(...pool.values));
  if (pool.numbers.length > 0) prims.push(fc.constantFrom(...pool.numbers));
  if (pool.strings.length > 0) prims.push(fc.constantFrom(...pool.strings));
  const maxLen = Math.min(6, Math.max(3, ...pool.lengths.map((n) => n + 1)));
  return fc.letrec<{ v: Json }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", maxDepth: 4 },
      fc.oneof(...prims),
      fc.array(tie("v"), { maxLength: maxLen }),
      tie("v").chain((x) => fc.integer({ min: 2, max: 3 }).map((n) => Array.from({ length: n }, () => x))),
      fc.array(fc.tuple(names, tie("v")), { maxLength: maxLen }).map(objectOf),
    ),
  })).v;
}

export interface Case {
  schema: JsonObject;
  instances: Json[];
}

/** A schema and a few instances drawn from its own pool. */
export function caseArb(maxDepth = 3, maxInstances = 4): fc.Arbitrary<Case> {
  return rootSchema(maxDepth).chain((schema) =>
    fc
      .array(instanceArb(poolOf(schema)), { minLength: 1, maxLength: maxInstances })
      .map((instances) => ({ schema, instances })),
  );
}

/** Freezes a value and everything reachable from it (objects and arrays only). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
