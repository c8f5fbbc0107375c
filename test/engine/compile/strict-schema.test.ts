/** `strictSchema`: keywords and (where `format` asserts) formats that would be ignored are compile errors. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile, SchemaError, type CompileOptions } from "../../../src/index.js";

function refusal(schema: unknown, options: CompileOptions = {}): SchemaError {
  try {
    compile(schema, { strictSchema: true, ...options });
  } catch (e) {
    assert.ok(e instanceof SchemaError, String(e));
    return e;
  }
  assert.fail("compiled");
}

test("the specification's default stays: a misspelt keyword compiles and asserts nothing", () => {
  const schema = { requried: ["a"], properties: { a: { maxLenght: 3 } } };
  assert.equal(compile(schema).isValid({ a: "toolong" }), true);
  assert.equal(compile(schema, { strictSchema: false }).isValid({}), true);
});

test("a misspelt keyword is keyword_unknown at its pointer, with the keyword meant", () => {
  const e = refusal({ requried: ["a"], properties: { a: { maxLength: 3 } } });
  assert.equal(e.class, "validation");
  assert.equal(e.code, "keyword_unknown");
  assert.equal(e.schemaPointer, "/requried");
  assert.match(e.message, /unknown keyword "requried" \(did you mean "required"\?\)/);
  const nested = refusal({ properties: { a: { maxLenght: 3 } } });
  assert.equal(nested.schemaPointer, "/properties/a/maxLenght");
  assert.match(nested.message, /did you mean "maxLength"/);
  const far = refusal({ items: { colour: "red" } });
  assert.equal(far.schemaPointer, "/items/colour");
  assert.doesNotMatch(far.message, /did you mean/);
});

test("every standard keyword, annotations included, passes; so do definitions (Validation Appendix A)", () => {
  const schema = {
    $id: "https://example.test/strict",
    $comment: "c",
    title: "t",
    description: "d",
    default: {},
    examples: [{}],
    deprecated: false,
    readOnly: false,
    writeOnly: false,
    definitions: { old: { type: "string" } },
    $defs: { id: { $anchor: "id", type: "integer" } },
    type: "object",
    properties: { a: { $ref: "#id" }, b: { $ref: "#/definitions/old" } },
    patternProperties: { "^x-": { contentMediaType: "application/json", contentEncoding: "base64" } },
    dependentRequired: { a: ["b"] },
    unevaluatedProperties: false,
  };
  assert.equal(compile(schema, { strictSchema: true }).isValid({ a: 1, b: "x" }), true);
});

test("a keyword whose vocabulary the meta-schema leaves out is refused, naming the vocabulary", () => {
  const meta = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.test/meta/no-validation",
    $vocabulary: {
      "https://json-schema.org/draft/2020-12/vocab/core": true,
      "https://json-schema.org/draft/2020-12/vocab/applicator": true,
    },
  };
  const schema = { $schema: meta.$id, properties: { a: { maxLength: 3 } } };
  const options = { schemaRegistry: { [meta.$id]: meta } };
  assert.equal(compile(schema, options).isValid({ a: "toolong" }), true, "inactive: ignored by default");
  const e = refusal(schema, options);
  assert.equal(e.schemaPointer, "/properties/a/maxLength");
  assert.match(e.message, /vocab\/validation" is not active under "https:\/\/example.test\/meta\/no-validation"/);
});

test("with format assertion, an unknown format is format_unknown with the format meant", () => {
  const e = refusal({ properties: { to: { format: "emial" } } }, { formatAssertion: true });
  assert.equal(e.code, "format_unknown");
  assert.equal(e.schemaPointer, "/properties/to/format");
  assert.match(e.message, /unknown format "emial" \(did you mean "email"\?\)/);
  assert.doesNotThrow(() => compile({ format: "emial" }, { strictSchema: true }), "annotation only: not refused");
  assert.doesNotThrow(() => compile({ format: "emial" }, { formatAssertion: true }), "not strict: annotation");
  const known = compile(
    { format: "emial" },
    { strictSchema: true, formatAssertion: true, formats: { emial: () => true } },
  );
  assert.equal(known.isValid("x"), true, "a host format is known");
});

test("documents reached through the registry are held to it too; the meta-schemas are not", () => {
  const registry = { "https://example.test/defs": { $defs: { name: { type: "string", minLenght: 1 } } } };
  const e = refusal({ $ref: "https://example.test/defs#/$defs/name" }, { schemaRegistry: registry });
  assert.equal(e.schemaPointer, "https://example.test/defs#/$defs/name/minLenght");
  assert.doesNotThrow(() => compile({ $ref: "https://json-schema.org/draft/2020-12/schema" }, { strictSchema: true }));
});
