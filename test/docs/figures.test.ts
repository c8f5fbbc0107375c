/**
 * The figures the documentation quotes that a script can recompute are recomputed and compared: the package's sizes
 * (docs/project/performance.md "Sizes", measured by scripts/size.mjs). A change that moves a size fails here until
 * `node scripts/size.mjs --write` (after a build) writes the new one.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";

interface Size {
  bytes: number;
  gzipped: number;
}

/** The size a row of the page's table states, by the start of its first cell. */
function quoted(page: string, start: string): Size {
  const row = page.split("\n").find((line) => line.startsWith(`| ${start}`));
  const match = row?.match(/\| ([0-9,]+) bytes \(([0-9,]+) gzipped\) \|$/);
  assert.ok(match, `docs/project/performance.md has no size row starting "${start}"`);
  const number = (text: string) => Number(text.replaceAll(",", ""));
  return { bytes: number(match[1] as string), gzipped: number(match[2] as string) };
}

test("the sizes docs/project/performance.md quotes are the sizes scripts/size.mjs measures now", () => {
  const outfile = join(repoRoot, "build", "browser", "figures.min.js");
  const measured = JSON.parse(
    execFileSync(process.execPath, [join(repoRoot, "scripts", "size.mjs"), "--json", outfile], { encoding: "utf8" }),
  ) as { browser: Size; vendored: Size };
  const page = readFileSync(join(repoRoot, "docs", "project", "performance.md"), "utf8");
  const hint = "run npm run build, then node scripts/size.mjs --write";
  assert.deepEqual(quoted(page, "the browser bundle"), measured.browser, `the browser bundle (${hint})`);
  assert.deepEqual(quoted(page, "`dist/vendor/"), measured.vendored, `the vendored file (${hint})`);
});

test("docs/reference/errors.md lists every code the library declares, as scripts/error-reference.mjs writes them", async () => {
  const script = join(repoRoot, "scripts", "error-reference.mjs");
  const { everyCode, withSection } = (await import(pathToFileURL(script).href)) as {
    everyCode: () => Promise<string>;
    withSection: (text: string, section: string) => string;
  };
  const page = readFileSync(join(repoRoot, "docs", "reference", "errors.md"), "utf8");
  assert.equal(page, withSection(page, await everyCode()), "run npm run build, then node scripts/error-reference.mjs --write");
});
