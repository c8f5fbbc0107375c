/**
 * `npm run bench` (docs/project/performance.md) without the shared reference data: the workloads that need it are
 * skipped, each with one line saying why, and the rest runs; the mixed-host regime times its workloads in processes
 * that have exercised all of them first. Quick and restricted to a few small workloads, so it stays fast.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { compile } from "../src/index.js";
import { repoRoot } from "./suite/locate.js";

interface Timed {
  ns: number;
  ratio: number | null;
  nsPerProperty?: number;
}

interface Hot {
  description: string;
  calls: { valid: number; invalid: number };
  declaredProperties?: number;
  results: Record<string, Timed>;
}

interface BenchResults {
  regimes: string[];
  clock: string;
  settings: { warmCalls: number; longWarmCalls: number };
  skipped: { workload: string; reason: string }[];
  steady: Record<string, Hot>;
  long: Record<string, Hot & { results: Record<string, Timed & { warmCallsPerFunction: number }> }>;
  rotating?: Record<string, Hot>;
  cold: Record<string, unknown>;
  mixed: Record<string, Hot>;
  mixedHost: { workloads: string[]; libraries: Record<string, { prepareSeconds?: number; error?: string }> } | null;
}

function bench(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(repoRoot, "bench", "run.mjs"), ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      ...process.env,
      ...env,
      BENCH_SHARED: join(tmpdir(), "bench-shared-nonexistent"),
      // the engine as tsconfig.test.json compiles it, so the test does not depend on a dist/ build
      BENCH_ENGINE: join(repoRoot, "build", "src", "index.js"),
    },
  });
  if (result.error !== undefined) throw result.error;
  return result;
}

/** Runs the bench with `args` and `--out` into a fresh directory; returns the process and the JSON it wrote. */
function benchWithResults(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bench-test-"));
  try {
    const out = join(dir, "results.json");
    const run = bench([...args, "--out", out], env);
    assert.equal(run.status, 0, run.stderr);
    return { run, results: JSON.parse(readFileSync(out, "utf8")) as BenchResults };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("without ../shared the bench skips the corpus and OpenAPI workloads, naming each, and runs the rest", () => {
  const only = "required-500,mcp-corpus,mcp-corpus-valid,admit-corpus,openapi";
  const { run, results } = benchWithResults(["--quick", "--regime", "steady", "--only", only]);
  const needShared = ["mcp-corpus", "mcp-corpus-valid", "admit-corpus", "openapi"];
  for (const name of needShared) {
    assert.match(run.stderr, new RegExp(`^- ${name}: skipped \\(.*bench-shared-nonexistent.*not found\\)$`, "m"));
  }
  assert.deepEqual(results.skipped.map((s) => s.workload).sort(), needShared.sort());
  assert.deepEqual(Object.keys(results.steady), ["required-500"]);
  const measured = results.steady["required-500"]?.results ?? {};
  assert.ok((measured["ours"]?.ns ?? 0) > 0, "ours was timed");
  assert.equal(measured["ajv"]?.ratio, 1, "ajv is the baseline");
  assert.match(run.stdout, /^\| required-500 \| validation \| /m);
  assert.deepEqual(results.cold, {});
  assert.deepEqual(results.mixed, {});
  assert.equal(results.mixedHost, null);
  assert.match(run.stdout, /^- CPU model: .+; \d+ cores$/m);
  assert.match(run.stdout, /^- Node v\d+\.\d+\.\d+ /m);
  assert.match(run.stdout, /^- load average \(1 \/ 5 \/ 15 min\): [\d.]+ .* at the start, [\d.]+ .* at the end$/m);
});

test("the mixed host times each workload in processes that have compiled and warmed all of them first", () => {
  const { run, results } = benchWithResults([
    "--quick",
    "--regime",
    "mixed",
    "--only",
    "shape-50-required,catalogs-valid",
  ]);
  assert.deepEqual(results.regimes, ["mixed"]);
  assert.deepEqual(results.steady, {});
  const order = ["catalogs-valid", "shape-50-required"]; // the workloads' order, not --only's
  assert.deepEqual(Object.keys(results.mixed), order);
  assert.deepEqual(results.mixedHost?.workloads, order);
  const hosts = results.mixedHost?.libraries ?? {};
  assert.ok(Object.hasOwn(hosts, "ours") && Object.hasOwn(hosts, "ajv"), "one host per library");
  for (const [lib, host] of Object.entries(hosts)) {
    assert.ok((host.prepareSeconds ?? 0) > 0, `${lib}'s host was set up: ${host.error}`);
  }
  for (const name of order) {
    const measured = results.mixed[name]?.results ?? {};
    assert.ok((measured["ours"]?.ns ?? 0) > 0, `ours was timed on ${name}`);
    assert.equal(measured["ajv"]?.ratio, 1, "ajv is the baseline");
  }
  assert.match(run.stdout, /^## Mixed host$/m);
  assert.doesNotMatch(run.stdout, /^## (Steady state|Cold)$/m);

  const valid = results.mixed["catalogs-valid"];
  assert.equal(valid?.calls.invalid, 0);
  assert.ok((valid?.calls.valid ?? 0) > 0);
  assert.match(valid?.description ?? "", /, all valid\)$/);
  assert.equal(valid?.results["ours"]?.nsPerProperty, undefined, "only the counted shapes give a time per property");
  assert.match(run.stdout, /^\| catalogs-valid \| validation \| [\d.]+ (ns|µs|ms) \([\d.]+×\) \|/m);

  const shape = results.mixed["shape-50-required"];
  assert.equal(shape?.declaredProperties, 50);
  const ours = shape?.results["ours"];
  assert.equal(ours?.nsPerProperty, (ours?.ns ?? NaN) / 50);
  assert.match(run.stdout, /^\| shape-50-required \| validation \| [^|]+ per property\) \|/m);
});

test("the rotating call site times 8 compiled copies of each schema behind one call site, beside a baseline build", () => {
  const { run, results } = benchWithResults(["--quick", "--regime", "rotating", "--only", "shape-closed-mcp"], {
    BENCH_BASELINE: join(repoRoot, "build", "src", "index.js"),
  });
  assert.deepEqual(results.regimes, ["rotating"]);
  assert.deepEqual(results.steady, {});
  const measured = results.rotating?.["shape-closed-mcp"]?.results ?? {};
  for (const lib of ["ours", "baseline", "ajv"]) assert.ok((measured[lib]?.ns ?? 0) > 0, `${lib} was timed`);
  assert.equal(measured["ajv"]?.ratio, 1, "ajv is the baseline of the ratios");
  assert.match(run.stdout, /^## Rotating call site$/m);
  assert.match(run.stdout, /^- baseline: backplane-agent-runtime from .*build\/src\/index\.js/m);
});

test("an unknown regime is refused with the list of regimes", () => {
  const run = bench(["--regime", "warm"]);
  assert.equal(run.status, 2);
  assert.match(
    run.stderr,
    /--regime takes steady, rotating, long, cold, mixed, host \(steady and long\), both \(steady and cold\) or all/,
  );
});

test("an unknown workload name is refused with the list of known ones", () => {
  const run = bench(["--only", "no-such-workload"]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--only takes a comma-separated list of: suite, compile, .*required-500/);
});

test('BENCH_JSON_RULE=1 adds "ajv+json": ajv, then the rule for values that are not JSON data', () => {
  const { run, results } = benchWithResults(["--quick", "--regime", "steady", "--only", "shape-required"], {
    BENCH_JSON_RULE: "1",
  });
  const measured = results.steady["shape-required"]?.results ?? {};
  for (const lib of ["ours", "ajv", "ajv+json"]) assert.ok((measured[lib]?.ns ?? 0) > 0, `${lib} was timed`);
  assert.match(run.stdout, /^- ajv\+json: ajv as above, then bench\/json-rule\.mjs/m);
});

test("the bench's JSON rule answers as the library's rule does (under the empty schema)", async () => {
  const url = pathToFileURL(join(repoRoot, "bench", "json-rule.mjs")).href;
  const { isJsonData } = (await import(url)) as { isJsonData: (value: unknown) => boolean };
  const any = compile({});
  const cycle: Record<string, unknown> = { a: 1 };
  cycle["self"] = { down: [cycle] };
  let deep: unknown = cycle;
  for (let i = 0; i < 400; i++) deep = [deep];
  let deepOk: unknown = { end: true };
  for (let i = 0; i < 400; i++) deepOk = { next: deepOk };
  // A hole, made without a sparse literal.
  const holed: unknown[] = [1];
  holed[2] = 3;
  const nullProto = Object.create(null) as Record<string, unknown>;
  nullProto["x"] = [1, "y", null, false];
  const values: unknown[] = [
    "s",
    0,
    -1.5,
    true,
    null,
    [],
    {},
    { a: [1, { b: "c" }] },
    nullProto,
    JSON.parse('{"__proto__": {"a": 1}}'),
    NaN,
    Infinity,
    undefined,
    10n,
    Symbol("s"),
    () => 1,
    new Date(0),
    new Map(),
    { a: undefined },
    holed,
    { a: [NaN] },
    cycle,
    deep,
    deepOk,
    { [Symbol("k")]: undefined, a: 1 },
  ];
  for (const [i, value] of values.entries()) {
    assert.equal(isJsonData(value), any.isValid(value), `value ${i}`);
  }
  // The fixtures cover both answers.
  assert.ok(values.some((v) => isJsonData(v)) && values.some((v) => !isJsonData(v)));
});

test("the boundary workloads time InputSchema.validate, for this library's builds only", async () => {
  const bench = (file: string) => import(pathToFileURL(join(repoRoot, "bench", file)).href);
  const { loadPeers } = (await bench("peers.mjs")) as {
    loadPeers: (remotes: Map<string, unknown>, log: (line: string) => void, names: string[]) => Promise<unknown[]>;
  };
  const { checkedValidators } = (await bench("prepare.mjs")) as {
    checkedValidators: (peer: unknown, cases: unknown[]) => Promise<((args: unknown) => boolean)[]>;
  };
  const { boundaryCases } = (await bench("workloads/mcp.mjs")) as {
    boundaryCases: (corpus: unknown[], engine: unknown, log: (line: string) => void) => { id: string }[];
  };
  const lines: string[] = [];
  // The engine as tsconfig.test.json compiles it, as for the runs above.
  process.env["BENCH_ENGINE"] = join(repoRoot, "build", "src", "index.js");
  const [ours, ajv] = await loadPeers(new Map(), (line) => lines.push(line), ["ours", "ajv"]);
  // Without `type`, `compile` accepts an array; the boundary does not: arguments are an object.
  const corpus = [
    {
      id: "t",
      schema: { required: ["a"] },
      tests: [
        { data: { a: 1 }, valid: true },
        { data: { b: 1 }, valid: false },
      ],
    },
    { id: "any", schema: {}, tests: [{ data: [1], valid: true }] },
  ];
  const cases = boundaryCases(corpus, await import("../src/index.js"), (line) => lines.push(line));
  assert.deepEqual(
    cases.map((c) => c.id),
    ["t"],
  );
  assert.match(lines.join("\n"), /dropped: 1 a call answered invalid \(any\)/);
  const [check] = await checkedValidators(ours, cases);
  assert.equal(check?.({ a: 1 }), true);
  assert.equal(check?.([1]), false, "the boundary's rule, not compile's");
  await assert.rejects(checkedValidators(ajv, cases), /no tool-call boundary \(InputSchema\) to time/);
});

test("the host regime times steady state beside the long warm-up, each validator warmed with its own count", () => {
  const { run, results } = benchWithResults(["--quick", "--regime", "host", "--only", "catalogs-valid"]);
  assert.deepEqual(results.regimes, ["steady", "long"]);
  assert.equal(results.clock, "cpu", "CPU time unless BENCH_CLOCK=wall");
  const { warmCalls, longWarmCalls } = results.settings;
  assert.ok(longWarmCalls > warmCalls);
  const short = results.steady["catalogs-valid"]?.results ?? {};
  const long = results.long["catalogs-valid"]?.results ?? {};
  for (const lib of ["ours", "ajv"]) {
    assert.ok((short[lib]?.ns ?? 0) > 0 && (long[lib]?.ns ?? 0) > 0, `${lib} was timed in both`);
    assert.ok((long[lib]?.warmCallsPerFunction ?? 0) >= longWarmCalls, `${lib} got the long warm-up`);
  }
  assert.match(run.stdout, /^## Long warm-up$/m);
  assert.match(run.stdout, /^- hot regimes timed by the process's CPU time/m);
  assert.match(
    run.stdout,
    /^\| catalogs-valid \| [\d.]+ (ns|µs) → [\d.]+ (ns|µs) \([\d.]+×; [\d.]+× → [\d.]+× ajv\) \|/m,
  );
});

test("the hot set and the tool counts rotate their tools; the gateway's three ways answer each call alike", async () => {
  const bench = (file: string) => import(pathToFileURL(join(repoRoot, "bench", file)).href);
  const { spreadTools } = (await bench("workloads/hot.mjs")) as {
    spreadTools: (corpus: { id: string }[], count: number) => { id: string }[];
  };
  const corpus = ["a", "b", "c", "d", "e"].map((id) => ({ id }));
  assert.deepEqual(
    spreadTools(corpus, 2).map((c) => c.id),
    ["a", "c"],
    "spread over the corpus",
  );
  assert.deepEqual(
    spreadTools(corpus, 7).map((c) => c.id),
    ["a", "b", "c", "d", "e", "a (copy 1)", "b (copy 1)"],
    "copies past its size",
  );
  const { interleave } = (await bench("prepare.mjs")) as {
    interleave: (cases: unknown[], pair: (c: unknown, i: number, t: { data: unknown }) => unknown) => unknown[];
  };
  const cases = [
    {
      id: "t",
      schema: { type: "object", required: ["a"] },
      tests: [
        { data: { a: 1 }, valid: true },
        { data: {}, valid: false },
      ],
    },
    {
      id: "u",
      schema: { type: "object", properties: { b: { type: "string" } } },
      tests: [{ data: { b: "x" }, valid: true }],
    },
  ];
  assert.deepEqual(
    interleave(cases, (_c, i, t) => [i, t.data]),
    [
      [0, { a: 1 }],
      [1, { b: "x" }],
      [0, {}],
    ],
    "each tool's first call, then each one's second",
  );
  const { invokeWays } = (await bench("invoke.mjs")) as {
    invokeWays: (
      engine: unknown,
      cases: unknown[],
      order: typeof interleave,
    ) => { suffix: string; async: boolean; fns: ((x: unknown) => unknown)[]; args: unknown[] }[];
  };
  const ways = invokeWays(await import("../src/index.js"), cases, interleave);
  assert.deepEqual(
    ways.map((w) => w.suffix),
    ["", " isValid+host", " isValid"],
  );
  for (const way of ways) {
    const answers = [];
    for (const [i, fn] of way.fns.entries()) answers.push(await fn(way.args[i]));
    assert.deepEqual(answers, [true, true, false], `${way.suffix || "invoke"} answers each call`);
  }
});
