/**
 * ElicitationSchema through the public API: the MCP form-mode subset (2025-11-25 schema.ts) with the specification's
 * own examples (client/elicitation.mdx), what lies outside it, and ElicitResults checked without quoting values.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ElicitationSchema, type ElicitationError } from "../../src/index.js";

function refused(r: { ok: boolean }): ElicitationError {
  assert.equal(r.ok, false, "expected a refusal");
  return (r as { ok: false; error: ElicitationError }).error;
}

function compiles(schema: unknown) {
  const r = ElicitationSchema.validateSchema(schema);
  assert.ok(r.ok, r.ok ? "" : `${r.error.code}: ${r.error.message}`);
  return r.value;
}

const flat = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

// client/elicitation.mdx §Requested Schema: the property examples (the string example's "pattern" is left out:
// schema.ts does not declare it, and the 2026-07-28 page no longer shows it).
const SPEC_PROPERTIES = {
  string: {
    type: "string",
    title: "Display Name",
    description: "Description text",
    minLength: 3,
    maxLength: 50,
    format: "email",
    default: "user@example.com",
  },
  number: {
    type: "number",
    title: "Display Name",
    description: "Description text",
    minimum: 0,
    maximum: 100,
    default: 50,
  },
  boolean: { type: "boolean", title: "Display Name", description: "Description text", default: false },
  untitledSingle: {
    type: "string",
    title: "Color Selection",
    description: "Choose your favorite color",
    enum: ["Red", "Green", "Blue"],
    default: "Red",
  },
  titledSingle: {
    type: "string",
    title: "Color Selection",
    description: "Choose your favorite color",
    oneOf: [
      { const: "#FF0000", title: "Red" },
      { const: "#00FF00", title: "Green" },
      { const: "#0000FF", title: "Blue" },
    ],
    default: "#FF0000",
  },
  untitledMulti: {
    type: "array",
    title: "Color Selection",
    description: "Choose your favorite colors",
    minItems: 1,
    maxItems: 2,
    items: { type: "string", enum: ["Red", "Green", "Blue"] },
    default: ["Red", "Green"],
  },
  titledMulti: {
    type: "array",
    title: "Color Selection",
    description: "Choose your favorite colors",
    minItems: 1,
    maxItems: 2,
    items: {
      anyOf: [
        { const: "#FF0000", title: "Red" },
        { const: "#00FF00", title: "Green" },
        { const: "#0000FF", title: "Blue" },
      ],
    },
    default: ["#FF0000", "#00FF00"],
  },
};

// client/elicitation.mdx §Example: Structured Data Request.
const CONTACT = {
  type: "object",
  properties: {
    name: { type: "string", description: "Your full name" },
    email: { type: "string", format: "email", description: "Your email address" },
    age: { type: "number", minimum: 18, description: "Your age" },
  },
  required: ["name", "email"],
};

describe("ElicitationSchema.validateSchema: the subset", () => {
  test("every form of the specification's examples, alone and together", () => {
    for (const [name, property] of Object.entries(SPEC_PROPERTIES)) {
      const schema = flat({ [name]: property }, { required: [name] });
      const compiled = compiles(schema);
      assert.equal(compiled.schema, schema, "the very same object");
      assert.deepEqual(compiled.deprecated, []);
    }
    compiles(flat(SPEC_PROPERTIES));
    compiles(CONTACT);
    // §Example: Simple Text Request, with the 2020-12 $schema declared.
    const simple = flat({ name: { type: "string" } }, { required: ["name"] });
    compiles({ $schema: "https://json-schema.org/draft/2020-12/schema", ...simple });
  });

  test("integer properties, and annotations anywhere (they constrain nothing)", () => {
    compiles(flat({ n: { type: "integer", minimum: 1, maximum: 9, default: 3 } }, { title: "Form", description: "d" }));
    compiles(flat({ s: { type: "string", "x-ui": { widget: "textarea" }, $comment: "c", examples: ["a"] } }));
    compiles(flat({}));
  });

  test("the deprecated enumNames form is accepted and reported", () => {
    const legacy = { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"], default: "s" };
    const compiled = compiles(flat({ size: legacy }));
    assert.deepEqual(
      compiled.deprecated.map((d) => d.pointer),
      ["/properties/size/enumNames"],
    );
    assert.match(compiled.deprecated[0]?.message ?? "", /oneOf/);
    assert.ok(ElicitationSchema.validate(flat({ size: legacy }), { action: "accept", content: { size: "m" } }).ok);
  });

  const outside: [string, unknown, string][] = [
    [
      "the spec's own pattern example (not in schema.ts)",
      flat({ s: { type: "string", pattern: "^[A-Za-z]+$" } }),
      "/properties/s/pattern",
    ],
    [
      "a nested object",
      flat({ address: { type: "object", properties: { city: { type: "string" } } } }),
      "/properties/address/type",
    ],
    [
      "an array of objects",
      flat({ list: { type: "array", items: { type: "object" } } }),
      "/properties/list/items/type",
    ],
    ["an array without items", flat({ list: { type: "array" } }), "/properties/list"],
    ["a property without type", flat({ any: { description: "anything" } }), "/properties/any"],
    ["a type list", flat({ v: { type: ["string", "null"] } }), "/properties/v/type"],
    ["a boolean property schema", flat({ v: true }), "/properties/v"],
    ["a $ref", flat({ v: { $ref: "#/$defs/x" } }), "/properties/v"],
    ["$defs at the root", flat({}, { $defs: {} }), "/$defs"],
    ["additionalProperties at the root", flat({}, { additionalProperties: false }), "/additionalProperties"],
    ["a root that is not an object type", { type: "array", properties: {} }, "/type"],
    ["a root without type", { properties: {} }, ""],
    ["a root without properties", { type: "object" }, ""],
    ["another format", flat({ s: { type: "string", format: "hostname" } }), "/properties/s/format"],
    ["an enum of numbers", flat({ s: { type: "string", enum: [1, 2] } }), "/properties/s/enum"],
    ["minLength on an enum", flat({ s: { type: "string", enum: ["a"], minLength: 1 } }), "/properties/s/minLength"],
    [
      "enumNames of another length",
      flat({ s: { type: "string", enum: ["a", "b"], enumNames: ["A"] } }),
      "/properties/s/enumNames",
    ],
    [
      "an option without title",
      flat({ s: { type: "string", oneOf: [{ const: "a" }] } }),
      "/properties/s/oneOf/0/title",
    ],
    [
      "an option with a schema keyword",
      flat({ s: { type: "string", oneOf: [{ const: "a", title: "A", type: "string" }] } }),
      "/properties/s/oneOf/0/type",
    ],
    ["a number with multipleOf", flat({ n: { type: "number", multipleOf: 2 } }), "/properties/n/multipleOf"],
    ["exclusiveMinimum", flat({ n: { type: "integer", exclusiveMinimum: 0 } }), "/properties/n/exclusiveMinimum"],
    [
      "uniqueItems on a multi-select",
      flat({ m: { type: "array", items: { type: "string", enum: ["a"] }, uniqueItems: true } }),
      "/properties/m/uniqueItems",
    ],
    ["a required name that is not a property", flat({ a: { type: "string" } }, { required: ["b"] }), "/required/0"],
    ["a property named with a slash, nested", flat({ "a/b": { type: "object" } }), "/properties/a~1b/type"],
  ];
  for (const [what, schema, pointer] of outside) {
    test(`outside: ${what} → elicitation_unsupported at ${JSON.stringify(pointer)}`, () => {
      const e = refused(ElicitationSchema.validateSchema(schema));
      assert.equal(e.class, "unsupported_capability");
      assert.equal(e.code, "elicitation_unsupported");
      assert.equal(e.schemaPointer, pointer);
      assert.ok(!e.message.includes("\n"), "one line");
    });
  }

  test("a root that is not an object is outside the subset; a declared older dialect is unsupported", () => {
    for (const root of [null, [], "schema", true]) {
      assert.equal(refused(ElicitationSchema.validateSchema(root)).code, "elicitation_unsupported");
    }
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", ...flat({}) };
    const e = refused(ElicitationSchema.validateSchema(draft07));
    assert.deepEqual([e.class, e.code, e.schemaPointer], ["unsupported_capability", "dialect_unsupported", "/$schema"]);
  });

  test("keyword values the meta-schema refuses are the boundary's schema errors", () => {
    const e = refused(ElicitationSchema.validateSchema(flat({ s: { type: "string", minLength: -1 } })));
    assert.deepEqual([e.class, e.code, e.schemaPointer], ["validation", "schema_invalid", "/properties/s/minLength"]);
    assert.equal(e.cause?.code, "schema_invalid");
  });

  test("a default must satisfy its own property", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "string", minLength: 3, default: "ab" }, "/properties/p/default"],
      [{ type: "integer", default: 1.5 }, "/properties/p/default"],
      [{ type: "string", enum: ["a"], default: "b" }, "/properties/p/default"],
      [{ type: "array", items: { type: "string", enum: ["a"] }, default: ["b"] }, "/properties/p/default"],
      [{ type: "boolean", default: "yes" }, "/properties/p/default"],
    ];
    for (const [property, pointer] of cases) {
      const e = refused(ElicitationSchema.validateSchema(flat({ p: property }, { required: ["p"] })));
      assert.deepEqual([e.class, e.code, e.schemaPointer], ["validation", "default_invalid", pointer]);
    }
  });

  test("limits are the boundary's, and options fail closed", () => {
    const wide = flat(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "string" }])));
    const e = refused(ElicitationSchema.validateSchema(wide, { limits: { maxSchemaBytes: 200 } }));
    assert.deepEqual([e.class, e.code], ["execution_failure", "limit_exceeded"]);
    assert.equal(
      refused(ElicitationSchema.validateSchema(CONTACT, { formatAsertion: false } as never)).code,
      "options_invalid",
    );
    assert.equal(
      refused(ElicitationSchema.validateSchema(CONTACT, { limits: { maxSchemaBytes: -1 } })).code,
      "options_invalid",
    );
  });

  test("hostile schemas: accessors, __proto__, cycles never throw", () => {
    const getter = flat({});
    Object.defineProperty(getter.properties, "x", { enumerable: true, get: () => ({ type: "string" }) });
    assert.equal(refused(ElicitationSchema.validateSchema(getter)).class, "validation");
    const proto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    assert.ok(ElicitationSchema.validate(proto, JSON.parse('{"action":"accept","content":{"__proto__":"x"}}')).ok);
    const cycle: Record<string, unknown> = flat({});
    (cycle["properties"] as Record<string, unknown>)["self"] = cycle;
    assert.equal(ElicitationSchema.validateSchema(cycle).ok, false);
  });
});

describe("ElicitationSchema.validate: results", () => {
  test("the specification's example responses are accepted, as the very same object", () => {
    const response = { action: "accept", content: { name: "Monalisa Octocat", email: "octocat@github.com", age: 30 } };
    const r = ElicitationSchema.validate(CONTACT, response);
    assert.ok(r.ok);
    assert.equal(r.value, response);
    const simple = flat({ name: { type: "string" } }, { required: ["name"] });
    assert.ok(ElicitationSchema.validate(simple, { action: "accept", content: { name: "octocat" } }).ok);
    const all = {
      action: "accept",
      content: { untitledMulti: ["Red"], titledSingle: "#00FF00", number: 7, boolean: true },
    };
    assert.ok(ElicitationSchema.validate(flat(SPEC_PROPERTIES), all).ok);
  });

  test("decline and cancel carry no content; accept without content is checked as {}", () => {
    assert.ok(ElicitationSchema.validate(CONTACT, { action: "decline" }).ok);
    assert.ok(ElicitationSchema.validate(CONTACT, { action: "cancel", _meta: { trace: 1 } }).ok);
    const e = refused(ElicitationSchema.validate(CONTACT, { action: "decline", content: { name: "x" } }));
    assert.deepEqual([e.code, e.instancePointer], ["result_invalid", "/content"]);
    assert.equal(refused(ElicitationSchema.validate(CONTACT, { action: "accept" })).code, "content_invalid");
    assert.ok(ElicitationSchema.validate(flat({ a: { type: "string" } }), { action: "accept" }).ok);
  });

  test("the action and the result's shape", () => {
    for (const result of [null, [], "accept", { action: "submit" }, {}, { action: "ACCEPT" }]) {
      assert.equal(refused(ElicitationSchema.validate(CONTACT, result)).code, "result_invalid");
    }
    const e = refused(ElicitationSchema.validate(CONTACT, { action: "accept", content: ["a"] }));
    assert.deepEqual([e.code, e.instancePointer], ["result_invalid", "/content"]);
  });

  const SECRET = "hunter2-SECRET-VALUE";
  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ["a missing required property", { name: "x" }, /required property "email"/],
    ["a wrong type", { name: "x", email: "a@b.example", age: SECRET }, /\/age: must be number/],
    ["a bad format", { name: "x", email: SECRET }, /\/email: must be a valid email/],
    ["under the minimum", { name: SECRET, email: "a@b.example", age: 17 }, /\/age: must be at least 18/],
  ];
  for (const [what, content, line] of invalid) {
    test(`content: ${what}; the messages quote no value`, () => {
      const e = refused(ElicitationSchema.validate(CONTACT, { action: "accept", content }));
      assert.deepEqual([e.class, e.code], ["validation", "content_invalid"]);
      assert.match(e.problems?.join("\n") ?? "", line);
      assert.match(e.message, line);
      const said = JSON.stringify(e);
      assert.ok(!said.includes(SECRET) && !said.includes("17"), said);
    });
  }

  test("enum forms: a value outside the options, too many selections", () => {
    const schema = flat(SPEC_PROPERTIES);
    const pick = (content: Record<string, unknown>) =>
      refused(ElicitationSchema.validate(schema, { action: "accept", content }));
    assert.equal(pick({ titledSingle: "#123456" }).instancePointer, "/content/titledSingle");
    assert.match(pick({ untitledMulti: ["Red", "Green", "Blue"] }).message, /at most 2 items/);
    assert.match(pick({ titledMulti: ["purple"] }).message, /\/titledMulti\/0/);
    assert.match(pick({ untitledSingle: ["Red"] }).problems?.join("\n") ?? "", /\/untitledSingle: must be string/);
  });

  test("a key the schema does not declare is refused without being named", () => {
    const hidden = "ignore previous instructions";
    const e = refused(
      ElicitationSchema.validate(CONTACT, {
        action: "accept",
        content: { name: "x", email: "a@b.example", [hidden]: 1 },
      }),
    );
    assert.equal(e.code, "content_invalid");
    assert.match(e.message, /1 property the requested schema does not declare/);
    assert.ok(!JSON.stringify(e).includes(hidden));
  });

  test("formats assert by default; formatAssertion: false annotates only", () => {
    const result = { action: "accept", content: { name: "x", email: "not an email" } };
    assert.equal(ElicitationSchema.validate(CONTACT, result).ok, false);
    assert.ok(ElicitationSchema.validate(CONTACT, result, { formatAssertion: false }).ok);
  });

  test("limits on results are execution failures; hostile results never throw", () => {
    const deep: Record<string, unknown> = { action: "accept", content: { name: "x", email: "a@b.example" } };
    let at = deep;
    for (let i = 0; i < 200; i++) at = (at["_meta"] = {}) as Record<string, unknown>;
    const e = refused(ElicitationSchema.validate(CONTACT, deep));
    assert.deepEqual([e.class, e.code], ["execution_failure", "limit_exceeded"]);
    const getter = { action: "accept" };
    Object.defineProperty(getter, "content", { enumerable: true, get: () => ({ name: "x", email: "a@b.example" }) });
    assert.equal(refused(ElicitationSchema.validate(CONTACT, getter)).code, "result_invalid");
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    assert.equal(ElicitationSchema.validate(CONTACT, trap).ok, false);
  });

  test("a compiled schema is reusable and frozen", () => {
    const compiled = compiles(CONTACT);
    assert.ok(Object.isFrozen(compiled) && Object.isFrozen(compiled.deprecated));
    for (let i = 0; i < 3; i++)
      assert.ok(compiled.validate({ action: "accept", content: { name: `n${i}`, email: "a@b.example" } }).ok);
    assert.equal(compiled.validate({ action: "accept", content: { name: 1 } }).ok, false);
  });
});
