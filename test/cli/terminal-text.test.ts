import assert from "node:assert/strict";
import { test } from "node:test";
import { printable } from "../../src/cli/terminal-text.js";

test("controls, separators and invisible characters are written as JSON escapes; line feeds and text stay", () => {
  assert.equal(printable("a\x1b[2K\rb"), "a\\u001b[2K\\u000db");
  assert.equal(printable("\x9b31m\x7f\b\t\v\f"), "\\u009b31m\\u007f\\u0008\\u0009\\u000b\\u000c");
  assert.equal(printable("x\u2028y\u2029z\u0085"), "x\\u2028y\\u2029z\\u0085");
  assert.equal(printable("\u202eevil\u200b\u{e0041}"), "\\u202eevil\\u200b\\udb40\\udc41");
  assert.equal(printable("\ud800 lone"), "\\ud800 lone");
  assert.equal(printable("one\ntwo — “quoted” ✓ 日本 👍"), "one\ntwo — “quoted” ✓ 日本 👍");
});

test("an escaped string inside JSON text parses back to the original characters", () => {
  const original = { name: "t\x1b]0;x\x07\u202e\u{e0041}\u0085" };
  const text = printable(JSON.stringify(original));
  assert.ok(![...text].some((c) => c.codePointAt(0)! < 0x20 || (c >= "\x7f" && c <= "\x9f") || c === "\u202e"));
  assert.deepEqual(JSON.parse(text), original);
});
