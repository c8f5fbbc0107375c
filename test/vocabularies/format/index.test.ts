import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCheckers } from "../../../src/vocabularies/format/index.js";

test("formatCheckers holds exactly the 2020-12 formats this library checks", () => {
  assert.deepEqual([...formatCheckers.keys()].sort(), [
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
  ]);
  assert.equal(formatCheckers.get("unknown"), undefined);
  for (const [name, { check }] of formatCheckers) {
    if (name !== "regex") assert.equal(check("\u0000"), false, name); // a NUL is a valid pattern character
  }
});
