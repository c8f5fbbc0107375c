/**
 * The vendored single-file build (`dist/vendor/backplane-agent-runtime.js`, written by `npm run build`):
 * the whole required official 2020-12 suite through it, the licences of what it inlines, and no generated code.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { jsonFiles, locateSuite, remotes, repoRoot } from "../suite/locate.js";
import { runSuiteFiles, type Library } from "../suite/runner.js";

const file = join(repoRoot, "dist", "vendor", "backplane-agent-runtime.js");
const vendored = (await import(pathToFileURL(file).href)) as Library;

const suite = locateSuite();
const tests = join(suite, "tests", "draft2020-12");
runSuiteFiles(tests, jsonFiles(tests, false), { options: { schemaRegistry: remotes(suite) }, library: vendored });

test("the vendored file imports nothing, generates no code, and opens with the licence of everything it inlines", () => {
  const code = readFileSync(file, "utf8");
  assert.doesNotMatch(code, /^\s*import\b|\bimport\s*\(|\brequire\s*\(/m, "no import or require: one file");
  assert.doesNotMatch(code, /\bnew Function\s*\(|\beval\s*\(/, "no generated code");
  const banner = code.slice(0, code.indexOf("*/"));
  for (const [name, dir, licence] of [
    ["backplane-agent-runtime", ".", "LICENSE"],
    ["punycode", "node_modules/punycode", "LICENSE-MIT.txt"],
  ] as const) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as { version: string };
    assert.ok(banner.includes(` * ${name} ${manifest.version}\n`), `${name} ${manifest.version} is named`);
    for (const line of readFileSync(join(repoRoot, dir, licence), "utf8")
      .trim()
      .split("\n")) {
      assert.ok(banner.includes(` * ${line}`.trimEnd()), `${name}'s licence: "${line}"`);
    }
  }
});
