/**
 * `npm run bench -- --only gateway` (docs/guide/gateway.md "Performance"): it runs on its own, with a trivial server
 * direct and behind the gateway, and reports both latencies, what the gateway adds and its memory per server. Quick,
 * and nothing here asserts a time: only that every figure is measured and reported.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./suite/locate.js";

test("the gateway benchmark reports direct and gateway latency, what is added, and memory per server", () => {
  const run = spawnSync(process.execPath, [join(repoRoot, "bench", "run.mjs"), "--only", "gateway", "--quick"], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 300_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^## Gateway \(npm run bench -- --only gateway --quick\)$/m);
  for (const row of ["direct (client → server)", "through the gateway", "added by the gateway"]) {
    assert.match(run.stdout, new RegExp(`^\\| ${row.replace(/[()]/g, "\\$&")} \\| -?\\d+ µs \\| -?\\d+ µs \\|$`, "m"));
  }
  const figures = JSON.parse(run.stderr.trim().split("\n").at(-1) ?? "{}") as Record<string, Record<string, number>>;
  for (const key of ["directUs", "gatewayUs", "addedUs"]) assert.ok(Number.isFinite(figures[key]?.["median"]), key);
  assert.ok(Number.isFinite(figures["gatewayRssKiB"]?.["1"]));
  assert.match(run.stdout, /MiB per server/);
});
