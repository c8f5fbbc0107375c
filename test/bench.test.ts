/**
 * `npm run bench` (README "Performance") without the shared reference data: the workloads that need it are skipped,
 * each with one line saying why, and the rest runs. Quick and restricted to one tiny workload, so it stays fast.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./suite/locate.js";

interface BenchResults {
  skipped: { workload: string; reason: string }[];
  steady: Record<string, { results: Record<string, { ns: number; ratio: number | null }> }>;
}

function bench(args: string[]) {
  const result = spawnSync(process.execPath, [join(repoRoot, "bench", "run.mjs"), ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      ...process.env,
      BENCH_SHARED: join(tmpdir(), "bench-shared-nonexistent"),
      // the engine as tsconfig.test.json compiles it, so the test does not depend on a dist/ build
      BENCH_ENGINE: join(repoRoot, "build", "src", "index.js"),
    },
  });
  if (result.error !== undefined) throw result.error;
  return result;
}

test("without ../shared the bench skips the corpus and OpenAPI workloads, naming each, and runs the rest", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-test-"));
  try {
    const out = join(dir, "results.json");
    const run = bench(
      ["--quick", "--regime", "steady", "--only", "required-500,mcp-corpus,admit-corpus,openapi"].concat([
        "--out",
        out,
      ]),
    );
    assert.equal(run.status, 0, run.stderr);
    for (const name of ["mcp-corpus", "admit-corpus", "openapi"]) {
      assert.match(run.stderr, new RegExp(`^- ${name}: skipped \\(.*bench-shared-nonexistent.*not found\\)$`, "m"));
    }
    const results = JSON.parse(readFileSync(out, "utf8")) as BenchResults;
    assert.deepEqual(results.skipped.map((s) => s.workload).sort(), ["admit-corpus", "mcp-corpus", "openapi"]);
    assert.deepEqual(Object.keys(results.steady), ["required-500"]);
    const measured = results.steady["required-500"]?.results ?? {};
    assert.ok((measured["ours"]?.ns ?? 0) > 0, "ours was timed");
    assert.equal(measured["ajv"]?.ratio, 1, "ajv is the baseline");
    assert.match(run.stdout, /^\| required-500 \| validation \| /m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an unknown workload name is refused with the list of known ones", () => {
  const run = bench(["--only", "no-such-workload"]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--only takes a comma-separated list of: suite, compile, .*required-500/);
});
