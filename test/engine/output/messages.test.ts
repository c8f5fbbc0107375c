/** Messages for people: `keyword` and `params` on output units, the `messages` renderer, `errorsText`. */

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  compareInstanceLocations,
  compile,
  errorsText,
  SchemaError,
  type MessageInput,
  type OutputUnit,
} from "../../../src/index.js";

const schema = {
  type: "object",
  required: ["name", "tags"],
  properties: {
    name: { type: "string", maxLength: 3 },
    tags: { type: "array", items: { enum: ["a", "b"] } },
    size: { type: "integer", minimum: 1 },
  },
};

test("every failing unit of basic, detailed and verbose output carries its keyword and typed params", () => {
  const v = compile(schema);
  const instance = { name: "toolong", size: 0 };
  const basic = v.validate(instance);
  assert.equal(basic.valid, false);
  if (basic.valid) return;
  assert.deepEqual(
    basic.errors.map((e) => [e.instanceLocation, e.keyword, e.params]),
    [
      ["", "required", { missing: ["tags"] }],
      ["/name", "maxLength", { limit: 3 }],
      ["/size", "minimum", { limit: 1 }],
    ],
  );
  const failing = (unit: OutputUnit, into: OutputUnit[] = []): OutputUnit[] => {
    if (unit.error !== undefined) into.push(unit);
    for (const child of unit.errors ?? []) failing(child, into);
    return into;
  };
  for (const output of ["detailed", "verbose"] as const) {
    const units = failing(v.validate(instance, { output }) as OutputUnit);
    assert.deepEqual(units.map((u) => u.keyword).sort(), ["maxLength", "minimum", "required"], output);
    for (const u of units) assert.ok(u.params !== undefined, `${output}: ${u.keywordLocation} has params`);
  }
  const typed = v.validate({ name: 5, tags: [] });
  assert.equal(typed.valid, false);
  if (!typed.valid)
    assert.deepEqual(typed.errors[0]?.params, { expected: ["string"], actual: "number" }, "type: the actual type");
  const enumFailure = v.validate({ name: "ab", tags: ["c"] });
  assert.equal(enumFailure.valid, false);
  if (!enumFailure.valid)
    assert.deepEqual(enumFailure.errors[0]?.params, { allowed: ["a", "b"] }, "enum: the allowed values");
});

test("a keyword without parameters of its own still carries params, {}", () => {
  const out = compile({ not: { type: "string" } }).validate("x");
  assert.equal(out.valid, false);
  if (!out.valid) assert.deepEqual([out.errors[0]?.keyword, out.errors[0]?.params], ["not", {}]);
  const never = compile(false).validate(1);
  assert.equal(never.valid, false);
  if (!never.valid) assert.deepEqual([never.errors[0]?.keyword, never.errors[0]?.params], ["false", {}]);
});

const french = (f: MessageInput): string | undefined => {
  switch (f.keyword) {
    case "required":
      return `propriétés manquantes : ${(f.params.missing ?? []).join(", ")}`;
    case "maxLength":
      return `au plus ${f.params.limit} caractères (reçu ${JSON.stringify(f.instance)})`;
    default:
      return undefined;
  }
};

test("the messages option renders failing keywords' messages; undefined keeps the engine's", () => {
  const seen: MessageInput[] = [];
  const v = compile(schema, {
    messages: (f) => {
      seen.push(f);
      return french(f);
    },
  });
  const out = v.validate({ name: "toolong", size: 0 });
  assert.equal(out.valid, false);
  if (out.valid) return;
  assert.deepEqual(
    out.errors.map((e) => e.error),
    ["propriétés manquantes : tags", 'au plus 3 caractères (reçu "toolong")', "must be at least 1, got 0"],
  );
  const maxLength = seen.find((f) => f.keyword === "maxLength");
  assert.deepEqual(maxLength && { ...maxLength }, {
    keyword: "maxLength",
    params: { limit: 3 },
    instance: "toolong",
    instanceLocation: "/name",
    keywordLocation: "/properties/name/maxLength",
    absoluteKeywordLocation: "urn:backplane-agent-runtime:schema#/properties/name/maxLength",
    message: "must be at most 3 characters long, got 7",
  });
  assert.equal(v.isValid({ name: "toolong" }), false, "the boolean path renders nothing");
  assert.equal(seen.length, 3, "rendered once per failing keyword, by the output path only");
});

test("a renderer that throws or answers a non-string is an execution_failure", () => {
  const thrown = new Error("no translations");
  const throwing = compile(
    { type: "string" },
    {
      messages: () => {
        throw thrown;
      },
    },
  );
  assert.equal(throwing.isValid("x"), true);
  assert.throws(
    () => throwing.validate(1),
    (e: unknown) =>
      e instanceof SchemaError && e.class === "execution_failure" && e.code === "messages_failed" && e.cause === thrown,
  );
  const numeric = compile({ type: "string" }, { messages: (() => 42) as never });
  assert.throws(
    () => numeric.validate(1),
    (e: unknown) =>
      e instanceof SchemaError && e.code === "messages_failed" && /answered a number, not a string/.test(e.message),
  );
  assert.throws(
    () => compile({}, { messages: "fr" as never }),
    (e: unknown) => e instanceof SchemaError && e.code === "options_invalid",
  );
});

test("instance locations order token by token, array indices as numbers", () => {
  const sorted = ["/b", "/a/10", "", "/a/2", "/a", "/a/b", "/a/02", "/10", "/9"].sort(compareInstanceLocations);
  assert.deepEqual(
    sorted,
    ["", "/10", "/9", "/a", "/a/02", "/a/2", "/a/10", "/a/b", "/b"].sort(compareInstanceLocations),
  );
  assert.deepEqual(sorted, ["", "/9", "/10", "/a", "/a/02", "/a/2", "/a/10", "/a/b", "/b"]);
});

test("errorsText renders an error list in instance order, one line each", () => {
  const v = compile({ type: "array", items: { type: "object", required: ["id"] }, maxItems: 2 });
  const instance = Array.from({ length: 12 }, (_, i) => (i === 2 || i === 10 ? {} : { id: i }));
  const out = v.validate(instance);
  assert.equal(out.valid, false);
  assert.equal(
    errorsText(out),
    [
      "(root): must have at most 2 items, got 12",
      '/2: must have required property "id"',
      '/10: must have required property "id"',
    ].join("\n"),
  );
  assert.equal(
    errorsText(out.valid ? [] : out.errors, { separator: "; ", root: "arguments" }).split("; ")[0],
    "arguments: must have at most 2 items, got 12",
  );
  const detailed = v.validate(instance, { output: "detailed" });
  assert.equal(errorsText(detailed), errorsText(out), "the detailed tree gives the same lines");
  assert.equal(errorsText(v.validate([])), "", "a valid output has no lines");
});
