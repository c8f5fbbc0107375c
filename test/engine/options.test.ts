/** Options fail closed: an unknown name, a malformed value or an unknown output format is `options_invalid`. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile, SchemaError, type CompileOptions } from "../../src/index.js";

function optionsInvalid(call: () => unknown, mentions: RegExp): void {
  assert.throws(call, (e: unknown) => {
    assert.ok(e instanceof SchemaError, `a SchemaError, got ${String(e)}`);
    assert.equal(e.class, "validation");
    assert.equal(e.code, "options_invalid");
    assert.match(e.message, mentions);
    return true;
  });
}

describe("compile options", () => {
  const bad: [string, unknown, RegExp][] = [
    ["a misspelt name (formatAssertions)", { formatAssertions: true }, /unknown compile option "formatAssertions"/],
    ["an option of another entry point (allErrors)", { allErrors: true }, /"allErrors"/],
    ["an option of another entry point (limit)", { limit: 10 }, /"limit"/],
    ["options that are not an object", "fast", /plain object/],
    ["null options", null, /plain object/],
    ["a class instance as options", new Date(), /plain object/],
    ["formatAssertion not a boolean", { formatAssertion: "true" }, /"formatAssertion" must be a boolean/],
    ["contentAssertion not a boolean", { contentAssertion: 1 }, /"contentAssertion" must be a boolean/],
    ["schemaLoader not a function", { schemaLoader: {} }, /"schemaLoader" must be a function/],
    ["schemaRegistry an array", { schemaRegistry: [] }, /"schemaRegistry" must be a plain object or a Map/],
    ["a relative registry key", { schemaRegistry: { "other.json": {} } }, /"other\.json"/],
    ["a registry key with a fragment", { schemaRegistry: { "https://e.test/a#x": {} } }, /"https:\/\/e\.test\/a#x"/],
    ["a registry Map with a non-string key", { schemaRegistry: new Map([[1, {}]]) }, /the key 1/],
    ["baseUri relative", { baseUri: "tools/search" }, /"baseUri" must be an absolute URI/],
    ["baseUri with a fragment", { baseUri: "https://e.test/a#b" }, /"baseUri"/],
    ["baseUri not a string", { baseUri: 5 }, /"baseUri"/],
    ["limits not an object", { limits: 5 }, /"limits" must be a plain object/],
    ["an unknown limit", { limits: { maxDepth: 3 } }, /unknown limit "maxDepth"/],
    ["a negative limit", { limits: { maxSchemaDepth: -1 } }, /maxSchemaDepth -1/],
    ["a fractional limit", { limits: { maxEvaluationSteps: 1.5 } }, /maxEvaluationSteps 1\.5/],
    ["a limit that is not a number", { limits: { maxArrayLength: "10" } }, /maxArrayLength "10"/],
    ["a NaN limit", { limits: { maxInstanceDepth: NaN } }, /maxInstanceDepth/],
  ];
  for (const [what, options, mentions] of bad) {
    test(`${what} is options_invalid`, () => {
      optionsInvalid(() => compile({ format: "email" }, options as CompileOptions), mentions);
    });
  }

  test("each limit accepts a non-negative integer and refuses anything else", () => {
    for (const name of Object.keys(compile({}).limits)) {
      // 0 is a valid setting; compiling may then hit the limit itself, which is not an options problem.
      try {
        compile({}, { limits: { [name]: 0 } }).isValid(1);
      } catch (e) {
        assert.equal((e as SchemaError).code, "limit_exceeded", name);
      }
      assert.doesNotThrow(() => compile({}, { limits: { [name]: 100_000 } }).isValid(1), name);
      for (const value of [-1, 0.5, Infinity, "1", null, true])
        optionsInvalid(() => compile({}, { limits: { [name]: value as number } }), new RegExp(name));
    }
  });

  test("options given as undefined count as absent; a Map, null-prototype registry and `#` keys are fine", () => {
    const registry = Object.create(null) as Record<string, unknown>;
    registry["https://e.test/s#"] = { type: "string" };
    const options: CompileOptions = {
      schemaRegistry: undefined,
      schemaLoader: undefined,
      formatAssertion: undefined,
      limits: { maxSchemaDepth: undefined },
    };
    assert.equal(compile({ type: "string" }, options).isValid("x"), true);
    assert.equal(compile({ $ref: "https://e.test/s" }, { schemaRegistry: registry }).isValid(1), false);
    const map = new Map([["https://e.test/s", { type: "string" }]]);
    assert.equal(compile({ $ref: "https://e.test/s" }, { schemaRegistry: map }).isValid("x"), true);
  });

  test("a correctly spelt formatAssertion still asserts", () => {
    assert.equal(compile({ format: "email" }, { formatAssertion: true }).isValid("nope"), false);
  });
});

describe("validate and annotations options", () => {
  const v = compile({ type: "string" });
  test("an unknown output format is options_invalid, never undefined", () => {
    optionsInvalid(() => v.validate(1, { output: "details" as "detailed" }), /"output" must be one of flag, basic/);
  });
  test("an unknown validate option is options_invalid", () => {
    optionsInvalid(() => v.validate(1, { outputs: "flag" } as object), /unknown validate option "outputs"/);
    optionsInvalid(() => v.validate(1, "flag" as never), /plain object/);
  });
  test("every known output format answers", () => {
    for (const output of ["flag", "basic", "detailed", "verbose"] as const) {
      assert.equal(v.validate(1, { output }).valid, false);
      assert.equal(v.validate("x", { output }).valid, true);
    }
    assert.equal(v.validate(1, {}).valid, false);
    assert.equal(v.validate(1, { output: undefined }).valid, false);
  });
  test("annotations takes no options: any name is options_invalid", () => {
    optionsInvalid(() => v.annotations("x", { output: "basic" } as never), /unknown annotations option "output"/);
    assert.deepEqual(v.annotations("x", {}), []);
  });
});
