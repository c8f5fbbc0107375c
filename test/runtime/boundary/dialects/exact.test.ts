/**
 * Regressions of issue 14: keywords draft-07 does not know (F3), exact translations that used to be refused
 * (F5: `$defs`, `$id` beside `$ref`, "#/pointer" ids) and the constraints dropped beside `$ref`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dialect2020_12 } from "../../../../src/vocabularies/dialect-2020-12.js";
import { metaSchemas2020_12 } from "../../../../src/vocabularies/metaschemas-2020-12.js";
import { LEGACY_DIALECTS } from "../../../../src/runtime/boundary/dialects/dialects.js";
import { D07, D2020, draft07Verdicts, refused, rules, upgraded, verdicts } from "./helpers.js";

/** Asserts the upgraded schema compiles and judges every instance as a draft-07 validator does. */
function sameVerdicts(original: unknown, schema: unknown, instances: unknown[]): void {
  assert.deepEqual(verdicts(schema, instances), draft07Verdicts(original, instances), JSON.stringify(schema));
}

test('F3: a draft-07 `deprecated: "use b"` is dropped, so the result compiles', () => {
  const input = { $schema: D07, properties: { a: { deprecated: "use b", type: "string" }, b: { type: "string" } } };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, { $schema: D2020, properties: { a: { type: "string" }, b: { type: "string" } } });
  assert.deepEqual(rules(changes), ["schema-dialect /$schema", "newer-keyword-dropped /properties/a/deprecated"]);
  sameVerdicts(input, schema, [{ a: "x" }, { a: 1 }, {}]);
});

test("F3: every keyword only 2020-12 defines is dropped where draft-07 would ignore it; verdicts unchanged", () => {
  const input = {
    type: "object",
    properties: { list: { type: "array" }, n: { type: "number" } },
    unevaluatedProperties: false,
    dependentRequired: { n: ["list"] },
    dependentSchemas: { n: false },
    allOf: [{ properties: { list: { prefixItems: [false], unevaluatedItems: false, contains: {}, minContains: 9 } } }],
    anyOf: [{ maxContains: 0, contentSchema: { $id: "https://example.com/c.json", type: "string" } }],
    $anchor: "top",
    $dynamicAnchor: "meta",
    $dynamicRef: "#meta",
    $recursiveRef: 5,
    $recursiveAnchor: true,
    $vocabulary: "none",
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, {
    type: "object",
    properties: { list: { type: "array" }, n: { type: "number" } },
    allOf: [{ properties: { list: { contains: {} } } }],
    anyOf: [{}],
  });
  assert.deepEqual(
    changes.map((c) => c.rule),
    Array(14).fill("newer-keyword-dropped"),
  );
  sameVerdicts(input, schema, [{ extra: 1, n: 1 }, { list: [1, 2] }, { list: [] }, { n: "x" }, 5]);
});

test("F3: a boolean `deprecated` is kept as the 2020-12 annotation", () => {
  const { schema, changes } = upgraded({ properties: { old: { deprecated: true } } });
  assert.deepEqual(schema, { properties: { old: { deprecated: true } } });
  assert.deepEqual(rules(changes), ["deprecated-kept /properties/old/deprecated"]);
});

test("F3: a dropped keyword never replaces the one a draft-07 keyword becomes", () => {
  for (const order of [false, true]) {
    const parts: [string, unknown][] = [
      ["items", [{ type: "string" }]],
      ["prefixItems", [false]],
      ["dependencies", { a: ["b"] }],
      ["dependentRequired", { c: ["d"] }],
      ["$id", "#x"],
      ["$anchor", "y"],
    ];
    const { schema } = upgraded(Object.fromEntries(order ? parts.reverse() : parts));
    assert.deepEqual(schema, { prefixItems: [{ type: "string" }], dependentRequired: { a: ["b"] }, $anchor: "x" });
  }
});

/** Each draft's own keywords, from its meta-schema (`$ref` is not listed there), as the upgrade must know them. */
const OWN_KEYWORDS: Record<string, string[]> = {
  "draft-04": [
    ...["id", "$schema", "$ref", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum"],
    ...["minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "additionalItems", "items", "maxItems"],
    ...["minItems", "uniqueItems", "maxProperties", "minProperties", "required", "additionalProperties"],
    ...["definitions", "properties", "patternProperties", "dependencies", "enum", "type", "format", "allOf"],
    ...["anyOf", "oneOf", "not"],
  ],
  "draft-06": [],
  "draft-07": [],
  "2019-09": [
    ...["$schema", "$id", "$anchor", "$ref", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment", "$defs"],
    ...["additionalItems", "unevaluatedItems", "items", "contains", "additionalProperties", "unevaluatedProperties"],
    ...["properties", "patternProperties", "dependentSchemas", "propertyNames", "if", "then", "else", "allOf"],
    ...["anyOf", "oneOf", "not", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
    ...["maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains"],
    ...["maxProperties", "minProperties", "required", "dependentRequired", "const", "enum", "type", "title"],
    ...["description", "default", "deprecated", "readOnly", "writeOnly", "examples", "format", "contentMediaType"],
    ...["contentEncoding", "contentSchema", "definitions", "dependencies"],
  ],
};
OWN_KEYWORDS["draft-06"] = [
  ...(OWN_KEYWORDS["draft-04"] ?? []).filter((k) => k !== "id"),
  ...["$id", "examples", "contains", "propertyNames", "const"],
];
OWN_KEYWORDS["draft-07"] = [
  ...(OWN_KEYWORDS["draft-06"] ?? []),
  ...["$comment", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "if", "then", "else"],
];

for (const [name, own] of Object.entries(OWN_KEYWORDS)) {
  test(`every keyword the 2020-12 dialect or its meta-schemas know is ${name}'s or in its table of newer ones`, () => {
    const dialect = LEGACY_DIALECTS.get(name as never)!;
    const known = new Set<string>();
    for (const vocabulary of dialect2020_12.vocabularies) for (const k of vocabulary.keywords) known.add(k.keyword);
    for (const meta of metaSchemas2020_12) {
      const properties = (meta as { properties?: object }).properties ?? {};
      for (const keyword of Object.keys(properties)) known.add(keyword);
    }
    const mine = new Set(own);
    const unplaced = [...known].filter((k) => !mine.has(k) && !dialect.newer.has(k) && k !== "$defs");
    assert.deepEqual(unplaced, []);
    const overlapping = own.filter((k) => dialect.newer.has(k));
    assert.deepEqual(overlapping, [], "a keyword of the draft is never dropped as newer");
  });
}

test("values that draft-07 and 2020-12 both reject are refused where they are kept", () => {
  const invalid: [object, string][] = [
    [{ minLength: -1 }, "/minLength"],
    [{ properties: { a: { maxItems: 1.5 } } }, "/properties/a/maxItems"],
    [{ type: "text" }, "/type"],
    [{ type: [] }, "/type"],
    [{ type: ["string", "string"] }, "/type"],
    [{ enum: {} }, "/enum"],
    [{ multipleOf: 0 }, "/multipleOf"],
    [{ maximum: "1" }, "/maximum"],
    [{ required: ["a", "a"] }, "/required"],
    [{ required: "a" }, "/required"],
    [{ pattern: "(" }, "/pattern"],
    [{ patternProperties: { "[": {} } }, "/patternProperties/["],
    [{ allOf: [] }, "/allOf"],
    [{ dependencies: { a: ["b", "b"] } }, "/dependencies/a"],
    [{ uniqueItems: "yes" }, "/uniqueItems"],
    [{ readOnly: "yes" }, "/readOnly"],
    [{ writeOnly: 1 }, "/writeOnly"],
    [{ title: 5 }, "/title"],
    [{ format: 5 }, "/format"],
    [{ examples: "x" }, "/examples"],
    [{ $comment: [] }, "/$comment"],
  ];
  for (const [schema, pointer] of invalid) refused(schema, pointer);
});

test("F5: a draft-07 `$defs` is kept, so a $ref into it translates", () => {
  const input = { $defs: { name: { type: "string" } }, properties: { x: { $ref: "#/$defs/name" } } };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, input);
  assert.deepEqual(rules(changes), ["defs-kept /$defs"]);
  sameVerdicts(input, schema, [{ x: "a" }, { x: 1 }]);
});

test("F5: `$defs` beside `definitions` merge; a colliding `definitions` name is renamed and refs follow", () => {
  const input = {
    definitions: { a: { type: "string" }, "a-definitions": { type: "null" }, b: { type: "number" } },
    $defs: { a: { type: "boolean" }, junk: 5 },
    properties: {
      x: { $ref: "#/definitions/a" },
      y: { $ref: "#/$defs/a" },
      z: { $ref: "#/definitions/b" },
      w: { $ref: "#/definitions/a-definitions" },
    },
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, {
    $defs: {
      a: { type: "boolean" },
      "a-definitions-2": { type: "string" },
      "a-definitions": { type: "null" },
      b: { type: "number" },
    },
    properties: {
      x: { $ref: "#/$defs/a-definitions-2" },
      y: { $ref: "#/$defs/a" },
      z: { $ref: "#/$defs/b" },
      w: { $ref: "#/$defs/a-definitions" },
    },
  });
  assert.deepEqual(rules(changes), [
    "defs-kept /$defs",
    "newer-keyword-dropped /$defs/junk",
    "definitions-to-defs /definitions",
    "definitions-renamed /definitions/a",
    "ref-rewritten /properties/x/$ref",
    "ref-rewritten /properties/z/$ref",
    "ref-rewritten /properties/w/$ref",
  ]);
  const instances = [{ x: "s", y: true, z: 1, w: null }, { x: true }, { y: "s" }, { w: 1 }, { z: "s" }];
  sameVerdicts(input, schema, instances);
});

test("F5: `$defs` that holds no schema is dropped; a $ref into a non-schema entry is refused", () => {
  assert.deepEqual(upgraded({ $defs: 5, type: "string" }).schema, { type: "string" });
  refused({ $defs: { a: 5 }, properties: { x: { $ref: "#/$defs/a" } } }, "/properties/x/$ref", /schema/);
});

test("F5: a root `$id` beside `$ref` is dropped (draft-07 §8.3 ignores it) and the kept $defs follow", () => {
  const input = {
    $schema: D07,
    $id: "https://example.com/schemas/tool.json",
    $ref: "#/definitions/Args",
    definitions: { Args: { type: "object", required: ["q"], properties: { q: { type: "string" } } } },
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, {
    $schema: D2020,
    $ref: "#/$defs/Args",
    $defs: { Args: { type: "object", required: ["q"], properties: { q: { type: "string" } } } },
  });
  assert.deepEqual(rules(changes), [
    "schema-dialect /$schema",
    "ref-sibling-dropped /$id",
    "ref-rewritten /$ref",
    "definitions-to-defs /definitions",
  ]);
  assert.deepEqual(verdicts(schema, [{ q: "x" }, { q: 1 }, {}]), [true, false, false]);
});

test("F5: dropping the ignored `$id` keeps every relative reference resolving where draft-07 resolved it", () => {
  // Draft-07 ignores the root $id, so "sub/a.json" and "b.json" resolve against the retrieval URI both before
  // and after; keeping the $id would move them under example.com in 2020-12.
  const input = {
    $id: "https://example.com/dir/root.json",
    $ref: "#/definitions/a",
    definitions: {
      a: { $id: "sub/a.json", properties: { b: { $ref: "b.json" } } },
      b: { $id: "sub/b.json", type: "string" },
    },
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, {
    $ref: "#/$defs/a",
    $defs: {
      a: { $id: "sub/a.json", properties: { b: { $ref: "b.json" } } },
      b: { $id: "sub/b.json", type: "string" },
    },
  });
  assert.ok(rules(changes).includes("ref-sibling-dropped /$id"));
  for (const baseUri of [undefined, "https://retrieved.example/x/root.json"]) {
    assert.deepEqual(verdicts(schema, [{ b: "s" }, { b: 1 }], { baseUri }), [true, false]);
  }
  // A $ref beside the root $id that leaves the document resolves against the retrieval URI, as in draft-07.
  const external = upgraded({ $id: "https://example.com/dir/root.json", $ref: "other.json" });
  assert.deepEqual(external.schema, { $ref: "other.json" });
  assert.match(external.changes[0]?.message ?? "", /"other\.json" resolves against the enclosing base/);
  const registry = { "https://retrieved.example/x/other.json": { type: "integer" } };
  const baseUri = "https://retrieved.example/x/root.json";
  assert.deepEqual(verdicts(external.schema, [1, "1"], { baseUri, schemaRegistry: registry }), [true, false]);
});

test('F5: an `$id` "#/pointer" naming its own location is dropped', () => {
  const input = {
    $id: "#",
    definitions: { a: { $id: "#/definitions/a", type: "string" } },
    properties: {
      x: { $ref: "#/definitions/a" },
      e: {
        $id: "https://example.com/e.json",
        properties: { p: { $id: "#/properties/p", type: "integer" }, q: { $ref: "#/properties/p" } },
      },
    },
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, {
    $defs: { a: { type: "string" } },
    properties: {
      x: { $ref: "#/$defs/a" },
      e: { $id: "https://example.com/e.json", properties: { p: { type: "integer" }, q: { $ref: "#/properties/p" } } },
    },
  });
  assert.deepEqual(rules(changes), [
    "ignored-keyword-dropped /$id",
    "definitions-to-defs /definitions",
    "id-pointer-dropped /definitions/a/$id",
    "ref-rewritten /properties/x/$ref",
    "id-pointer-dropped /properties/e/properties/p/$id",
  ]);
  sameVerdicts(input, schema, [{ x: "s", e: { p: 1, q: 2 } }, { x: 1 }, { e: { q: "s" } }]);
});

test('an `$id` "#/pointer" naming another location is dropped, unless a $ref names that location', () => {
  const unused = upgraded({ properties: { p: { $id: "#/items", type: "string" } } });
  assert.deepEqual(unused.schema, { properties: { p: { type: "string" } } });
  assert.deepEqual(rules(unused.changes), ["id-pointer-dropped /properties/p/$id"]);
  refused(
    {
      definitions: { a: { type: "number" } },
      properties: { p: { $id: "#/definitions/a", type: "string" }, x: { $ref: "#/definitions/a" } },
    },
    "/properties/x/$ref",
    /also claims/,
  );
  refused({ properties: { p: { $id: "#/a~2" } } }, "/properties/p/$id", /malformed/);
});

test("constraints dropped beside $ref are listed apart from annotations, with their keywords", () => {
  const { changes } = upgraded({
    definitions: { s: {} },
    properties: {
      a: { $ref: "#/definitions/s", type: "string", title: "A", required: ["x"], description: "d", "x-ui": 1 },
    },
  });
  const dropped = changes.filter((c) => c.rule.startsWith("ref-sibling"));
  assert.deepEqual(rules(dropped), [
    "ref-sibling-constraint-dropped /properties/a/type",
    "ref-sibling-dropped /properties/a/title",
    "ref-sibling-constraint-dropped /properties/a/required",
    "ref-sibling-dropped /properties/a/description",
    "ref-sibling-dropped /properties/a/x-ui",
  ]);
  assert.match(dropped[0]?.message ?? "", /"type".*constrain/);
});
