/** The CLI's one-line rendering of any thrown value never throws (docs/project/security.md "What is guaranteed"). */

import assert from "node:assert/strict";
import { test } from "node:test";
import { describeError, errorCode } from "../../src/cli/args.js";
import { SchemaError } from "../../src/index.js";
import { THROWN } from "../runtime/hostile-values.js";

test("describeError and errorCode render every hostile thrown value as text, without throwing", () => {
  for (const [label, make] of THROWN) {
    const thrown = make();
    assert.equal(typeof describeError(thrown), "string", label);
    assert.doesNotThrow(() => errorCode(thrown), label);
  }
  assert.equal(describeError(Object.create(null)), "a thrown value that cannot be shown");
  assert.equal(describeError(Symbol("s")), "Symbol(s)");
});

test("the library's errors and ordinary errors keep their one-line form", () => {
  const e = new SchemaError({ class: "validation", code: "schema_invalid", message: "bad", schemaPointer: "/type" });
  assert.equal(describeError(e), 'validation/schema_invalid: bad (at schema "/type")');
  assert.equal(describeError(new TypeError("no\nway")), "TypeError: no way");
  assert.equal(errorCode(Object.assign(new Error("x"), { code: "ENOENT" })), "ENOENT");
});
