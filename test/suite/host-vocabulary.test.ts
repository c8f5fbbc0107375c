/**
 * The required suite with a host vocabulary in force: every schema that declares the 2020-12 dialect is compiled
 * under a custom meta-schema whose `$vocabulary` replaces the standard validation vocabulary with a host one, the
 * same keywords but `minLength` re-implemented through the public keyword protocol. Every test must still pass, and
 * the host's `minLength` must be the one that ran.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { after } from "node:test";
import { assertion, type KeywordDefinition } from "../../src/index.js";
import { validation } from "../../src/vocabularies/validation/index.js";
import { jsonFiles, locateSuite, remotes } from "./locate.js";
import { runSuiteFiles } from "./runner.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";
const HOST = "https://example.test/vocab/validation";
const META = "https://example.test/meta/host-validation";

let evaluations = 0;

function codePointCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `minLength` (Validation §6.3.2) as a host writes it: a string's length in code points is at least the value. */
const minLength: KeywordDefinition = {
  keyword: "minLength",
  compile(value, ctx) {
    if (!Number.isInteger(value) || (value as number) < 0) ctx.fail("minLength", "must be a non-negative integer");
    const limit = value as number;
    return assertion(
      "minLength",
      (instance, run) => {
        if (typeof instance !== "string") return true;
        evaluations++;
        run.string(instance);
        run.spend(instance.length);
        return codePointCount(instance) >= limit;
      },
      (instance) => ({
        message: `must be at least ${limit} characters long, got ${codePointCount(instance as string)}`,
        params: { limit },
      }),
    );
  },
};

const hostValidation = validation.filter((k) => k.keyword !== "minLength").concat([minLength]);
assert.equal(hostValidation.length, validation.length, "the validation vocabulary defines minLength");

const standard = ["core", "applicator", "unevaluated", "meta-data", "format-annotation", "content"];
const metaSchema = {
  $schema: DIALECT,
  $id: META,
  $dynamicAnchor: "meta",
  $vocabulary: { ...Object.fromEntries(standard.map((v) => [VOCAB + v, true])), [HOST]: true },
  allOf: [{ $ref: DIALECT }],
};

const suite = locateSuite();
const tests = join(suite, "tests", "draft2020-12");
let rewritten = 0;

runSuiteFiles(tests, jsonFiles(tests, false), {
  options: {
    schemaRegistry: new Map([...remotes(suite), [META, metaSchema]]),
    vocabularies: [{ uri: HOST, keywords: hostValidation }],
  },
  // Only a root that declares the standard dialect moves to the custom one; other dialects are the case's own.
  prepare: (schema) => {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
    const root = schema as Record<string, unknown>;
    if (root["$schema"] !== DIALECT) return schema;
    rewritten++;
    return { ...root, $schema: META };
  },
});

after(() => {
  assert.ok(rewritten > 350, `cases under the host meta-schema: ${rewritten}`);
  assert.ok(evaluations > 0, "the host's minLength evaluated strings");
});
