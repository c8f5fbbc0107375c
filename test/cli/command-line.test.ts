/** `--mcp "<command> [args…]"` is split into words as a POSIX shell would, without running one. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { CliError } from "../../src/cli/args.js";
import { splitCommandLine } from "../../src/cli/command-line.js";

test("words are separated by runs of whitespace", () => {
  assert.deepEqual(splitCommandLine("  npx  -y\t@modelcontextprotocol/server-memory \n"), [
    "npx",
    "-y",
    "@modelcontextprotocol/server-memory",
  ]);
});

test('single quotes are literal; double quotes keep \\" \\\\ \\$ \\` escapes; a backslash outside quotes escapes', () => {
  assert.deepEqual(splitCommandLine(`node '/a dir/s.js' "x \\"y\\" \\n" a\\ b 'it'\\''s' ""`), [
    "node",
    "/a dir/s.js",
    'x "y" \\n',
    "a b",
    "it's",
    "",
  ]);
});

test("nothing is expanded or interpreted", () => {
  assert.deepEqual(splitCommandLine("server $HOME ~ *.json ; rm -rf / | cat > x"), [
    "server",
    "$HOME",
    "~",
    "*.json",
    ";",
    "rm",
    "-rf",
    "/",
    "|",
    "cat",
    ">",
    "x",
  ]);
});

test("an unterminated quote or an empty command is a usage error", () => {
  assert.throws(
    () => splitCommandLine(`node "x`),
    (e) => e instanceof CliError && /unterminated " quote/.test(e.message),
  );
  assert.throws(
    () => splitCommandLine("node 'x"),
    (e) => e instanceof CliError && /unterminated ' quote/.test(e.message),
  );
  assert.throws(
    () => splitCommandLine("   "),
    (e) => e instanceof CliError && e.exitCode === 2,
  );
});
