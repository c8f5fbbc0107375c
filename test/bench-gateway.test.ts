/**
 * `npm run bench -- --only gateway` (docs/guide/gateway.md "Performance"): it runs on its own, with a trivial server
 * direct, behind the gateway and behind one bare stdio hop (the floor under any gateway), and reports the latencies,
 * what the gateway and the hop add and the gateway's memory per server; the
 * HTTP front's latency for a 2025-11-25 session and a 2026-07-28 (stateless) client; and the calls per second of one
 * replica and of two behind HAProxy (or why that part was skipped). Quick, and nothing here asserts a time: only that
 * every figure is measured and reported, and that no call of the throughput part failed.
 */

import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { join } from "node:path";
import { before, test } from "node:test";
import { repoRoot } from "./suite/locate.js";

interface Setup {
  perSecond?: number;
  failures?: number;
}
interface Figures {
  directUs?: { median?: number };
  gatewayUs?: { median?: number };
  addedUs?: { median?: number };
  hop?: { median?: number; addedMedian?: number };
  gatewayRssKiB?: Record<string, number>;
  http?: Record<string, { median?: number; p99?: number }>;
  throughput?: { skipped?: string; replica?: Setup; haproxy1?: Setup; haproxy2?: Setup };
}

// One quick run serves every test below.
let run: SpawnSyncReturns<string>;
let figures: Figures;
before(() => {
  run = spawnSync(process.execPath, [join(repoRoot, "bench", "run.mjs"), "--only", "gateway", "--quick"], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 300_000,
  });
  assert.equal(run.status, 0, run.stderr);
  figures = JSON.parse(run.stderr.trim().split("\n").at(-1) ?? "{}") as Figures;
});

/** A table row: the label, then `cells` cells each a whole number of µs (or "–", a figure the platform lacks). */
const row = (label: string, cells: number) =>
  new RegExp(`^\\| ${label.replace(/[().]/g, "\\$&")} \\|(?: (?:-?\\d+ µs|–) \\|){${cells}}$`, "m");

test("the gateway benchmark reports direct and gateway latency, what is added, and memory per server", () => {
  assert.match(run.stdout, /^## Gateway \(npm run bench -- --only gateway --quick\)$/m);
  for (const label of ["direct (client → server)", "through the gateway", "added by the gateway"]) {
    assert.match(run.stdout, row(label, 2));
  }
  for (const key of ["directUs", "gatewayUs", "addedUs"] as const)
    assert.ok(Number.isFinite(figures[key]?.median), key);
  assert.ok(Number.isFinite(figures.gatewayRssKiB?.["1"]));
  assert.ok(Number.isFinite(figures.hop?.median) && Number.isFinite(figures.hop?.addedMedian), "hop");
  assert.match(run.stdout, /^One more stdio hop and nothing else .* adding -?\d+ µs median/m);
  assert.match(run.stdout, /MiB per server/);
});

test("the gateway benchmark reports the HTTP front in both eras, and one replica against two", () => {
  assert.match(run.stdout, row("HTTP front, 2025-11-25 session (SDK 1.x client)", 6));
  assert.match(run.stdout, row("HTTP front, 2026-07-28 stateless (SDK 2.x client, auto mode)", 6));
  assert.match(run.stdout, /include the HTTP hop/);
  for (const era of ["http2025", "http2026"]) {
    assert.ok(Number.isFinite(figures.http?.[era]?.median) && Number.isFinite(figures.http?.[era]?.p99), era);
  }
  const throughput = figures.throughput ?? {};
  if (typeof throughput.skipped === "string") {
    assert.match(run.stdout, /one replica against two behind HAProxy: skipped \(.+\)/);
    return;
  }
  for (const setup of ["replica", "haproxy1", "haproxy2"] as const) {
    assert.ok((throughput[setup]?.perSecond ?? 0) > 0, setup);
    assert.equal(throughput[setup]?.failures, 0, setup);
  }
  for (const label of ["one replica, directly", "HAProxy → one replica", "HAProxy → two replicas"]) {
    assert.match(run.stdout, new RegExp(`^\\| ${label} \\| \\d+ \\|`, "m"));
  }
  assert.match(run.stdout, /two replicas against one, both behind HAProxy, ×\d/);
});
