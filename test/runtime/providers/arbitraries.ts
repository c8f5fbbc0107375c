/**
 * Generated tool schemas for the provider property tests: every construct a profile translates, widens or refuses
 * (references with and without siblings, recursion, `const`, type arrays and null, `oneOf` with and without a
 * discriminator, `allOf`, annotations, formats, bounds, patterns with lookaround or `\b`, boolean subschemas,
 * closed and open objects, `patternProperties`, `prefixItems`, `contains`, `not`, `if`), combined at random.
 */
import fc from "fast-check";

type Schema = Record<string, unknown> | boolean;

const NAMES = ["a", "b", "c"];
const value = fc.constantFrom<unknown>(null, true, 0, 1, -1, 2.5, "", "a", "ab", "x1");

/** One or two keywords of a schema object, with `child` for the subschemas. */
function fragment(child: fc.Arbitrary<Schema>): fc.Arbitrary<Record<string, unknown>> {
  const discriminated = fc.tuple(child, child).map(([x, y]) => ({
    oneOf: ["p", "q"].map((kind, i) => ({
      type: "object",
      properties: { kind: { const: kind }, v: i === 0 ? x : y },
      required: ["kind"],
    })),
  }));
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom<Record<string, unknown>>(
        { type: "string" },
        { type: "integer" },
        { type: "number" },
        { type: "boolean" },
        { type: "null" },
        { type: "array" },
        { type: "object" },
      ),
    },
    fc.constantFrom<Record<string, unknown>>(
      { type: ["string", "null"] },
      { type: ["integer", "null"] },
      { type: ["string", "integer"] },
      { type: ["object", "null"] },
      { type: ["string"] },
    ),
    value.map((v) => ({ const: v })),
    fc.array(value, { minLength: 1, maxLength: 3 }).map((e) => ({ enum: e })),
    fc.constantFrom<Record<string, unknown>>(
      { minimum: 0 },
      { maximum: 2 },
      { exclusiveMinimum: 0 },
      { exclusiveMaximum: 1.5 },
      { type: "integer", exclusiveMinimum: 0.5 },
      { type: "integer", exclusiveMaximum: 3 },
      { multipleOf: 2 },
      { minLength: 1 },
      { maxLength: 2 },
      { pattern: "^a" },
      { pattern: "b$" },
      { pattern: "^(?!x)" },
      { pattern: "\\ba" },
      { pattern: "(a{1,2}){1,2}" },
      { format: "email" },
      { format: "uri" },
      { format: "date-time" },
      { format: "x-custom" },
      { minItems: 1 },
      { minItems: 2 },
      { maxItems: 2 },
      { uniqueItems: true },
      { minProperties: 1 },
      { maxProperties: 1 },
      { propertyNames: { maxLength: 1 } },
      { required: ["a"] },
      { title: "T" },
      { description: "D" },
      { default: null },
      { examples: ["a"] },
      { $comment: "c" },
      { deprecated: true },
      { readOnly: true },
      { "x-vendor": { type: "string" } },
      { nullable: true },
      { $ref: "#/$defs/d1" },
      { $ref: "#/$defs/d2", description: "via d2" },
      { additionalProperties: false },
      { additionalProperties: true },
      { additionalProperties: {} },
      { then: { minimum: 1 } },
      { maxContains: 1 },
    ),
    child.map((c) => ({ items: c })),
    fc.array(child, { minLength: 1, maxLength: 2 }).map((p) => ({ prefixItems: p })),
    fc
      .tuple(fc.dictionary(fc.constantFrom(...NAMES), child, { maxKeys: 3 }), fc.subarray(NAMES), fc.boolean())
      .map(([properties, required, closed]) => ({
        type: "object",
        properties,
        required: required.filter((n) => Object.hasOwn(properties, n)),
        ...(closed ? { additionalProperties: false } : {}),
      })),
    child.map((c) => ({ additionalProperties: c })),
    child.map((c) => ({ patternProperties: { "^x": c } })),
    fc.tuple(child, child).map(([x, y]) => ({ anyOf: [x, y] })),
    child.map((c) => ({ anyOf: [c, { type: "null" }] })),
    fc.tuple(child, child).map(([x, y]) => ({ oneOf: [x, y] })),
    discriminated,
    child.map((c) => ({ allOf: [c] })),
    fc.tuple(child, child).map(([x, y]) => ({ allOf: [x, y] })),
    child.map((c) => ({ not: c })),
    fc.tuple(child, child).map(([x, y]) => ({ if: x, then: y })),
    fc.tuple(child, fc.constantFrom(0, 1, 2)).map(([c, n]) => ({ contains: c, minContains: n })),
  );
}

function node(child: fc.Arbitrary<Schema>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fragment(child), { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts));
}

const subschema: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", maxDepth: 3, withCrossShrink: true },
    fc.constantFrom<Schema>({ type: "string" }, { type: "integer" }, {}, true, false),
    node(tie("schema")),
  ),
})).schema;

const SUBSCHEMAS = ["items", "additionalProperties", "not", "if", "then", "contains", "propertyNames"];

/**
 * The same schema with every object schema closed and all its properties required, as the strict profiles want:
 * what is left for them to refuse or rewrite is then everything else.
 */
export function closed(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(schema)) {
    let mapped: unknown = v;
    if (SUBSCHEMAS.includes(key)) mapped = closed(v);
    else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(key) && Array.isArray(v)) mapped = v.map(closed);
    else if (["properties", "$defs", "patternProperties"].includes(key) && typeof v === "object" && v !== null)
      mapped = Object.fromEntries(Object.entries(v).map(([k, c]) => [k, closed(c)]));
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true });
  }
  const properties = out["properties"];
  if (typeof properties === "object" && properties !== null) {
    out["required"] = Object.keys(properties);
    out["additionalProperties"] = false;
  }
  return out;
}

/** A tool input schema: an object root (with or without `type`) and two definitions its references may use. */
export const toolSchema: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...NAMES, "__proto__"), subschema, { minKeys: 1, maxKeys: 3 }),
    fc.subarray(NAMES),
    fc.constantFrom<Record<string, unknown>>({}, { type: "object" }, { type: "object", additionalProperties: false }),
    subschema,
    fc.oneof(subschema, fc.constant<Schema>({ type: "object", properties: { next: { $ref: "#/$defs/d2" } } })),
    fc.constantFrom<Record<string, unknown>>(
      {},
      {},
      { $schema: "https://json-schema.org/draft/2020-12/schema" },
      { anyOf: [{ required: ["a"] }, { required: ["b"] }] },
      { allOf: [{ required: ["a"] }] },
      { properties: { self: { $ref: "#" } } },
    ),
  )
  .map(([properties, required, root, d1, d2, extra]) => {
    const schema: Record<string, unknown> = { ...root };
    const own: Record<string, unknown> = {};
    for (const key of Object.keys(properties))
      Object.defineProperty(own, key, { value: properties[key], enumerable: true, writable: true, configurable: true });
    schema["properties"] = own;
    schema["required"] = required.filter((n) => Object.hasOwn(own, n));
    schema["$defs"] = { d1, d2 };
    for (const [key, v] of Object.entries(extra)) {
      if (key === "properties") Object.assign(own, v);
      else schema[key] = v;
    }
    return schema;
  });

/** Subschemas every one of which some profile rewrites exactly (and none refuses outright). */
const translatable = fc.constantFrom<Schema>(
  { type: "string" },
  { type: "integer" },
  { type: "number", maximum: 3 },
  { type: ["string", "null"] },
  { type: ["integer", "null"], minimum: 0 },
  { type: ["string", "null"], enum: ["a", "b"] },
  { type: ["string", "integer"] },
  { type: ["string"] },
  { type: "string", const: "a" },
  { const: "b" },
  { type: "integer", exclusiveMinimum: 0 },
  { type: "integer", exclusiveMaximum: 2.5, minimum: -1 },
  { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "x" },
  { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] },
  { anyOf: [{ type: "string" }, { type: "integer" }], description: "d" },
  { $ref: "#/$defs/name" },
  { $ref: "#/$defs/count", description: "how many" },
  { oneOf: [{ type: "string" }, { type: "integer" }] },
  { oneOf: [{ const: "a" }, { const: "b" }] },
  { allOf: [{ type: "string" }, { minLength: 1 }] },
  { allOf: [{ minimum: 0 }, { maximum: 5 }], type: "number" },
  { allOf: [{ minimum: 0 }, { minimum: 2 }, { exclusiveMaximum: 9 }, { exclusiveMaximum: 4 }], type: "integer" },
  { allOf: [{ maxLength: 5 }, { maxLength: 2 }, { minLength: 1 }] },
  { allOf: [{ type: ["string", "integer"] }, { type: ["number", "null"] }] },
  { allOf: [{ type: "object", required: ["x"] }, { required: ["y"] }] },
  { allOf: [{ enum: ["a", "b", 1] }, { enum: ["b", "c", 1.0] }] },
  { allOf: [{ uniqueItems: false }, { uniqueItems: true }], type: "array", items: { type: "integer" } },
  { type: ["string", "null"], enum: ["a", null] },
  { type: "string", format: "x-custom" },
  { type: "string", format: "email" },
  { type: "string", examples: ["a"], $comment: "c", deprecated: true, "x-vendor": 1 },
  { type: "string", nullable: true },
  { type: "integer", then: { minimum: 1 } },
  true,
  { type: "object", properties: { k: { type: "string" } }, additionalProperties: true },
  { type: "array", items: { type: ["string", "null"] } },
  { type: "array", items: true },
  { $ref: "#/$defs/node" },
);

/** Tool schemas made of `translatable` subschemas, with definitions (one recursive) and root variants. */
export const translatableSchema: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.dictionary(fc.constantFrom("a", "b", "c", "d"), translatable, { minKeys: 1, maxKeys: 4 }),
    fc.subarray(["a", "b", "c", "d"]),
    fc.constantFrom<Record<string, unknown>>(
      {},
      { type: "object" },
      { type: ["object"] },
      { type: "object", $id: "https://example.com/tool" },
      { type: "object", $schema: "https://json-schema.org/draft/2020-12/schema" },
    ),
  )
  .map(([properties, required, root]) => ({
    ...root,
    properties,
    required: required.filter((n) => Object.hasOwn(properties, n)),
    $defs: {
      name: { type: "string", minLength: 1 },
      count: { type: "integer", minimum: 0, title: "Count" },
      node: { type: "object", properties: { next: { $ref: "#/$defs/node", description: "the rest" } } },
      spare: { type: "string", const: "unused" },
    },
  }));

/**
 * Tool schemas with what encoding and narrowing meet (issue 31): objects open and closed with optional and required
 * properties, nested objects and arrays of them, nullable properties (`[T, "null"]`, a pydantic `anyOf` with a null
 * branch), references to definitions (one recursive), `anyOf` of distinct types and of overlapping ones, `allOf` of
 * objects, enums, `const`, and `false`.
 */
export const encodableSchema: fc.Arbitrary<Record<string, unknown>> = fc
  .letrec<{ schema: Schema; object: Record<string, unknown> }>((tie) => ({
    schema: fc.oneof(
      { depthSize: "small", maxDepth: 3, withCrossShrink: true },
      fc.constantFrom<Schema>(
        { type: "string" },
        { type: "integer", minimum: 0 },
        { type: "number" },
        { type: "boolean" },
        { type: ["string", "null"] },
        { anyOf: [{ type: "string" }, { type: "null" }], default: null },
        { enum: ["a", "b"] },
        { enum: ["a", null] },
        { const: 1 },
        { $ref: "#/$defs/name" },
        { $ref: "#/$defs/node" },
        false,
      ),
      tie("object"),
      tie("schema").map((items) => ({ type: "array", items })),
      tie("object").map((o) => ({ anyOf: [o, { type: "null" }] })),
      fc.tuple(tie("object"), tie("schema")).map(([o, s]) => ({ anyOf: [o, s] })),
      fc.tuple(tie("object"), tie("object")).map(([a, b]) => ({ allOf: [a, b] })),
    ),
    object: fc
      .tuple(
        fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__"), tie("schema"), { maxKeys: 3 }),
        fc.subarray(["a", "b", "c", "__proto__"]),
        fc.boolean(),
      )
      .map(([properties, required, closed]) => {
        const own: Record<string, unknown> = {};
        for (const key of Object.keys(properties))
          Object.defineProperty(own, key, {
            value: properties[key],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        return {
          type: "object",
          properties: own,
          required: required.filter((n) => Object.hasOwn(own, n)),
          ...(closed ? { additionalProperties: false } : {}),
        };
      }),
  }))
  .object.map((root) => ({
    ...root,
    $defs: {
      name: { type: "string", pattern: "^[a-z]" },
      node: {
        type: "object",
        properties: { value: { type: "integer" }, next: { $ref: "#/$defs/node" } },
        required: ["value"],
      },
    },
  }));
