import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  InputSchema,
  SchemaCache,
  SchemaError,
  compile,
  type InputSchemaError,
  type InputSchemaOptions,
  type Limits,
} from "../../../src/index.js";

function schemaError(schema: unknown, options = {}): InputSchemaError {
  const r = InputSchema.validateSchema(schema, options);
  assert.equal(r.ok, false, "the schema should be refused");
  return (r as { ok: false; error: InputSchemaError }).error;
}

function argsError(schema: unknown, args: unknown, options = {}): InputSchemaError {
  const r = InputSchema.validate(schema, args, options);
  assert.equal(r.ok, false, "the arguments should be refused");
  return (r as { ok: false; error: InputSchemaError }).error;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function nestedArray(depth: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

describe("object root", () => {
  test("a root type of exactly object or [object] is accepted", () => {
    assert.equal(InputSchema.validateSchema({ type: "object" }).ok, true);
    assert.equal(InputSchema.validateSchema({ type: ["object"] }).ok, true);
  });
  for (const type of ["string", ["object", "null"], ["null"], "array", ["string", "object"]]) {
    test(`root type ${JSON.stringify(type)} is a validation error of the schema`, () => {
      const e = schemaError({ type });
      assert.equal(e.class, "validation");
      assert.equal(e.code, "root_not_object");
      assert.equal(e.schemaPointer, "/type");
    });
  }
  for (const root of [true, false, [], "object", null, 1]) {
    test(`a root of ${JSON.stringify(root)} is refused`, () => {
      const e = schemaError(root);
      assert.equal(e.class, "validation");
      assert.equal(e.code, "root_not_object");
    });
  }
  test("without a root type the arguments must still be an object", () => {
    for (const args of [[], "x", 1, null, true]) {
      const e = argsError({ properties: { a: { type: "string" } } }, args);
      assert.equal(e.class, "validation");
      assert.equal(e.code, "arguments_invalid");
    }
    assert.equal(InputSchema.validate({ properties: {} }, {}).ok, true);
  });
  test("nested boolean schemas are fine", () => {
    const compiled = InputSchema.validateSchema({ type: "object", properties: { a: true, b: false } });
    assert.ok(compiled.ok);
    assert.equal(compiled.value.validate({ a: 1 }).ok, true);
    assert.equal(compiled.value.validate({ b: 1 }).ok, false);
  });
});

describe("dialects", () => {
  for (const uri of ["https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"]) {
    test(`${uri} is the supported dialect`, () => {
      assert.equal(InputSchema.validateSchema({ $schema: uri, type: "object" }).ok, true);
    });
  }
  for (const uri of [
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-04/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft/2020-12/schema",
    "https://example.test/unknown-dialect",
    "https://json-schema.org/draft/2020-12/schema#/x",
  ]) {
    test(`${uri} is unsupported_capability, never reinterpreted`, () => {
      const e = schemaError({ $schema: uri, type: "object" });
      assert.equal(e.class, "unsupported_capability");
      assert.equal(e.code, "dialect_unsupported");
    });
  }
  const meta = (vocabulary: Record<string, boolean>) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.test/meta",
    $vocabulary: { "https://json-schema.org/draft/2020-12/vocab/core": true, ...vocabulary },
  });
  test("a custom meta-schema requiring an unknown vocabulary is unsupported_capability", () => {
    const e = schemaError(
      { $schema: "https://example.test/meta", type: "object" },
      { schemaRegistry: { "https://example.test/meta": meta({ "https://example.test/vocab/x": true }) } },
    );
    assert.equal(e.class, "unsupported_capability");
    assert.equal(e.code, "vocabulary_unsupported");
  });
  test("an optional unknown vocabulary is ignored", () => {
    const r = InputSchema.validateSchema(
      { $schema: "https://example.test/meta", type: "object" },
      { schemaRegistry: { "https://example.test/meta": meta({ "https://example.test/vocab/x": false }) } },
    );
    assert.equal(r.ok, true);
  });
  test("a custom meta-schema without the validation vocabulary turns its keywords off", () => {
    const registry = new Map([
      ["https://example.test/meta", meta({ "https://json-schema.org/draft/2020-12/vocab/applicator": true })],
    ]);
    const r = InputSchema.validate(
      { $schema: "https://example.test/meta", properties: { a: { minLength: 5 } } },
      { a: "x" },
      { schemaRegistry: registry },
    );
    assert.equal(r.ok, true);
  });
});

describe("references", () => {
  test("a missing local reference is a validation error", () => {
    const e = schemaError({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } });
    assert.equal(e.class, "validation");
    assert.equal(e.code, "ref_unresolved");
    assert.equal(e.schemaPointer, "/properties/a/$ref");
  });
  test("an unregistered external reference is a validation error (nothing is fetched)", () => {
    const e = schemaError({ type: "object", properties: { a: { $ref: "https://example.test/elsewhere.json" } } });
    assert.equal(e.class, "validation");
    assert.equal(e.code, "ref_unresolved");
  });
  test("an unrelated draft-07 registry document cannot turn a missing reference into unsupported_capability", () => {
    // Quarantine (ToolCatalog.admitBatch) drops only unsupported_capability tools: an unresolved reference
    // reported as a dialect problem would be quietly quarantined instead of failing the batch.
    const schema = { type: "object", properties: { a: { $ref: "https://example.com/missing.json" } } };
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };
    const e = schemaError(schema, { schemaRegistry: { "https://example.com/other.json": draft07 } });
    assert.equal(e.class, "validation");
    assert.equal(e.code, "ref_unresolved");
    const reached = schemaError(
      { type: "object", properties: { a: { $ref: "https://example.com/other.json" } } },
      { schemaRegistry: { "https://example.com/other.json": draft07 } },
    );
    assert.equal(reached.class, "unsupported_capability", "a reached draft-07 document is the tool's own problem");
    assert.match(reached.message, /https:\/\/example\.com\/other\.json/);
  });
  test("a registered external reference resolves, from an object or a Map", () => {
    const schema = { type: "object", properties: { a: { $ref: "https://example.test/name" } } };
    for (const schemaRegistry of [
      { "https://example.test/name": { type: "string" } },
      new Map([["https://example.test/name", { type: "string" }]]),
    ]) {
      assert.equal(InputSchema.validate(schema, { a: "x" }, { schemaRegistry }).ok, true);
      assert.equal(InputSchema.validate(schema, { a: 1 }, { schemaRegistry }).ok, false);
    }
  });
  test("a loader is called at compile time only, and a throwing loader is a validation error", () => {
    const calls: string[] = [];
    const compiled = InputSchema.validateSchema(
      { type: "object", properties: { a: { $ref: "https://example.test/s" } } },
      {
        schemaLoader: (uri) => {
          calls.push(uri);
          return { type: "integer" };
        },
      },
    );
    assert.ok(compiled.ok);
    assert.deepEqual(calls, ["https://example.test/s"]);
    compiled.value.validate({ a: 1 });
    assert.deepEqual(calls, ["https://example.test/s"]);
    const e = schemaError(
      { type: "object", $ref: "https://example.test/s" },
      {
        schemaLoader: () => {
          throw new Error("offline");
        },
      },
    );
    assert.equal(e.class, "validation");
    assert.equal(e.code, "loader_failed");
    assert.match(e.message, /offline/);
  });
});

describe("host schemas are JSON", () => {
  const cases: [string, unknown][] = [
    ["a function", () => 1],
    ["undefined", undefined],
    ["a bigint", 1n],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["a class instance", new (class Thing {})()],
  ];
  for (const [name, value] of cases) {
    test(`${name} is a validation error naming its pointer`, () => {
      const e = schemaError({ type: "object", properties: { a: { default: value } } });
      assert.equal(e.class, "validation");
      assert.equal(e.code, "schema_not_json");
      assert.equal(e.schemaPointer, "/properties/a/default");
    });
  }
  test("a cycle is a validation error", () => {
    const a: Record<string, unknown> = { type: "object" };
    a["properties"] = { self: a };
    const e = schemaError(a);
    assert.equal(e.code, "schema_not_json");
    assert.equal(e.schemaPointer, "/properties/self");
  });
  test("symbol-keyed properties are ignored", () => {
    const schema = {
      type: "object",
      [Symbol("TypeBox.Kind")]: "Object",
      properties: { a: { type: "string", [Symbol("x")]: 1 } },
    };
    assert.equal(InputSchema.validate(schema, { a: "x" }).ok, true);
  });
});

describe("prototype-named properties are plain data", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
  for (const name of names) {
    test(`${name} in properties, required, enum and $defs`, () => {
      const schema = JSON.parse(
        `{"type":"object","properties":{"${name}":{"type":"integer"}},"required":["${name}"],"$defs":{"${name}":{"enum":["${name}"]}}}`,
      );
      assert.equal(InputSchema.validate(schema, JSON.parse(`{"${name}": 1}`)).ok, true);
      assert.equal(InputSchema.validate(schema, JSON.parse(`{"${name}": "x"}`)).ok, false);
      assert.equal(InputSchema.validate(schema, {}).ok, false, "an inherited property does not satisfy required");
      const viaRef = JSON.parse(
        `{"type":"object","properties":{"a":{"$ref":"#/$defs/${name}"}},"$defs":{"${name}":{"enum":["${name}"]}}}`,
      );
      assert.equal(InputSchema.validate(viaRef, { a: name }).ok, true);
      assert.equal(InputSchema.validate(viaRef, { a: "other" }).ok, false);
    });
  }
  test("nothing reaches Object.prototype", () => {
    InputSchema.validate(
      JSON.parse('{"type":"object","properties":{"__proto__":{"default":{"polluted":true}}}}'),
      JSON.parse('{"__proto__":{"polluted":true}}'),
    );
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  });
});

describe("arguments are returned untouched", () => {
  test("success returns the very same args value", () => {
    const args = { q: "  padded  ", extra: 1 };
    const r = InputSchema.validate(
      { type: "object", properties: { q: { type: "string", default: "x" }, n: { default: 5 } } },
      args,
    );
    assert.ok(r.ok);
    assert.equal(r.value, args);
    assert.deepEqual(args, { q: "  padded  ", extra: 1 });
    assert.equal(Object.isFrozen(args), false);
  });
  test("a deep-frozen argument object validates without error", () => {
    const args = deepFreeze({ a: [{ b: "x" }], c: { d: 1 } });
    const r = InputSchema.validate(
      {
        type: "object",
        properties: {
          a: { items: { properties: { b: { type: "string" } } } },
          c: { unevaluatedProperties: false, properties: { d: true } },
        },
      },
      args,
    );
    assert.ok(r.ok);
    assert.equal(r.value, args);
  });
  test("the schema is never modified", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/x" } },
      $defs: { x: { type: "string", default: "d" } },
    };
    const before = JSON.stringify(schema);
    const compiled = InputSchema.validateSchema(schema);
    assert.ok(compiled.ok);
    assert.equal(compiled.value.schema, schema);
    compiled.value.validate({ a: "y" });
    compiled.value.validate({ a: 2 });
    assert.equal(JSON.stringify(schema), before);
  });
  test("non-JSON arguments are refused with their pointer", () => {
    const e = argsError({ type: "object" }, { a: { b: () => 1 } });
    assert.equal(e.code, "arguments_invalid");
    assert.equal(e.instancePointer, "/a/b");
  });
});

describe("errors carry class, code, message, pointers and output units", () => {
  test("invalid arguments", () => {
    const e = argsError(
      { type: "object", properties: { q: { type: "string", maxLength: 3 } }, required: ["q"] },
      { q: "toolong" },
    );
    assert.equal(e.class, "validation");
    assert.equal(e.code, "arguments_invalid");
    assert.equal(e.instancePointer, "/q");
    assert.equal(e.schemaPointer, "/properties/q/maxLength");
    assert.match(e.message, /at most 3 characters/);
    assert.ok(!e.message.includes("\n"));
    assert.ok((e.errors ?? []).length > 0);
    assert.match(e.toModelText(), /\/q: must be at most 3 characters long \(expected by "maxLength"/);
    assert.ok(!e.toModelText().includes("toolong"));
  });
  test("fields that do not apply are absent, not own properties holding undefined", () => {
    const e = schemaError({ type: "strin" });
    assert.deepEqual(Object.keys(e).sort(), ["class", "code", "message", "schemaPointer"]);
    for (const key of ["instancePointer", "errors", "limit", "cause"]) assert.equal(Object.hasOwn(e, key), false, key);
    let thrown: unknown;
    try {
      compile({ $ref: "#/nowhere" });
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof SchemaError);
    assert.equal(Object.hasOwn(thrown, "instancePointer"), false);
    assert.deepEqual(Object.keys(thrown.toJSON()).sort(), ["class", "code", "message", "schemaPointer"]);
  });
  test("model text is deterministic and bounded", () => {
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, { type: "integer" }]));
    const args = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, "not a number"]));
    const e = argsError({ type: "object", properties }, args);
    const text = e.toModelText(1_000);
    assert.ok(text.length <= 1_000, `${text.length}`);
    assert.match(text, /^The arguments do not match the tool's input schema \(200 problems\):/);
    assert.match(text, /\n- … and \d+ more$/);
    assert.equal(
      argsError({ type: "object", properties }, { ...args }).toModelText(1_000),
      text,
      "same problems, same text",
    );
    const reordered = Object.fromEntries(Object.entries(args).reverse());
    assert.equal(
      argsError({ type: "object", properties }, reordered).toModelText(1_000),
      text,
      "independent of key order",
    );
  });
  test("a bad schema", () => {
    const e = schemaError({ type: "object", properties: { a: { minLength: -1 } } });
    assert.equal(e.class, "validation");
    assert.equal(e.code, "schema_invalid");
    assert.equal(e.schemaPointer, "/properties/a/minLength");
  });
  test("a bad regular expression", () => {
    const e = schemaError({ type: "object", properties: { a: { pattern: "(" } } });
    assert.equal(e.class, "validation");
    assert.equal(e.code, "pattern_invalid");
  });
  test("bad options are reported, not thrown", () => {
    const r = InputSchema.validateSchema({ type: "object" }, { limits: { maxSchemaDepth: -1 } as Partial<Limits> });
    assert.equal(r.ok, false);
  });
});

describe("limits fail closed as execution_failure", () => {
  const limited = (limits: Partial<Limits>) => ({ limits });
  const cases: [keyof Limits, unknown, unknown][] = [
    ["maxSchemaBytes", { type: "object", description: "x".repeat(200) }, undefined],
    [
      "maxSchemaDepth",
      { type: "object", properties: { a: { properties: { a: { properties: { a: {} } } } } } },
      undefined,
    ],
    ["maxSchemaNodes", { type: "object", properties: { a: {}, b: {}, c: {}, d: {} } }, undefined],
    [
      "maxReferences",
      { type: "object", properties: { a: { $ref: "#" }, b: { $ref: "#" }, c: { $ref: "#" } } },
      undefined,
    ],
  ];
  const small: Partial<Limits> = { maxSchemaBytes: 100, maxSchemaDepth: 2, maxSchemaNodes: 3, maxReferences: 2 };
  for (const [limit, schema] of cases) {
    test(`${limit} at compile time`, () => {
      const e = schemaError(schema, limited({ [limit]: small[limit] }));
      assert.equal(e.class, "execution_failure");
      assert.equal(e.code, "limit_exceeded");
      assert.equal(e.limit?.name, limit);
      assert.match(e.message, new RegExp(limit));
    });
  }
  const instanceCases: [keyof Limits, number, unknown, unknown][] = [
    ["maxInstanceDepth", 3, { type: "object" }, { a: { b: { c: {} } } }],
    ["maxInstanceNodes", 3, { type: "object" }, { a: 1, b: 2, c: 3 }],
    ["maxStringLength", 3, { type: "object" }, { a: "abcd" }],
    ["maxArrayLength", 3, { type: "object" }, { a: [1, 2, 3, 4] }],
    ["maxObjectProperties", 3, { type: "object" }, { a: 1, b: 2, c: 3, d: 4 }],
    [
      "maxEvaluationSteps",
      5,
      { type: "object", properties: { a: { items: { type: "integer", minimum: 0 } } } },
      { a: [1, 2, 3, 4, 5] },
    ],
    [
      "maxReferenceDepth",
      5,
      { type: "object", $defs: { loop: { $ref: "#/$defs/loop" } }, properties: { a: { $ref: "#/$defs/loop" } } },
      { a: 1 },
    ],
  ];
  for (const [limit, value, schema, args] of instanceCases) {
    test(`${limit} on arguments`, () => {
      const e = argsError(schema, args, limited({ [limit]: value }));
      assert.equal(e.class, "execution_failure");
      assert.equal(e.code, "limit_exceeded");
      assert.equal(e.limit?.name, limit);
    });
    for (const wrapper of ["not", "anyOf"] as const) {
      test(`${limit} hit inside ${wrapper} stays execution_failure`, () => {
        const { $defs, ...inner } = schema as Record<string, unknown>;
        const root = $defs === undefined ? { type: "object" } : { type: "object", $defs };
        const wrapped =
          wrapper === "not" ? { ...root, not: { not: inner } } : { ...root, anyOf: [inner, { type: "object" }] };
        const e = argsError(wrapped, args, limited({ [limit]: value }));
        if (
          ["maxInstanceDepth", "maxInstanceNodes", "maxStringLength", "maxArrayLength", "maxObjectProperties"].includes(
            limit,
          )
        ) {
          assert.equal(e.class, "execution_failure", "instance limits are checked before any keyword");
        } else {
          assert.equal(e.class, "execution_failure");
          assert.equal(e.limit?.name, limit);
        }
      });
    }
  }
  test("a regex that needs backtracking is bounded by maxRegexSteps", () => {
    const e = argsError(
      { type: "object", properties: { s: { pattern: "^(a+)+\\1$" } } },
      { s: "a".repeat(5000) + "!" },
      limited({ maxRegexSteps: 10_000 }),
    );
    assert.equal(e.class, "execution_failure");
    assert.equal(e.code, "limit_exceeded");
  });
});

describe("every value of a schema counts against the schema limits", () => {
  test("a raw schema with a const 1,000,000 arrays deep is refused on every call, naming the pointer", () => {
    const schema = { type: "object", properties: { a: { const: nestedArray(1_000_000) } } };
    for (let call = 0; call < 3; call++) {
      const r = InputSchema.validate(schema, { a: 1 });
      assert.ok(!r.ok);
      assert.deepEqual(
        [r.error.class, r.error.code, r.error.limit?.name],
        ["execution_failure", "limit_exceeded", "maxSchemaDepth"],
      );
      assert.equal(r.error.schemaPointer, "/properties/a/const" + "/0".repeat(127));
    }
  });
  test("a 2,000,000-element const is refused as maxSchemaNodes at the array", () => {
    const r = InputSchema.validateSchema({
      type: "object",
      properties: { a: { const: new Array(2_000_000).fill(0) } },
    });
    assert.ok(!r.ok);
    assert.equal(r.error.limit?.name, "maxSchemaNodes");
    assert.equal(r.error.schemaPointer, "/properties/a/const");
  });
});

describe("a limit hit inside a regular-expression match is located", () => {
  const steps = { limits: { maxRegexSteps: 1_000 } };
  const long = "a".repeat(5_000);
  test("pattern: the string and the pattern", () => {
    const e = argsError({ type: "object", properties: { s: { pattern: "^(a|b)*c$" } } }, { s: long }, steps);
    assert.equal(e.code, "limit_exceeded");
    assert.equal(e.limit?.name, "maxRegexSteps");
    assert.equal(e.instancePointer, "/s");
    assert.equal(e.schemaPointer, "/properties/s/pattern");
    assert.match(e.message, /maxRegexSteps \(1000\) exceeded at instance "\/s"/);
  });
  test("pattern on the backtracking matcher, reached through $ref: the keyword location has the hop", () => {
    const schema = {
      type: "object",
      $defs: { twice: { pattern: "^(a+)+\\1$" } },
      properties: { s: { $ref: "#/$defs/twice" } },
    };
    const e = argsError(schema, { s: long + "!" }, steps);
    assert.equal(e.limit?.name, "maxRegexSteps");
    assert.equal(e.instancePointer, "/s");
    assert.equal(e.schemaPointer, "/properties/s/$ref/pattern");
  });
  test("the evaluation's step budget, when a match is what runs it out", () => {
    const schema = { type: "object", properties: { s: { pattern: "^(a|b)*c$" } } };
    const e = argsError(schema, { s: long }, { limits: { maxEvaluationSteps: 1_000 } });
    assert.equal(e.limit?.name, "maxEvaluationSteps");
    assert.equal(e.instancePointer, "/s");
    assert.equal(e.schemaPointer, "/properties/s/pattern");
  });
  test("patternProperties: the property whose name was being matched", () => {
    const name = "x/~" + long;
    const schema = { type: "object", properties: { o: { patternProperties: { "^b": {}, "^(x|/|~|a)*c$": {} } } } };
    const e = argsError(schema, { o: { b: 1, [name]: 1 } }, steps);
    assert.equal(e.limit?.name, "maxRegexSteps");
    assert.equal(e.instancePointer, "/o/x~1~0" + long);
    assert.equal(e.schemaPointer, "/properties/o/patternProperties");
  });
  test("propertyNames: the name, at the pattern under propertyNames", () => {
    const e = argsError({ type: "object", propertyNames: { pattern: "^(a|b)*c$" } }, { ac: 1, [long]: 2 }, steps);
    assert.equal(e.limit?.name, "maxRegexSteps");
    assert.equal(e.instancePointer, "/" + long);
    assert.equal(e.schemaPointer, "/propertyNames/pattern");
  });
  test('format "regex": a pattern nested past the parser\'s bound, at the string and the format', () => {
    const schema = { type: "object", properties: { s: { format: "regex" } } };
    const e = argsError(schema, { s: "(".repeat(600) + ")".repeat(600) }, { formatAssertion: true });
    assert.equal(e.limit?.name, "maxRegexNesting");
    assert.equal(e.instancePointer, "/s");
    assert.equal(e.schemaPointer, "/properties/s/format");
  });
});

describe("no RangeError escapes", () => {
  test("a 200,000-deep argument array", () => {
    const e = argsError(
      { type: "object", properties: { a: { items: { $ref: "#/properties/a" } } } },
      { a: nestedArray(200_000) },
    );
    assert.equal(e.class, "execution_failure");
  });
  test("a 50,000-deep schema", () => {
    let s: unknown = {};
    for (let i = 0; i < 50_000; i++) s = { not: s };
    const e = schemaError({ type: "object", properties: { a: s } });
    assert.equal(e.class, "execution_failure");
    assert.equal(e.limit?.name, "maxSchemaDepth");
  });
  test("a limit error says where in the arguments it was hit", () => {
    const e = argsError({ type: "object", properties: { a: { $ref: "#/properties/a" } } }, { a: 1 });
    assert.equal(e.code, "limit_exceeded");
    assert.equal(e.instancePointer, "/a");
    assert.match(e.message, /maxReferenceDepth \(128\) exceeded at instance "\/a"/);
  });
  test("{$ref: '#'} loops and mutually recursive $defs", () => {
    assert.equal(argsError({ type: "object", $ref: "#" }, {}).class, "execution_failure");
    assert.equal(
      argsError(
        { type: "object", $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } },
        {},
      ).class,
      "execution_failure",
    );
  });
  test("a recursive schema that consumes the instance gives the right verdict within the limits", () => {
    const list = { type: "object", properties: { next: { $ref: "#" }, v: { type: "integer" } } };
    let args: Record<string, unknown> = { v: 1 };
    for (let i = 0; i < 50; i++) args = { v: i, next: args };
    assert.equal(InputSchema.validate(list, args).ok, true);
  });
});

describe("options fail closed as options_invalid", () => {
  const schema = { type: "object", properties: { e: { type: "string", format: "email" } } };
  const bad: [string, unknown, RegExp][] = [
    ["a misspelt option", { formatAssertions: true }, /unknown InputSchema option "formatAssertions"/],
    ["a cache that is not a SchemaCache", { cache: new Map() }, /"cache" must be a SchemaCache/],
    ["a malformed compile option", { formatAssertion: "yes" }, /"formatAssertion" must be a boolean/],
    ["an unknown limit", { limits: { maxSteps: 10 } }, /unknown limit "maxSteps"/],
    ["a bad registry key", { schemaRegistry: { "a.json": {} } }, /"a\.json"/],
    ["options that are not an object", 7, /plain object/],
  ];
  for (const [what, options, mentions] of bad) {
    test(`${what}: an error Result from validateSchema and validate, never a throw`, () => {
      for (const error of [
        schemaError(schema, options as InputSchemaOptions),
        argsError(schema, { e: "nope" }, options as InputSchemaOptions),
      ]) {
        assert.equal(error.class, "validation");
        assert.equal(error.code, "options_invalid");
        assert.match(error.message, mentions);
      }
    });
  }
  test("options whose getter throws are options_invalid, not a throw", () => {
    const options = {
      get formatAssertion(): boolean {
        throw new Error("boom");
      },
    };
    assert.equal(schemaError(schema, options).code, "options_invalid");
  });
  test("the same options spelt right are honoured", () => {
    const cache = new SchemaCache();
    assert.equal(InputSchema.validate(schema, { e: "nope" }, { formatAssertion: true, cache }).ok, false);
    assert.equal(InputSchema.validate(schema, { e: "a@b.test" }, { formatAssertion: true, cache }).ok, true);
  });
});
