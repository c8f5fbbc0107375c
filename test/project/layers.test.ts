/**
 * The dependency rule that keeps the runtime's folders in the order data flows (.dependency-cruiser.cjs, run by
 * `npm run lint`): a folder that imports one above it fails, and the source as it is passes.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";

const depcruise = join(repoRoot, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const config = join(repoRoot, ".dependency-cruiser.cjs");

/** The rule names dependency-cruiser reports for the tree at `cwd` (its `src`). */
function violations(cwd: string): string[] {
  const out = execFileSync(process.execPath, [depcruise, "--config", config, "--output-type", "json", "src"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(out) as { summary: { violations: { rule: { name: string } }[] } };
  return report.summary.violations.map((v) => v.rule.name);
}

test("a runtime folder that imports a folder above it breaks the rule", () => {
  const dir = mkdtempSync(join(tmpdir(), "layers-"));
  try {
    const file = (path: string, text: string) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    file("tsconfig.json", JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }));
    file("src/runtime/admission/bundle.ts", 'import { ok } from "../errors/result.js";\nexport const bundle = ok;\n');
    file("src/runtime/errors/result.ts", "export const ok = 1;\n");
    file(
      "src/runtime/errors/upward.ts",
      'import { bundle } from "../admission/bundle.js";\nexport const up = bundle;\n',
    );
    file("src/runtime/boundary/fine.ts", 'import { ok } from "../errors/result.js";\nexport const fine = ok;\n');
    assert.deepEqual(violations(dir), ["runtime-errors-imports-downwards"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the source keeps the rule", () => {
  assert.deepEqual(violations(repoRoot), []);
});
