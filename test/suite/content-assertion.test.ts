/**
 * content.json under `contentAssertion: true`. The suite states the annotation-only verdicts and marks
 * each test that only annotation lets through with "; validates true": with assertion on, exactly
 * those must be invalid, and every other test keeps its verdict.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compile } from "../../src/index.js";
import { locateSuite } from "./locate.js";
import { readCases } from "./runner.js";

/**
 * Tests whose description lacks the marker although assertion must reject them, with the reason.
 * Listed so the rule above stays the suite's own words everywhere else.
 */
const unmarked = new Map<string, string>([
  [
    "validation of binary-encoded media type documents with schema::an empty array as a base64-encoded JSON document",
    "the decoded value [] is not an object, so contentSchema ({type: object, required: [foo]}) rejects it once asserted (Validation §8.5)",
  ],
]);

const file = join(locateSuite(), "tests", "draft2020-12", "content.json");

describe("content.json with contentAssertion: true", () => {
  for (const c of readCases(file)) {
    describe(c.description, () => {
      const validator = compile(c.schema, { contentAssertion: true });
      for (const t of c.tests) {
        const expected =
          t.description.endsWith("; validates true") || unmarked.has(`${c.description}::${t.description}`)
            ? false
            : t.valid;
        test(t.description, () => {
          assert.equal(validator.isValid(t.data), expected);
          assert.equal(validator.validate(t.data).valid, expected);
        });
      }
    });
  }
});

test("content assertion never decodes or changes the instance", () => {
  const instance = { doc: "eyJmb28iOiAiYmFyIn0K" };
  const v = compile(
    {
      properties: {
        doc: { contentEncoding: "base64", contentMediaType: "application/json", contentSchema: { required: ["foo"] } },
      },
    },
    { contentAssertion: true },
  );
  assert.equal(v.isValid(instance), true);
  assert.deepEqual(instance, { doc: "eyJmb28iOiAiYmFyIn0K" });
});

test("strict base64: alphabet, padding and length", () => {
  const v = compile({ contentEncoding: "base64" }, { contentAssertion: true });
  for (const ok of ["", "QQ==", "QUI=", "QUJD", "Pz8/"]) assert.equal(v.isValid(ok), true, ok);
  for (const bad of ["QQ", "QQ=", "Q===", "QU=I", "QUJD\n", "QUJ-", "QUJ_", "=QUJ"])
    assert.equal(v.isValid(bad), false, bad);
});
