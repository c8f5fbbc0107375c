/**
 * Host vocabularies (`vocabularies` option) through the public API: activated only by a meta-schema's
 * `$vocabulary`, both paths, limits, output, unevaluated* and `$id` inside host subschemas, failing closed.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applicator,
  assertion,
  compile,
  SchemaError,
  type CompileOptions,
  type KeywordDefinition,
  type VocabularyDefinition,
} from "../../../src/index.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";
const HOST = "https://example.test/vocab/host";
const META = "https://example.test/meta/host";

/** `divisibleBy`: a number must be a multiple of the value (an integer), written with the `assertion` helper. */
const divisibleBy: KeywordDefinition = {
  keyword: "divisibleBy",
  compile(value, ctx) {
    if (!Number.isInteger(value) || (value as number) < 1) ctx.fail("divisibleBy", "must be a positive integer");
    const divisor = value as number;
    return assertion(
      "divisibleBy",
      (instance) => typeof instance !== "number" || instance % divisor === 0,
      (instance) => ({
        message: `must be divisible by ${divisor}, got ${String(instance)}`,
        params: { limit: divisor },
      }),
    );
  },
};

/** `eachValue`: every property value of an object must be valid against the subschema, with the `applicator` helper. */
const eachValue: KeywordDefinition = {
  keyword: "eachValue",
  phase: 1,
  subschemas: "schema",
  compile(_value, ctx) {
    const node = ctx.subschema("eachValue");
    return applicator<Record<string, unknown>>({
      keyword: "eachValue",
      on: "object",
      annotate: "keys",
      apply(instance, to, marks) {
        for (const key of to.keys(instance)) {
          marks?.addProp(key);
          if (!to.child(node, instance[key], key)) return false;
        }
        return true;
      },
    });
  },
};

const host: VocabularyDefinition = { uri: HOST, keywords: [divisibleBy, eachValue] };

/** A meta-schema listing the standard vocabularies and `extra`, constrained like the standard one. */
function metaSchema(extra: Record<string, boolean>, id = META): Record<string, unknown> {
  const standard = ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content"];
  return {
    $schema: DIALECT,
    $id: id,
    $dynamicAnchor: "meta",
    $vocabulary: { ...Object.fromEntries(standard.map((v) => [VOCAB + v, true])), ...extra },
    allOf: [{ $ref: DIALECT }],
  };
}

function options(extra: Partial<CompileOptions> = {}, meta = metaSchema({ [HOST]: true })): CompileOptions {
  return { vocabularies: [host], schemaRegistry: { [META]: meta }, ...extra };
}

test("a host keyword applies where a meta-schema lists its vocabulary, on both paths", () => {
  const v = compile({ $schema: META, type: "object", eachValue: { divisibleBy: 3 } }, options());
  assert.equal(v.isValid({ a: 3, b: 9 }), true);
  assert.equal(v.isValid({ a: 3, b: 4 }), false);
  const out = v.validate({ a: 3, b: 4 });
  assert.equal(out.valid, false);
  if (!out.valid) {
    assert.deepEqual(
      out.errors.map((e) => [e.keyword, e.keywordLocation, e.instanceLocation, e.error, e.params]),
      [["divisibleBy", "/eachValue/divisibleBy", "/b", "must be divisible by 3, got 4", { limit: 3 }]],
    );
  }
  const detailed = v.validate({ a: 4 }, { output: "detailed" });
  assert.equal(detailed.valid, false);
  assert.deepEqual(v.annotations({ a: 3 }).find((a) => a.keyword === "eachValue")?.value, ["a"]);
});

test("without the meta-schema the host keywords are unknown keywords (annotations), as the specification says", () => {
  const v = compile({ divisibleBy: 3 }, options());
  assert.equal(v.isValid(4), true);
  assert.deepEqual(
    v.annotations(4).map((a) => [a.keyword, a.value]),
    [["divisibleBy", 3]],
  );
  assert.throws(
    () => compile({ divisibleBy: 3 }, { ...options(), strictSchema: true }),
    (e: unknown) =>
      e instanceof SchemaError &&
      e.code === "keyword_unknown" &&
      /vocabulary "https:\/\/example.test\/vocab\/host" is not active/.test(e.message),
  );
});

test("an optional host vocabulary that is not registered is ignored; a required one stays unsupported", () => {
  const optional = metaSchema({ "https://example.test/vocab/other": false });
  assert.equal(compile({ $schema: META, divisibleBy: 3 }, options({}, optional)).isValid(4), true);
  const required = metaSchema({ "https://example.test/vocab/other": true });
  assert.throws(
    () => compile({ $schema: META }, options({}, required)),
    (e: unknown) =>
      e instanceof SchemaError && e.class === "unsupported_capability" && e.code === "vocabulary_unsupported",
  );
});

test("unevaluatedProperties sees what a host applicator marks", () => {
  const schema = { $schema: META, eachValue: { type: "integer" }, unevaluatedProperties: false };
  const v = compile(schema, options());
  assert.equal(v.isValid({ a: 1, b: 2 }), true);
  assert.equal(v.isValid({ a: 1, b: "x" }), false);
  const out = v.validate({ a: 1, b: "x" });
  assert.equal(out.valid, false);
  if (!out.valid)
    assert.deepEqual(
      out.errors.map((e) => e.keyword),
      ["type"],
    );
});

test("$id and anchors inside a host keyword's subschemas are found (its subschemas declared)", () => {
  const schema = {
    $schema: META,
    $id: "https://example.test/root",
    eachValue: { $id: "item", $anchor: "item", divisibleBy: 2 },
    properties: { again: { $ref: "item#item" } },
  };
  const v = compile(schema, options());
  assert.equal(v.isValid({ again: 4 }), true);
  assert.equal(v.isValid({ again: 3 }), false);
});

test("host keywords are charged like any keyword and hit the same limits", () => {
  const v = compile({ $schema: META, eachValue: { divisibleBy: 1 } }, options());
  const small = v.count(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]))).steps;
  const large = v.count(Object.fromEntries(Array.from({ length: 110 }, (_, i) => [`k${i}`, i]))).steps;
  assert.ok(large - small >= 100 * 2, `${large} - ${small}: at least a step per key and one per member`);
  const limited = compile(
    { $schema: META, eachValue: { divisibleBy: 1 } },
    options({ limits: { maxEvaluationSteps: 50 } }),
  );
  const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
  assert.throws(
    () => limited.isValid(wide),
    (e: unknown) => e instanceof SchemaError && e.code === "limit_exceeded",
  );
  assert.throws(
    () => limited.validate(wide),
    (e: unknown) => e instanceof SchemaError && e.code === "limit_exceeded",
  );
});

test("a host keyword that throws or answers out of the protocol is an execution_failure", () => {
  const thrown = new TypeError("bug");
  const cases: [KeywordDefinition, RegExp][] = [
    [
      {
        keyword: "broken",
        compile: () => {
          throw thrown;
        },
      },
      /the keyword "broken" failed to compile: bug/,
    ],
    [{ keyword: "broken", compile: () => ({ kind: "assertion" }) as never }, /compiled to .*, not an evaluator/],
    [
      {
        keyword: "broken",
        compile: () => ({ keyword: "broken", kind: "assertion", test: () => 1 as never, evaluate: () => true }),
      },
      /answered a number, not a boolean/,
    ],
    [
      {
        keyword: "broken",
        compile: () => ({ keyword: "broken", kind: "annotation", test: () => true, evaluate: () => false }),
      },
      /answered false from an annotation, which never fails/,
    ],
    [
      {
        keyword: "broken",
        compile: () =>
          assertion(
            "broken",
            () => {
              throw thrown;
            },
            () => ({ message: "never" }),
          ),
      },
      /the keyword "broken" threw: bug/,
    ],
  ];
  for (const [def, message] of cases) {
    const opts = options({ vocabularies: [{ uri: HOST, keywords: [def] }] });
    const matches = (e: unknown): boolean =>
      e instanceof SchemaError &&
      e.class === "execution_failure" &&
      e.code === "keyword_failed" &&
      message.test(e.message);
    const compiled = ((): ReturnType<typeof compile> | undefined => {
      try {
        return compile({ $schema: META, broken: true }, opts);
      } catch (e) {
        assert.ok(matches(e), `${String(message)}: ${String(e)}`);
        return undefined;
      }
    })();
    if (compiled === undefined) continue;
    assert.throws(() => {
      compiled.isValid(1);
      compiled.validate(1, { output: "verbose" });
    }, matches);
  }
});

test("a host keyword may not share a name with another active vocabulary's", () => {
  const clash: VocabularyDefinition = { uri: HOST, keywords: [{ ...divisibleBy, keyword: "multipleOf" }] };
  assert.throws(
    () => compile({ $schema: META }, options({ vocabularies: [clash] })),
    (e: unknown) =>
      e instanceof SchemaError &&
      e.code === "vocabulary_conflict" &&
      /activates the keyword "multipleOf" from two vocabularies/.test(e.message),
  );
});

test("a host vocabulary re-implementing a fused keyword is used on the boolean path too", () => {
  // `required` is fused with `properties` on the boolean path; a host's own `required` must not be bypassed.
  let calls = 0;
  const required: KeywordDefinition = {
    keyword: "required",
    compile(value) {
      const names = value as string[];
      return assertion(
        "required",
        (instance) => {
          calls++;
          return typeof instance !== "object" || instance === null || names.every((n) => Object.hasOwn(instance, n));
        },
        () => ({ message: "is missing a name" }),
      );
    },
  };
  const standard = ["core", "applicator", "unevaluated", "meta-data", "format-annotation", "content"];
  const meta = {
    ...metaSchema({}),
    $vocabulary: { ...Object.fromEntries(standard.map((v) => [VOCAB + v, true])), [HOST]: true },
  };
  const v = compile(
    { $schema: META, properties: { a: true }, required: ["a"] },
    options({ vocabularies: [{ uri: HOST, keywords: [required] }] }, meta),
  );
  assert.equal(v.isValid({}), false);
  assert.equal(v.isValid({ a: 1 }), true);
  assert.equal(calls, 2);
});

test("malformed vocabularies are options_invalid, naming what is wrong", () => {
  const cases: [unknown, RegExp][] = [
    [{ uri: HOST, keywords: [] }, /must be an array of \{ uri, keywords \}/],
    [[{ uri: "vocab", keywords: [] }], /\[0\] has the uri "vocab", not an absolute URI/],
    [[{ uri: HOST, keywords: [], url: "" }], /\[0\] has an unknown vocabulary field "url"/],
    [
      [
        { uri: HOST, keywords: [] },
        { uri: HOST, keywords: [] },
      ],
      /\[1\] registers .* a second time/,
    ],
    [[{ uri: HOST, keywords: [{ keyword: "$id", compile: () => undefined }] }], /names beginning with "\$"/],
    [[{ uri: HOST, keywords: [{ keyword: "x", compile: () => undefined, phase: 2 }] }], /phase 2, not 0 or 1/],
    [[{ uri: HOST, keywords: [{ keyword: "x", compiler: () => undefined }] }], /did you mean "compile"/],
    [[{ uri: HOST, keywords: [divisibleBy, divisibleBy] }], /defines the keyword "divisibleBy" twice/],
    [[{ uri: VOCAB + "validation", keywords: [] }], /a vocabulary of the dialect itself/],
    [[{ uri: HOST, keywords: [{ ...eachValue, keyword: "items", subschemas: "map" }] }], /as map, not schema/],
  ];
  for (const [vocabularies, message] of cases) {
    assert.throws(
      () => compile({}, { vocabularies: vocabularies as never }),
      (e: unknown) => e instanceof SchemaError && e.code === "options_invalid" && message.test(e.message),
      String(message),
    );
  }
});
