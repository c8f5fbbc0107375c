/** Host formats (`formats` option): assertion and annotation, types, overriding, failing closed, read once. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile, SchemaError, type FormatDefinition } from "../../../src/index.js";

const isSku = (value: string): boolean => /^[A-Z]{3}-[0-9]{4}$/.test(value);

test("a host string format asserts with formatAssertion and only annotates without it", () => {
  const schema = { type: "object", properties: { sku: { type: "string", format: "sku" } } };
  const asserting = compile(schema, { formats: { sku: isSku }, formatAssertion: true });
  assert.equal(asserting.isValid({ sku: "ABC-1234" }), true);
  assert.equal(asserting.isValid({ sku: "abc" }), false);
  const out = asserting.validate({ sku: "abc" });
  assert.equal(out.valid, false);
  if (!out.valid) {
    const unit = out.errors.find((e) => e.keyword === "format");
    assert.equal(unit?.instanceLocation, "/sku");
    assert.deepEqual(unit?.params, { format: "sku" });
    assert.match(unit?.error ?? "", /must be a valid sku, got "abc"/);
  }
  const annotating = compile(schema, { formats: { sku: isSku } });
  assert.equal(annotating.isValid({ sku: "abc" }), true);
  assert.deepEqual(
    annotating.annotations({ sku: "abc" }).filter((a) => a.keyword === "format"),
    [
      {
        keyword: "format",
        instanceLocation: "/sku",
        keywordLocation: "/properties/sku/format",
        absoluteKeywordLocation: "urn:backplane-agent-runtime:schema#/properties/sku/format",
        value: "sku",
      },
    ],
  );
});

test("a host format applies to the JSON types it names and passes others untouched", () => {
  const even: FormatDefinition = { check: (n: number) => n % 2 === 0, types: ["integer"] };
  const v = compile({ format: "even" }, { formats: new Map([["even", even]]), formatAssertion: true });
  assert.equal(v.isValid(4), true);
  assert.equal(v.isValid(3), false);
  assert.equal(v.isValid(3.5), true, "3.5 is a number, not an integer");
  assert.equal(v.isValid("3"), true, "strings are not among its types");
  const strings = compile({ format: "sku" }, { formats: { sku: isSku }, formatAssertion: true });
  assert.equal(strings.isValid(12), true, "a function applies to strings only");
});

test("a required format-assertion vocabulary turns host formats into assertions too", () => {
  const meta = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.test/meta/format-assertion",
    $vocabulary: {
      "https://json-schema.org/draft/2020-12/vocab/core": true,
      "https://json-schema.org/draft/2020-12/vocab/format-assertion": true,
    },
  };
  const v = compile(
    { $schema: meta.$id, format: "sku" },
    { schemaRegistry: { [meta.$id]: meta }, formats: { sku: isSku } },
  );
  assert.equal(v.isValid("ABC-1234"), true);
  assert.equal(v.isValid("nope"), false);
});

test("replacing a built-in format must say so", () => {
  const strict = (s: string): boolean => s.endsWith("@example.test");
  assert.throws(
    () => compile({ format: "email" }, { formats: { email: strict } }),
    (e: unknown) =>
      e instanceof SchemaError &&
      e.code === "options_invalid" &&
      /built-in format "email"; replacing it needs \{ check, override: true \}/.test(e.message),
  );
  const replaced = compile(
    { format: "email" },
    { formats: { email: { check: strict, override: true } }, formatAssertion: true },
  );
  assert.equal(replaced.isValid("a@example.test"), true);
  assert.equal(replaced.isValid("a@example.org"), false, "the built-in checker would accept it");
});

test("a checker that throws or answers a non-boolean is an execution_failure, never a verdict", () => {
  const thrown = new Error("database down");
  const throwing = compile(
    { not: { format: "flaky" } },
    {
      formats: {
        flaky: () => {
          throw thrown;
        },
      },
      formatAssertion: true,
    },
  );
  for (const run of [() => throwing.isValid("x"), () => throwing.validate("x")]) {
    assert.throws(run, (e: unknown) => {
      assert.ok(e instanceof SchemaError);
      assert.equal(e.class, "execution_failure");
      assert.equal(e.code, "format_failed");
      assert.equal(e.cause, thrown);
      assert.match(e.message, /the checker of format "flaky" threw: database down/);
      return true;
    });
  }
  const promising = compile(
    { format: "async" },
    { formats: { async: (() => Promise.resolve(true)) as unknown as (s: string) => boolean }, formatAssertion: true },
  );
  assert.throws(
    () => promising.isValid("x"),
    (e: unknown) => e instanceof SchemaError && e.code === "format_failed" && /not a boolean/.test(e.message),
  );
});

test("the formats option is read once: changing it after compiling changes nothing", () => {
  const formats: Record<string, (s: string) => boolean> = { sku: isSku };
  const v = compile({ format: "sku" }, { formats, formatAssertion: true });
  formats["sku"] = () => true;
  assert.equal(v.isValid("nope"), false);
});

test("malformed formats are options_invalid, naming what is wrong", () => {
  const cases: [unknown, RegExp][] = [
    [[isSku], /must be a plain object or a Map/],
    [{ sku: "^[A-Z]+$" }, /format "sku" "\^\[A-Z\]\+\$", which is neither a function nor \{ check, types \}/],
    [{ sku: { check: isSku, type: ["string"] } }, /format "sku" with the unknown field "type"/],
    [{ sku: { check: isSku, types: [] } }, /types \[\] is not a non-empty array/],
    [{ sku: { check: isSku, types: ["text"] } }, /the type "text" \(known: string, number/],
    [{ sku: { check: isSku, override: "yes" } }, /override "yes" is not a boolean/],
    [{ sku: {} }, /check undefined is not a function/],
    [new Map([[1, isSku]]), /the format name 1, which is not a name/],
  ];
  for (const [formats, message] of cases) {
    assert.throws(
      () => compile({}, { formats: formats as never }),
      (e: unknown) => e instanceof SchemaError && e.code === "options_invalid" && message.test(e.message),
      String(message),
    );
  }
});

test("a host format is charged one step per code unit, as built-in formats are", () => {
  const v = compile({ format: "sku" }, { formats: { sku: () => true }, formatAssertion: true });
  const short = v.count("a".repeat(10)).steps;
  const long = v.count("a".repeat(1010)).steps;
  assert.equal(long - short, 1000);
  const limited = compile(
    { format: "sku" },
    { formats: { sku: () => true }, formatAssertion: true, limits: { maxEvaluationSteps: 500 } },
  );
  assert.throws(
    () => limited.isValid("a".repeat(1000)),
    (e: unknown) => e instanceof SchemaError && e.code === "limit_exceeded",
  );
});
