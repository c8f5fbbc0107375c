import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compile } from "../../../../src/index.js";
import { upgradeDraft07 } from "../../../../src/runtime/boundary/dialects/upgrade.js";
import { D07, D2020, refused, rules, run, upgraded } from "./helpers.js";

test("$schema draft-07 (http/https, with/without #) becomes 2020-12; absent stays absent", () => {
  for (const uri of [
    D07,
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft-07/schema",
  ]) {
    const { schema, changes } = upgraded({ $schema: uri, type: "string" });
    assert.deepEqual(schema, { $schema: D2020, type: "string" });
    assert.deepEqual(rules(changes), ["schema-dialect /$schema"]);
  }
  const { schema, changes } = upgraded({ type: "string" });
  assert.deepEqual(schema, { type: "string" });
  assert.deepEqual(changes, []);
});

test("any other $schema is refused at /$schema", () => {
  for (const uri of [
    "http://json-schema.org/draft-04/schema#",
    "http://json-schema.org/draft-06/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    D2020,
    "https://example.com/my-dialect",
    7,
  ]) {
    refused({ $schema: uri, type: "string" }, "/$schema", /not draft-07/);
  }
  refused({ properties: { a: { $schema: "http://json-schema.org/draft-04/schema#" } } }, "/properties/a/$schema");
});

test("values that are not JSON data are schema_not_json at their pointer, before any walk", () => {
  const getter = { type: "object", properties: {} };
  Object.defineProperty(getter.properties, "a", { enumerable: true, get: () => ({ type: "string" }) });
  for (const [schema, pointer] of [
    [undefined, ""],
    [{ $schema: D07, properties: { a: { default: () => 1 } } }, "/properties/a/default"],
    [{ $schema: D07, items: [{}, new Date(0)] }, "/items/1"],
    [getter, "/properties/a"],
  ] as const) {
    const r = upgradeDraft07(schema);
    assert.ok(!r.ok);
    assert.deepEqual([r.error.class, r.error.code, r.error.schemaPointer], ["validation", "schema_not_json", pointer]);
  }
});

test("non-object, non-boolean roots are refused at the root; boolean schemas stay", () => {
  for (const root of [null, 1, "x", [], [true]]) refused(root, "");
  assert.deepEqual(upgraded(true), { schema: true, changes: [] });
  assert.deepEqual(upgraded(false), { schema: false, changes: [] });
  assert.deepEqual(upgraded({ properties: { a: false }, items: true }).schema, {
    properties: { a: false },
    items: true,
  });
});

test("definitions become $defs and refs into them are rewritten", () => {
  const { schema, changes } = upgraded({
    $schema: D07,
    definitions: { pos: { type: "integer", minimum: 0 }, "a/b~c": { type: "string" } },
    properties: { n: { $ref: "#/definitions/pos" }, s: { $ref: "#/definitions/a~1b~0c" } },
  });
  assert.deepEqual(schema, {
    $schema: D2020,
    $defs: { pos: { type: "integer", minimum: 0 }, "a/b~c": { type: "string" } },
    properties: { n: { $ref: "#/$defs/pos" }, s: { $ref: "#/$defs/a~1b~0c" } },
  });
  assert.deepEqual(rules(changes), [
    "schema-dialect /$schema",
    "definitions-to-defs /definitions",
    "ref-rewritten /properties/n/$ref",
    "ref-rewritten /properties/s/$ref",
  ]);
});

test("refs naming this document by $id, and refs inside embedded resources, are rewritten", () => {
  const { schema } = upgraded({
    $id: "https://example.com/root.json",
    definitions: {
      a: { type: "string" },
      emb: {
        $id: "https://example.com/other/emb.json",
        definitions: { z: { type: "number" } },
        properties: { z: { $ref: "#/definitions/z" }, back: { $ref: "../root.json#/definitions/a" } },
      },
    },
    properties: { a: { $ref: "root.json#/definitions/a" }, z: { $ref: "other/emb.json#/definitions/z" } },
  });
  assert.deepEqual(schema, {
    $id: "https://example.com/root.json",
    $defs: {
      a: { type: "string" },
      emb: {
        $id: "https://example.com/other/emb.json",
        $defs: { z: { type: "number" } },
        properties: { z: { $ref: "#/$defs/z" }, back: { $ref: "../root.json#/$defs/a" } },
      },
    },
    properties: { a: { $ref: "root.json#/$defs/a" }, z: { $ref: "other/emb.json#/$defs/z" } },
  });
});

test("refs that need no rewrite stay unchanged without a change", () => {
  const input = {
    type: "object",
    properties: {
      data: {
        type: "array",
        items: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/properties/data/items" } } },
        },
      },
    },
  };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, input);
  assert.deepEqual(changes, []);
  assert.deepEqual(upgraded({ properties: { self: { $ref: "#" } } }).changes, []);
});

test("refs into draft-07 positions that 2020-12 renames are rewritten", () => {
  const { schema } = upgraded({
    items: [{ type: "string" }, { type: "number" }],
    additionalItems: { type: "boolean" },
    dependencies: { a: { required: ["b"] } },
    properties: {
      first: { $ref: "#/items/0" },
      rest: { $ref: "#/additionalItems" },
      dep: { $ref: "#/dependencies/a" },
    },
  });
  assert.deepEqual(schema, {
    prefixItems: [{ type: "string" }, { type: "number" }],
    items: { type: "boolean" },
    dependentSchemas: { a: { required: ["b"] } },
    properties: {
      first: { $ref: "#/prefixItems/0" },
      rest: { $ref: "#/items" },
      dep: { $ref: "#/dependentSchemas/a" },
    },
  });
});

test("refs to other documents are kept and noted", () => {
  const { schema, changes } = upgraded({
    properties: { a: { $ref: "https://example.com/s.json#/definitions/x" }, b: { $ref: "other.json" } },
  });
  assert.deepEqual(schema, {
    properties: { a: { $ref: "https://example.com/s.json#/definitions/x" }, b: { $ref: "other.json" } },
  });
  assert.deepEqual(rules(changes), ["external-ref-kept /properties/a/$ref", "external-ref-kept /properties/b/$ref"]);
});

test("refs that cannot be translated exactly are refused at the $ref", () => {
  refused({ properties: { a: { $ref: "#/definitions/missing" } } }, "/properties/a/$ref", /does not resolve/);
  refused({ properties: { a: { $ref: "#/enum/0" } }, enum: [{}] }, "/properties/a/$ref", /not a subschema position/);
  refused(
    { items: { type: "string" }, additionalItems: false, properties: { a: { $ref: "#/additionalItems" } } },
    "/properties/a/$ref",
    /ignores/,
  );
  refused({ dependencies: { a: ["b"] }, properties: { x: { $ref: "#/dependencies/a" } } }, "/properties/x/$ref");
  refused({ properties: { a: { $ref: "#nowhere" } } }, "/properties/a/$ref", /does not resolve/);
  refused(
    { properties: { a: { $ref: "#/properties/b/properties/c" }, b: { $ref: "#", properties: { c: {} } } } },
    "/properties/a/$ref",
    /beside \$ref/,
  );
});

test("array-form items becomes prefixItems and additionalItems becomes items", () => {
  const { schema, changes } = upgraded({ type: "array", items: [{ type: "string" }, true], additionalItems: false });
  assert.deepEqual(schema, { type: "array", prefixItems: [{ type: "string" }, true], items: false });
  assert.deepEqual(rules(changes), ["items-array-to-prefixItems /items", "additionalItems-to-items /additionalItems"]);
  assert.deepEqual(upgraded({ items: [{ type: "string" }] }).schema, { prefixItems: [{ type: "string" }] });
});

test("schema-form items stays items; additionalItems without array items is dropped", () => {
  const a = upgraded({ items: { type: "string" }, additionalItems: false });
  assert.deepEqual(a.schema, { items: { type: "string" } });
  assert.deepEqual(rules(a.changes), ["ignored-keyword-dropped /additionalItems"]);
  const b = upgraded({ additionalItems: { type: "string" } });
  assert.deepEqual(b.schema, {});
  assert.deepEqual(rules(b.changes), ["ignored-keyword-dropped /additionalItems"]);
});

test("dependencies split into dependentRequired and dependentSchemas per property", () => {
  const { schema, changes } = upgraded({
    dependencies: { card: ["billing"], vip: { required: ["level"] }, off: false },
  });
  assert.deepEqual(schema, {
    dependentRequired: { card: ["billing"] },
    dependentSchemas: { vip: { required: ["level"] }, off: false },
  });
  assert.deepEqual(rules(changes), [
    "dependencies-to-dependentRequired /dependencies/card",
    "dependencies-to-dependentSchemas /dependencies/vip",
    "dependencies-to-dependentSchemas /dependencies/off",
  ]);
  assert.deepEqual(upgraded({ dependencies: { a: [] } }).schema, { dependentRequired: { a: [] } });
  refused({ dependencies: { a: [1] } }, "/dependencies/a");
  refused({ dependencies: { a: "b" } }, "/dependencies/a");
});

test("keywords beside $ref are dropped", () => {
  const { schema, changes } = upgraded({
    definitions: { s: { type: "string" } },
    properties: { a: { $ref: "#/definitions/s", title: "A", maxLength: 3, default: "x" } },
  });
  assert.deepEqual(schema, { $defs: { s: { type: "string" } }, properties: { a: { $ref: "#/$defs/s" } } });
  assert.deepEqual(rules(changes), [
    "definitions-to-defs /definitions",
    "ref-rewritten /properties/a/$ref",
    "ref-sibling-dropped /properties/a/title",
    "ref-sibling-constraint-dropped /properties/a/maxLength",
    "ref-sibling-dropped /properties/a/default",
  ]);
});

test("definitions beside $ref are kept as $defs only when something references into them", () => {
  const kept = upgraded({ $schema: D07, $ref: "#/definitions/Input", definitions: { Input: { type: "object" } } });
  assert.deepEqual(kept.schema, { $schema: D2020, $ref: "#/$defs/Input", $defs: { Input: { type: "object" } } });
  assert.deepEqual(rules(kept.changes), [
    "schema-dialect /$schema",
    "ref-rewritten /$ref",
    "definitions-to-defs /definitions",
  ]);
  const dropped = upgraded({ $ref: "https://example.com/x.json", definitions: { unused: { type: "object" } } });
  assert.deepEqual(dropped.schema, { $ref: "https://example.com/x.json" });
  assert.deepEqual(rules(dropped.changes), ["external-ref-kept /$ref", "ref-sibling-dropped /definitions"]);
});

test("a $ref sibling $id is dropped, but a $ref naming it is refused", () => {
  const { schema } = upgraded({
    properties: { a: { $id: "https://example.com/a.json", $ref: "#/definitions/s" } },
    definitions: { s: {} },
  });
  assert.deepEqual(schema, { properties: { a: { $ref: "#/$defs/s" } }, $defs: { s: {} } });
  refused(
    {
      properties: {
        a: { $id: "https://example.com/a.json", $ref: "#/definitions/s" },
        b: { $ref: "https://example.com/a.json" },
      },
      definitions: { s: {} },
    },
    "/properties/b/$ref",
    /ignores/,
  );
});

test("$id with a plain-name fragment becomes $anchor; other fragments are refused", () => {
  const { schema, changes } = upgraded({
    definitions: { a: { $id: "#item", type: "string" } },
    items: { $ref: "#item" },
  });
  assert.deepEqual(schema, { $defs: { a: { $anchor: "item", type: "string" } }, items: { $ref: "#item" } });
  assert.deepEqual(rules(changes), ["definitions-to-defs /definitions", "id-fragment-to-anchor /definitions/a/$id"]);
  assert.deepEqual(upgraded({ $id: "https://example.com/s.json#" }).schema, { $id: "https://example.com/s.json" });
  refused({ $id: "https://example.com/s.json#/definitions/a" }, "/$id", /fragment/);
  refused({ $id: "https://example.com/s.json#foo" }, "/$id", /fragment/);
  refused({ properties: { a: { $id: "#has:colon" } } }, "/properties/a/$id");
  refused({ properties: { a: { $id: 5 } } }, "/properties/a/$id");
});

test("anchors and resources inside referenced definitions beside $ref keep those definitions", () => {
  const { schema } = upgraded({
    properties: { x: { $ref: "#name" } },
    allOf: [{ $ref: "https://example.com/x.json", definitions: { b: { $id: "#name", type: "string" } } }],
  });
  assert.deepEqual(schema, {
    properties: { x: { $ref: "#name" } },
    allOf: [{ $ref: "https://example.com/x.json", $defs: { b: { $anchor: "name", type: "string" } } }],
  });
});

test("refs to an $id that draft-07 ignores are refused", () => {
  refused(
    {
      definitions: { s: {} },
      properties: { a: { $ref: "#/definitions/s", properties: { q: { $id: "#q" } } }, b: { $ref: "#q" } },
    },
    "/properties/b/$ref",
    /ignores/,
  );
  refused(
    { properties: { a: { $id: "#a", $ref: "#/definitions/s" }, b: { $ref: "#a" } }, definitions: { s: {} } },
    "/properties/b/$ref",
    /ignores/,
  );
});

test('$schema in subschemas, $id "#" and percent-encoded pointers', () => {
  const { schema, changes } = upgraded({
    definitions: {
      emb: { $schema: D07, $id: "https://example.com/emb.json", type: "string" },
      plain: { $schema: D07, $id: "#", type: "number" },
      "a b": { type: "null" },
    },
    properties: { x: { $ref: "#/definitions/a%20b" } },
  });
  assert.deepEqual(schema, {
    $defs: {
      emb: { $schema: D2020, $id: "https://example.com/emb.json", type: "string" },
      plain: { type: "number" },
      "a b": { type: "null" },
    },
    properties: { x: { $ref: "#/$defs/a%20b" } },
  });
  assert.deepEqual(rules(changes), [
    "definitions-to-defs /definitions",
    "schema-dialect /definitions/emb/$schema",
    "ignored-keyword-dropped /definitions/plain/$schema",
    "ignored-keyword-dropped /definitions/plain/$id",
    "ref-rewritten /properties/x/$ref",
  ]);
});

test("property: arbitrary schema-shaped input never throws and is never mutated", () => {
  const keyword = fc.constantFrom(
    "type",
    "properties",
    "items",
    "additionalItems",
    "definitions",
    "$ref",
    "$id",
    "dependencies",
    "allOf",
    "not",
    "if",
    "const",
    "enum",
    "format",
    "__proto__",
    "$defs",
    "required",
  );
  const { schema } = fc.letrec((tie) => ({
    schema: fc.oneof({ depthSize: "small" }, fc.boolean(), fc.dictionary(keyword, tie("value"), { maxKeys: 4 })),
    value: fc.oneof(
      { depthSize: "small" },
      tie("schema"),
      fc.array(tie("schema"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "__proto__"), tie("schema"), { maxKeys: 3 }),
      fc.constantFrom("#/definitions/a", "#/items/0", "#a", "other.json", "#", "string", 1, null),
    ),
  }));
  fc.assert(
    fc.property(schema, (input) => {
      const result = run(input);
      assert.equal(typeof result.ok, "boolean");
    }),
    { numRuns: 500 },
  );
});

test("other draft-07 keywords keep their meaning, and every subschema position is recursed into", () => {
  const sub = { $ref: "#/definitions/s" };
  const { schema } = upgraded({
    definitions: { s: { type: "string" } },
    const: 1,
    contains: sub,
    propertyNames: sub,
    if: sub,
    then: sub,
    else: sub,
    not: sub,
    additionalProperties: sub,
    patternProperties: { "^x": sub },
    allOf: [sub],
    anyOf: [sub],
    oneOf: [sub],
  });
  const out = { $ref: "#/$defs/s" };
  assert.deepEqual(schema, {
    $defs: { s: { type: "string" } },
    const: 1,
    contains: out,
    propertyNames: out,
    if: out,
    then: out,
    else: out,
    not: out,
    additionalProperties: out,
    patternProperties: { "^x": out },
    allOf: [out],
    anyOf: [out],
    oneOf: [out],
  });
});

test("enum, const, default and examples are data and never rewritten", () => {
  const data = { definitions: { a: {} }, items: [1], $ref: "#/definitions/a", dependencies: { x: ["y"] }, $defs: {} };
  const input = { const: data, enum: [data], default: data, examples: [data], "x-vendor": data };
  const { schema, changes } = upgraded(input);
  assert.deepEqual(schema, input);
  assert.deepEqual(changes, []);
  assert.notEqual((schema as { const: unknown }).const, data, "data must be copied, not shared");
});

test("format is kept and noted once, at the root", () => {
  const { schema, changes } = upgraded({ properties: { a: { format: "email" }, b: { format: "date-time" } } });
  assert.deepEqual(schema, { properties: { a: { format: "email" }, b: { format: "date-time" } } });
  assert.deepEqual(rules(changes), ["format-annotation "]);
  assert.deepEqual(upgraded({ properties: { a: { type: "string" } } }).changes, []);
});

test("__proto__ keys stay own data properties", () => {
  const input: unknown = JSON.parse(`{
    "definitions": { "__proto__": { "type": "string" } },
    "properties": { "__proto__": { "$ref": "#/definitions/__proto__" }, "constructor": { "type": "number" } },
    "required": ["__proto__"],
    "const": { "__proto__": { "polluted": true } }
  }`);
  const out = upgraded(input).schema as Record<string, Record<string, unknown>>;
  const props = out.properties as Record<string, unknown>;
  const defs = out.$defs as Record<string, unknown>;
  assert.ok(Object.hasOwn(props, "__proto__") && Object.hasOwn(defs, "__proto__"));
  assert.equal(Object.getPrototypeOf(props), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(props, "__proto__")?.value, { $ref: "#/$defs/__proto__" });
  assert.ok(Object.hasOwn(out.const as object, "__proto__"));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  refused(JSON.parse(`{ "properties": { "a": { "$ref": "#/definitions/constructor" } } }`), "/properties/a/$ref");
});

test("cyclic or absurdly deep input is refused, not thrown", () => {
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { self: cyclic };
  const result = upgradeDraft07(cyclic);
  assert.equal(result.ok, false);
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 2000; i++) deep = { items: deep };
  assert.equal(upgradeDraft07(deep).ok, false);
});

test("real MCP corpus: every draft-07 tool upgrades", (t) => {
  const file = resolve(process.cwd(), "../shared/mcp-corpus/mcp-tools.json");
  if (!existsSync(file)) {
    t.skip(`corpus not found at ${file}`);
    return;
  }
  const tools = JSON.parse(readFileSync(file, "utf8")) as { id: string; inputSchema?: { $schema?: unknown } }[];
  const draft07 = tools.filter(
    (tool) => typeof tool.inputSchema?.$schema === "string" && /draft-07/.test(tool.inputSchema.$schema),
  );
  let ok = 0;
  const reasons = new Map<string, number>();
  for (const tool of draft07) {
    const result = run(tool.inputSchema);
    if (result.ok) {
      ok++;
      assert.equal((result.value.schema as { $schema: string }).$schema, D2020, tool.id);
      assert.doesNotThrow(() => compile(result.value.schema), tool.id);
    } else {
      const reason = result.error.message.replace(/"[^"]*"/g, "…");
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  t.diagnostic(`draft-07 tools: ${draft07.length}; upgraded: ${ok}; refused: ${draft07.length - ok}`);
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) t.diagnostic(`refused ${count}×: ${reason}`);
  assert.equal(draft07.length, 150);
  assert.equal(ok, draft07.length, "every draft-07 tool of the corpus upgrades");
});
