import assert from "node:assert/strict";
import { test } from "node:test";
import { LimitError } from "../../../src/engine/errors.js";
import { regex } from "../../../src/vocabularies/format/regex.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("regex", regex, {
  valid: [
    "",
    "^[a-z]+$",
    "([abc])+\\s+$",
    "(?<year>\\d{4})-\\k<year>",
    "(?<=a+)b",
    "\\p{Script=Greek}",
    "[^]",
    "\\u{1F600}",
    "a{2,3}?",
    "\\cA",
    "(?:x|y)*",
  ],
  invalid: [
    "(",
    "^(abc]",
    "\\a",
    "(?P<n>x)",
    "(?i)abc",
    "a{2,1}",
    "\\p{Nope}",
    "[z-a]",
    "\\k<missing>",
    "(?<n>a)(?<n>b)",
    "\\u{110000}",
  ],
  hostile: [
    ["(" + ")".repeat(MB), false],
    ["a".repeat(MB), true],
    ["(?:a+)+".repeat(MB / 7), true],
    ["[".repeat(MB), false],
  ],
});

test("regex: nesting deeper than the parser's bound is a limit, not a verdict", () => {
  assert.throws(
    () => regex("(".repeat(MB)),
    (e: unknown) => e instanceof LimitError && e.class === "execution_failure",
  );
});
