/**
 * Generators of draft-07 schemas for the upgrade's property tests: every draft-07 keyword (sometimes with a
 * value its meta-schema rejects), `definitions` and `$defs` with colliding names, `$ref` with siblings,
 * every `$id` form, keywords only 2020-12 defines and unknown keywords with odd values — and instances.
 */
import fc from "fast-check";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Entry = [string, unknown];

const NAMES = ["a", "b", "c"];
/** Replaced after generation by "#" + the node's own pointer (relative to its resource). */
export const OWN_POINTER = "@own";

const small: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    fc.constantFrom<Json>(null, true, false, 0, 1, -2, 0.5, "", "a", "ab", "b1", "abc", "😀"),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...NAMES, "x"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/**
 * JSON instances shaped to meet the generated keywords (the property names, short strings, small numbers),
 * as JSON.parse makes them (fast-check may build objects without a prototype, which ajv's equality rejects).
 */
export const instance: fc.Arbitrary<Json> = small.map((value) => JSON.parse(JSON.stringify(value)) as Json);

const REFS = [
  "#",
  "#/definitions/a",
  "#/$defs/a",
  "#anc",
  "other.json",
  "https://example.com/emb.json",
  "https://example.com/emb.json#/definitions/a",
];
const IDS = ["#anc", "#anc2", OWN_POINTER, "#/definitions/a", "https://example.com/emb.json", "sub.json#", "#"];

/** Mostly `valid`, now and then `invalid` (a value the meta-schemas reject). */
const rarely = <T>(valid: fc.Arbitrary<T>, invalid: T): fc.Arbitrary<T> =>
  fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: fc.constant(invalid) });

/** Keyword entries, with the keywords that reference or nest weighted up. */
function entries(schema: fc.Arbitrary<unknown>): fc.WeightedArbitrary<Entry>[] {
  const weights: Record<string, number> = {
    $ref: 12,
    properties: 6,
    items: 4,
    additionalItems: 3,
    allOf: 2,
    anyOf: 2,
    $id: 2,
  };
  const k = <T>(key: string, value: fc.Arbitrary<T>): fc.WeightedArbitrary<Entry> => ({
    weight: weights[key] ?? 1,
    arbitrary: value.map((v) => [key, v] as Entry),
  });
  const map = fc.dictionary(fc.constantFrom(...NAMES), schema, { minKeys: 1, maxKeys: 2 });
  const list = fc.array(schema, { minLength: 1, maxLength: 2 });
  const count = rarely(fc.integer({ min: 0, max: 3 }), -1);
  const bound = fc.integer({ min: -3, max: 3 });
  return [
    k(
      "type",
      rarely(
        fc.constantFrom<unknown>("string", "number", "integer", "object", "array", "null", ["string", "null"]),
        "text",
      ),
    ),
    k("enum", fc.array(small, { minLength: 1, maxLength: 3 })),
    k("const", small),
    k("multipleOf", rarely(fc.constantFrom(1, 2, 0.5), 0)),
    k("maximum", bound),
    k("exclusiveMaximum", bound),
    k("minimum", bound),
    k("exclusiveMinimum", bound),
    k("maxLength", count),
    k("minLength", count),
    k("pattern", rarely(fc.constantFrom("^a", "b$", "^[a-c]*$", "\\d"), "(")),
    k("items", fc.oneof(schema, fc.array(schema, { maxLength: 2 }))),
    k("additionalItems", schema),
    k("maxItems", count),
    k("minItems", count),
    k("uniqueItems", fc.boolean()),
    k("contains", schema),
    k("maxProperties", count),
    k("minProperties", count),
    k("required", rarely(fc.subarray(NAMES), ["a", "a"])),
    k("properties", map),
    k("patternProperties", fc.dictionary(rarely(fc.constantFrom("^a", "b"), "["), schema, { minKeys: 1, maxKeys: 2 })),
    k("additionalProperties", schema),
    k("dependencies", fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(fc.subarray(NAMES), schema), { maxKeys: 2 })),
    k("propertyNames", schema),
    k("if", schema),
    k("then", schema),
    k("else", schema),
    k("allOf", list),
    k("anyOf", list),
    k("oneOf", list),
    k("not", schema),
    k("format", fc.constantFrom("email", "date", "uri")),
    k("title", rarely(fc.constant<unknown>("T"), 5)),
    k("description", fc.constant("d")),
    k("default", small),
    k("examples", fc.array(small, { maxLength: 2 })),
    k("$comment", fc.constant("c")),
    k("readOnly", fc.boolean()),
    k("writeOnly", rarely(fc.constant<unknown>(true), "yes")),
    k("contentMediaType", fc.constant("application/json")),
    k("contentEncoding", fc.constant("base64")),
    k(
      "$ref",
      fc.oneof(
        fc.constantFrom(...REFS),
        fc.nat(99).map((n) => `@pick${n}`),
      ),
    ),
    k("$id", fc.constantFrom(...IDS)),
    k("definitions", map),
    k("$defs", fc.oneof(map, fc.constant(5))),
    k("$schema", fc.constant("http://json-schema.org/draft-07/schema#")),
    // Keywords only 2020-12 defines, with values it rejects or would act on; unknown keywords.
    k("deprecated", fc.constantFrom("use b", true)),
    k("unevaluatedProperties", schema),
    k("unevaluatedItems", schema),
    k("prefixItems", fc.oneof(list, fc.constant([]))),
    k("dependentRequired", fc.constant({ a: ["b"] })),
    k("dependentSchemas", map),
    k("minContains", fc.constantFrom(0, 2, -1)),
    k("maxContains", fc.constantFrom(0, 1)),
    k("contentSchema", schema),
    k("$anchor", fc.constantFrom("free", "1bad")),
    k("$dynamicAnchor", fc.constant("meta")),
    k("$dynamicRef", fc.constant("#meta")),
    k("$recursiveRef", fc.constantFrom("#", 5)),
    k("$recursiveAnchor", fc.constant(true)),
    k("$vocabulary", fc.constant("x")),
    k("x-vendor", small),
    k("nullable", fc.boolean()),
  ];
}

/** Schema objects; array-form `items` often gets an `additionalItems` too, the pair 2020-12 renames. */
const schemaObject = (schema: fc.Arbitrary<unknown>, maxLength: number) =>
  fc
    .tuple(
      fc.uniqueArray(fc.oneof(...entries(schema)), { selector: ([key]) => key, minLength: 1, maxLength }),
      fc.option(schema, { freq: 2 }),
    )
    .map(([list, additional]) => {
      const object: Record<string, unknown> = Object.fromEntries(list);
      if (Array.isArray(object.items) && additional !== null) object.additionalItems ??= additional;
      return object;
    });

const tree = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", maxDepth: 3, depthIdentifier: "schema" },
    fc.boolean(),
    schemaObject(tie("schema"), 4),
  ),
})).schema;

/** A draft-07 document: a schema object, often with definitions and $defs that refs can reach. */
export const draft07Schema: fc.Arbitrary<unknown> = fc
  .record(
    {
      body: schemaObject(tree, 5),
      definitions: fc.record({ a: tree, b: tree }, { requiredKeys: ["a"] }),
      $defs: fc.record({ a: tree, c: tree }, { requiredKeys: ["a"] }),
      $schema: fc.constant("http://json-schema.org/draft-07/schema#"),
      $id: fc.constantFrom("https://example.com/root.json", "#", "https://example.com/root.json#"),
    },
    { requiredKeys: ["body"] },
  )
  .map(({ body, ...root }) => fillPlaceholders({ ...root, ...body }));

/** Keys of the two documents of `draft07Pair`. */
export const PAIR = { a: "https://example.com/a.json", b: "https://example.com/b.json" } as const;

/**
 * Two draft-07 documents: `b` (without a root `$id`, which could repeat `a`'s) gets properties whose `$ref`s
 * point into subschemas of `a` by its key ("a.json#/…"), so the two must be upgraded together.
 */
export const draft07Pair: fc.Arbitrary<{ a: unknown; b: unknown }> = fc
  .tuple(draft07Schema, draft07Schema, fc.array(fc.nat(99), { minLength: 1, maxLength: 3 }))
  .map(([a, other, picks]) => {
    const targets: string[] = [];
    walk(a, (_node, pointer, resource, ignored) => {
      if (!ignored && resource === "") targets.push(pointer);
    });
    const properties = Object.fromEntries(
      picks.map((n, i) => [`x${i}`, { $ref: "a.json#" + encodeURI(targets[n % targets.length] as string) }]),
    );
    const { $id: _, ...b } = other as Record<string, unknown>;
    return { a, b: { ...b, properties: { ...(b.properties as object), ...properties } } };
  });

const MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies"]);
const LISTS = new Set(["allOf", "anyOf", "oneOf", "items"]);
const ONE = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "items",
];
const SINGLES = new Set(ONE);
const DATA = new Set(["enum", "const", "default", "examples", "x-vendor"]);
const AJV_EXTRAS = new Set(["$anchor", "$dynamicAnchor", "nullable"]);

/** Visits the draft-07 subschema positions of a document, with each one's resource and pointer in it. */
function walk(
  root: unknown,
  visit: (node: Record<string, unknown>, pointer: string, resource: string, ignored: boolean) => void,
) {
  const go = (node: unknown, pointer: string, resource: string, ignored = false): void => {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    const object = node as Record<string, unknown>;
    const id = object.$id;
    const starts = typeof id === "string" && /^https?:|^sub\.json/.test(id) && !Object.hasOwn(object, "$ref");
    const inner = starts ? pointer : resource;
    visit(object, pointer, inner, ignored);
    for (const [key, value] of Object.entries(object)) {
      const at = `${pointer}/${key}`;
      const skip = ignored || (Object.hasOwn(object, "$ref") && key !== "definitions" && key !== "$defs");
      if (MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value)) go(child, `${at}/${name}`, inner, skip);
      } else if (LISTS.has(key) && Array.isArray(value)) {
        value.forEach((child, i) => go(child, `${at}/${i}`, inner, skip));
      } else if (SINGLES.has(key)) {
        go(value, at, inner, skip);
      }
    }
  };
  go(root, "", "");
}

/**
 * Fills the placeholders: `$id: "@own"` becomes a "#/pointer" naming the node's own location, and
 * `$ref: "@pickN"` a "#/pointer" to the N-th subschema (modulo their number) of the same resource, so most
 * generated references resolve.
 */
function fillPlaceholders(generated: unknown): unknown {
  const root = structuredClone(generated); // the generator may share objects between values
  const locations = new Map<string, string[]>();
  walk(root, (_node, pointer, resource, ignored) => {
    if (ignored) return;
    const list = locations.get(resource) ?? [];
    list.push(pointer.slice(resource.length));
    locations.set(resource, list);
  });
  walk(root, (node, pointer, resource) => {
    if (node.$id === OWN_POINTER) node.$id = "#" + pointer.slice(resource.length);
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("@pick")) {
      const list = locations.get(resource) ?? [""];
      node.$ref = "#" + encodeURI(list[Number(ref.slice(5)) % list.length] as string);
    }
  });
  return root;
}

/**
 * The draft-07 meaning ajv 8 departs from, undone before ajv sees a schema: ajv applies keywords beside
 * `$ref` (Core draft-07 §8.3 says they are ignored), reads `$anchor` / `$dynamicAnchor`, which draft-07
 * does not define, gives OpenAPI's `nullable` a meaning, and accepts an empty array under `contains` after
 * array-form `items` (draft-07 §6.4.6: at least one item must match, so `minItems: 1` restates it for
 * ajv). Data keywords are left alone.
 */
export function asDraft07ForAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asDraft07ForAjv);
  if (typeof node !== "object" || node === null) return node;
  const hasRef = Object.hasOwn(node, "$ref");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (hasRef && key !== "$ref" && key !== "definitions" && key !== "$defs") continue;
    if (AJV_EXTRAS.has(key)) continue;
    out[key] = DATA.has(key) ? value : asDraft07ForAjv(value);
  }
  const minItems = out.minItems;
  if (Object.hasOwn(out, "contains") && (minItems === undefined || minItems === 0)) out.minItems = 1;
  return out;
}
