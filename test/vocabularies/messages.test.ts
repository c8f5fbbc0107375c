/** The wording of each keyword's message: one plain sentence naming the constraint and the value. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, SchemaError } from "../../src/index.js";

const cases: [unknown, unknown, string][] = [
  [{ type: "string" }, 5, "/type: must be string, got number"],
  [{ type: ["string", "null"] }, 5, "/type: must be one of string, null, got number"],
  [{ type: "integer" }, 1.5, "/type: must be integer, got 1.5 (a fraction, not an integer)"],
  [{ type: ["integer", "null"] }, -0.25, "/type: must be one of integer, null, got -0.25 (a fraction, not an integer)"],
  [{ type: "integer" }, "1", "/type: must be integer, got string"],
  [{ enum: ["a", "b"] }, "c", '/enum: must be one of "a", "b", got "c"'],
  [
    { enum: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"] },
    "z",
    '/enum: must be one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", … (2 more), got "z"',
  ],
  [{ const: "x" }, "y", '/const: must be "x", got "y"'],
  [{ multipleOf: 0.01 }, 0.075, "/multipleOf: must be a multiple of 0.01, got 0.075"],
  [{ maximum: 10 }, 11, "/maximum: must be at most 10, got 11"],
  [{ exclusiveMaximum: 10 }, 10, "/exclusiveMaximum: must be less than 10, got 10"],
  [{ minimum: 1 }, 0, "/minimum: must be at least 1, got 0"],
  [{ exclusiveMinimum: 1 }, 1, "/exclusiveMinimum: must be greater than 1, got 1"],
  [{ maxLength: 10 }, "abcdefghijklmn", "/maxLength: must be at most 10 characters long, got 14"],
  [{ minLength: 2 }, "a", "/minLength: must be at least 2 characters long, got 1"],
  [{ pattern: "^a" }, "b", '/pattern: must match the pattern "^a", got "b"'],
  [{ maxItems: 1 }, [1, 2], "/maxItems: must have at most 1 item, got 2"],
  [{ minItems: 2 }, [1], "/minItems: must have at least 2 items, got 1"],
  [{ uniqueItems: true }, [1, 2, 1], "/uniqueItems: must not contain duplicate items, items 0 and 2 are equal"],
  [
    { contains: { type: "string" } },
    [1],
    "/contains: must contain at least 1 item matching the contains schema, got 0",
  ],
  [
    { contains: { type: "string" }, maxContains: 1 },
    ["a", "b"],
    "/contains: must contain at most 1 item matching the contains schema, got 2",
  ],
  [{ maxProperties: 1 }, { a: 1, b: 2 }, "/maxProperties: must have at most 1 property, got 2"],
  [{ minProperties: 1 }, {}, "/minProperties: must have at least 1 property, got 0"],
  [{ required: ["q"] }, {}, '/required: must have required property "q"'],
  [{ required: ["a", "b"] }, {}, '/required: must have required properties "a", "b"'],
  [{ dependentRequired: { a: ["b"] } }, { a: 1 }, '/dependentRequired: must have "b" when "a" is present'],
  [
    { additionalProperties: false },
    { extra: 1 },
    '/additionalProperties: property "extra" is not allowed (additionalProperties is false)',
  ],
  [
    { unevaluatedProperties: false },
    { extra: 1 },
    '/unevaluatedProperties: property "extra" is not allowed (unevaluatedProperties is false)',
  ],
  [{ unevaluatedItems: false }, [1], "/unevaluatedItems: item 0 is not allowed (unevaluatedItems is false)"],
  [{ prefixItems: [true], items: false }, [1, 2], "/items: must have at most 1 item, got 2"],
  [
    { oneOf: [{}, { type: "string" }, {}] },
    "x",
    "/oneOf: must match exactly one schema in oneOf, matched 3 (branches 0, 1 and 2)",
  ],
  [
    { oneOf: [{}, { type: "number" }, {}] },
    "x",
    "/oneOf: must match exactly one schema in oneOf, matched 2 (branches 0 and 2)",
  ],
  [
    { anyOf: [{ type: "string" }, { type: "null" }] },
    1,
    "/anyOf: must match at least one schema in anyOf, matched none of 2",
  ],
  [{ anyOf: [{ const: "a" }, { const: "b" }] }, "c", '/anyOf: must be one of "a", "b", got "c"'],
  [
    { anyOf: [{ const: "a" }, { $ref: "#/$defs/b" }], $defs: { b: { enum: ["b", "c"] } } },
    "q",
    '/anyOf: must be one of "a", "b", "c", got "q"',
  ],
  [{ anyOf: [{ enum: [1, 2] }, { type: "string" }] }, true, "/anyOf: must be one of 1, 2 or of type string, got true"],
  [{ allOf: [{ type: "string" }] }, 1, "/allOf: must match all schemas in allOf, failed branch 0"],
  [{ not: {} }, 1, "/not: must not match the schema in not"],
  [false, 1, ": no value is allowed here (the schema is false)"],
  [{ format: "email" }, "nope", '/format: must be a valid email, got "nope"'],
  [
    { contentEncoding: "base64" },
    "***",
    "/contentEncoding: must be valid base64-encoded text (contentEncoding base64)",
  ],
  [
    { contentMediaType: "application/json" },
    "{",
    "/contentMediaType: must be valid JSON text (contentMediaType application/json)",
  ],
];

for (const [schema, instance, expected] of cases) {
  test(`${JSON.stringify(schema)} against ${JSON.stringify(instance)}`, () => {
    const errors = compile(schema, { formatAssertion: true, contentAssertion: true }).validate(instance).errors ?? [];
    assert.equal(`${errors[0]?.keywordLocation}: ${errors[0]?.error}`, expected);
  });
}

test("long values are shortened in messages", () => {
  const errors = compile({ const: "x" }).validate("y".repeat(500)).errors ?? [];
  assert.ok((errors[0]?.error ?? "").length < 80);
  assert.match(errors[0]?.error ?? "", /…/);
});

describe("a schema that fails its meta-schema on an enum names the allowed values", () => {
  const typeNames = ["array", "boolean", "integer", "null", "number", "object", "string"];
  for (const type of ["strin", ["strin"], ["string", "strin"]]) {
    test(`{ "type": ${JSON.stringify(type)} }`, () => {
      assert.throws(
        () => compile({ type }),
        (e: unknown) => {
          assert.ok(e instanceof SchemaError);
          assert.equal(e.code, "schema_invalid");
          for (const name of typeNames)
            assert.ok(e.message.includes(JSON.stringify(name)), `${e.message} names ${name}`);
          assert.match(e.message, /got "strin"/);
          assert.doesNotMatch(e.message, /matched none/);
          return true;
        },
      );
    });
  }
  test("the message in full", () => {
    assert.throws(() => compile({ type: "strin" }), {
      message:
        'schema is invalid at "/type": must be one of "array", "boolean", "integer", "null", "number", "object", ' +
        '"string" or of type array, got "strin"',
    });
  });
});
