/**
 * The MCP provider checks its options in its constructor (docs/guide/integrations.md "MCP TypeScript SDK"), like every
 * other options object: an unknown name or a malformed value is a `SchemaError` `options_invalid` there, not a silent
 * default or a failure at call time.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SchemaError } from "../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";

const DRAFT_07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "string" };

function refusedBy(options: unknown, mentions: RegExp): void {
  assert.throws(
    () => new BackplaneJsonSchemaValidator(options as never),
    (e: unknown) =>
      e instanceof SchemaError && e.class === "validation" && e.code === "options_invalid" && mentions.test(e.message),
  );
}

describe("BackplaneJsonSchemaValidator options fail closed in the constructor", () => {
  test('draft07: "upgrad" does not silently mean reject', () => {
    refusedBy({ draft07: "upgrad" }, /BackplaneJsonSchemaValidator option "draft07" must be "reject" or "upgrade"/);
  });
  test("draft07: null does not silently mean upgrade", () => {
    refusedBy({ draft07: null }, /"draft07"/);
  });
  test("maxErrorsInMessage must be a positive integer", () => {
    for (const bad of [-1, 0, 1.5, "3", null]) refusedBy({ maxErrorsInMessage: bad }, /"maxErrorsInMessage"/);
  });
  test("a misspelt option is refused at once, with the near miss", () => {
    refusedBy(
      { formatAsertion: false },
      /unknown BackplaneJsonSchemaValidator option "formatAsertion".*"formatAssertion"/,
    );
  });
  test("a malformed compile option is refused at once", () => {
    refusedBy({ limits: { maxSchemaDepth: -1 } }, /"limits"/);
    refusedBy({ schemaRegistry: { "a.json": {} } }, /"schemaRegistry"/);
  });
  test("options that are not a plain object, or cannot be read, are refused", () => {
    refusedBy(null, /plain object/);
    refusedBy(
      {
        get draft07(): never {
          throw Object.create(null);
        },
      },
      /could not be read/,
    );
  });
  test("the options spelt right are honoured; undefined values count as absent", () => {
    const reject = new BackplaneJsonSchemaValidator({ draft07: "reject", maxErrorsInMessage: 1 });
    assert.match(reject.getValidator(DRAFT_07)("x").errorMessage!, /pass draft07: "upgrade"/);
    const upgrade = new BackplaneJsonSchemaValidator({ draft07: undefined, maxErrorsInMessage: undefined });
    assert.equal(upgrade.getValidator(DRAFT_07)("x").valid, true);
    const many = reject.getValidator({ type: "array", items: { type: "string" } })([1, 2]);
    assert.equal(many.errorMessage, '/0: must be string (expected by "type" at /items/type); and 1 more error');
  });
});
