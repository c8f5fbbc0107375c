/**
 * docs/reference/package.md "What the package entry exports" lists the API, the package entry's values: exactly the
 * names the module exports at run time (every other export is a type).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as entry from "../../src/index.js";
import { repoRoot } from "../suite/locate.js";

test("the values docs/reference/package.md lists are the package entry's values", () => {
  const page = readFileSync(join(repoRoot, "docs", "reference", "package.md"), "utf8");
  const start = page.indexOf("<!-- api-values:start -->");
  const end = page.indexOf("<!-- api-values:end -->");
  assert.ok(start !== -1 && end > start, "the page has its api-values markers");
  const listed = [...page.slice(start, end).matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]).sort();
  const exported = Object.keys(entry).sort();
  assert.deepEqual(listed, exported);
  assert.match(page, new RegExp(`its ${exported.length} values`));
});
