/** The published package: what `npm pack` ships, and the root export resolving to the built output. */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./suite/locate.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

test("npm pack ships only the built output, types, README, LICENSE and CHANGELOG", () => {
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
  const allowed = /^(dist\/.+\.(js|d\.ts)|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
  assert.deepEqual(
    files.filter((f) => !allowed.test(f)),
    [],
  );
  for (const required of ["README.md", "LICENSE", "CHANGELOG.md", "package.json"])
    assert.ok(files.includes(required), required);
  assert.ok(!files.some((f) => f.startsWith("dist/main.")), "the main job is not part of the library");
});

test('import { compile } from "backplane-agent-runtime" resolves through exports to the built output', async (t) => {
  if (!existsSync(join(repoRoot, "dist", "index.js"))) {
    t.skip("dist/ is not built (run npm run build; CI builds before testing)");
    return;
  }
  // The specifiers are variables so type-checking does not depend on a build.
  const root = "backplane-agent-runtime";
  const pkg = (await import(root)) as { compile(schema: unknown): { isValid(i: unknown): boolean } };
  assert.equal(pkg.compile({ type: "string" }).isValid("x"), true);
  assert.equal(pkg.compile({ type: "string" }).isValid(1), false);
  const sub = `${root}/mcp`;
  const mcp = (await import(sub)) as Record<string, unknown>;
  assert.ok(Object.keys(mcp).length > 0);
});
