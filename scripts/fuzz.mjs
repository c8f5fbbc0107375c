#!/usr/bin/env node
/**
 * Long-running fuzz: the property checks (a)-(d) of test/fuzz/properties.test.ts and the differential
 * against @hyperjump/json-schema, on generated 2020-12 schemas and edge-biased instances.
 * Runs against build/ (`npm run fuzz` compiles first with tsc -p tsconfig.test.json).
 *
 *   npm run fuzz -- [--cases N] [--seconds S] [--seed X]
 *
 * --cases N    number of generated cases (default 100000; with --seconds alone, unlimited)
 * --seconds S  stop after S seconds
 * --seed X     replay a run (the seed is printed at the start); case k of a run is the same for the same seed
 *
 * Prints cases per second, counts of unexpected exceptions, output-path disagreements, annotation and mutation
 * violations, and hyperjump disagreements (explained by known-differences.md vs unexplained); on any failure,
 * the seed and a minimised counterexample. Then times every fixtures/hostile test (scripts/hostile-times.mjs): each
 * must answer in well under a second. Exits 1 on any unexpected failure.
 */

import fc from "fast-check";
import { caseArb } from "../build/test/fuzz/arbitraries.js";
import { checkCase } from "../build/test/fuzz/checks.js";
import { minimize, minimizeAsync } from "../build/test/fuzz/minimize.js";
import { setTimeout, clearTimeout } from "node:timers";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { explain, ourVerdicts } from "../build/test/differential/hyperjump.js";
import { hostileReport } from "./hostile-times.mjs";

/** hyperjump runs in a worker; a call that takes longer than this is stopped and counted, not waited for. */
const PEER_TIMEOUT_MS = 10_000;
let worker = null;
let nextId = 0;

function startWorker() {
  worker = new Worker(new URL("./fuzz-hyperjump-worker.mjs", import.meta.url));
  worker.unref();
}

function hyperjumpVerdicts(schema, instances) {
  if (worker === null) startWorker();
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.off("message", onMessage);
      worker.terminate();
      worker = null;
      resolve({ timedOut: true, error: `hyperjump did not answer within ${PEER_TIMEOUT_MS} ms`, verdicts: [] });
    }, PEER_TIMEOUT_MS);
    const onMessage = (m) => {
      if (m.id !== id) return;
      clearTimeout(timer);
      worker.off("message", onMessage);
      resolve(m.result);
    };
    worker.on("message", onMessage);
    worker.postMessage({ id, schema: JSON.stringify(schema), instances: JSON.stringify(instances) });
  });
}

function parseArgs(argv) {
  const opts = { cases: undefined, seconds: undefined, seed: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") {
      console.log("usage: npm run fuzz -- [--cases N] [--seconds S] [--seed X]");
      process.exit(0);
    }
    if (flag !== "--cases" && flag !== "--seconds" && flag !== "--seed") {
      console.error(`unknown argument ${flag}`);
      process.exit(2);
    }
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < 0) {
      console.error(`${flag} needs a non-negative number`);
      process.exit(2);
    }
    opts[flag.slice(2)] = n;
    i++;
  }
  if (opts.cases === undefined) opts.cases = opts.seconds === undefined ? 100_000 : Number.POSITIVE_INFINITY;
  if (opts.seed === undefined) opts.seed = Math.floor(Math.random() * 2 ** 31);
  opts.seed = Math.floor(opts.seed) | 0;
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const BATCH = 100;
const clone = (v) => JSON.parse(JSON.stringify(v));
const shape = (detail) => detail.replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/g, "N");

console.log(
  `fuzz: seed ${opts.seed} (replay with: npm run fuzz -- --seed ${opts.seed}${Number.isFinite(opts.cases) ? ` --cases ${opts.cases}` : ""}${opts.seconds === undefined ? "" : ` --seconds ${opts.seconds}`})`,
);

const counts = {
  cases: 0,
  instances: 0,
  limits: 0,
  annotationLimits: 0,
  unexpected_exception: 0,
  output_disagreement: 0,
  annotations: 0,
  mutation: 0,
  oursRefused: 0,
  theirsRefused: 0,
  theirsTimedOut: 0,
  agreements: 0,
  explained: new Map(),
  unexplained: 0,
};
/** First failure of each kind: { kind, caseIndex, schema, instance, detail }. */
const firsts = new Map();
/** The first case hyperjump did not answer in time (a peer hang, reported, not a failure of ours). */
let firstTimeout;

const started = Date.now();
const deadline = opts.seconds === undefined ? Number.POSITIVE_INFINITY : started + opts.seconds * 1000;
let lastProgress = started;

outer: for (let batch = 0; ; batch++) {
  const batchSeed = (opts.seed + Math.imul(batch, 0x9e3779b1)) | 0;
  const cases = fc.sample(caseArb(), { seed: batchSeed, numRuns: BATCH });
  for (const c of cases) {
    if (counts.cases >= opts.cases || Date.now() >= deadline) break outer;
    const caseIndex = counts.cases++;
    const pristine = clone(c);
    counts.instances += c.instances.length;

    const { problems, result } = checkCase(c);
    for (const p of problems) {
      counts[p.kind]++;
      if (!firsts.has(p.kind))
        firsts.set(p.kind, {
          kind: p.kind,
          caseIndex,
          schema: pristine.schema,
          instance: p.instance ?? pristine.instances[0],
          detail: p.detail,
        });
    }
    if (!result.compiled) {
      if (!problems.some((p) => p.kind === "unexpected_exception")) counts.limits++;
      else counts.oursRefused++;
      continue;
    }
    counts.limits += result.verdicts.filter((v) => v === "limit").length;
    counts.annotationLimits += result.annotationLimits;

    const theirs = await hyperjumpVerdicts(pristine.schema, pristine.instances);
    if (theirs.timedOut === true) {
      counts.theirsTimedOut++;
      if (firstTimeout === undefined) firstTimeout = caseIndex;
      continue;
    }
    if (theirs.error !== undefined) {
      counts.theirsRefused++;
      if (!firsts.has("hyperjump_refused"))
        firsts.set("hyperjump_refused", {
          kind: "hyperjump_refused",
          caseIndex,
          schema: pristine.schema,
          instance: null,
          detail: theirs.error,
        });
      continue;
    }
    pristine.instances.forEach((instance, k) => {
      const o = result.verdicts[k];
      const t = theirs.verdicts[k];
      if (o === "limit") return;
      if (o === t) {
        counts.agreements++;
        return;
      }
      const known = explain(pristine.schema, instance, o, t);
      if (known !== undefined) {
        counts.explained.set(known.id, (counts.explained.get(known.id) ?? 0) + 1);
        return;
      }
      counts.unexplained++;
      if (!firsts.has("hyperjump_disagreement")) {
        firsts.set("hyperjump_disagreement", {
          kind: "hyperjump_disagreement",
          caseIndex,
          schema: pristine.schema,
          instance,
          detail: `we say ${o}, hyperjump says ${t}`,
        });
      }
    });

    if (Date.now() - lastProgress > 15_000) {
      lastProgress = Date.now();
      const s = (lastProgress - started) / 1000;
      console.error(`  ... ${counts.cases} cases in ${s.toFixed(0)} s`);
    }
  }
}

const seconds = (Date.now() - started) / 1000;
const explainedTotal = [...counts.explained.values()].reduce((a, b) => a + b, 0);
const explainedList = [...counts.explained].map(([id, n]) => `${id} ${n}`).join(", ") || "none";
console.log(
  `cases: ${counts.cases} schemas, ${counts.instances} instances in ${seconds.toFixed(1)} s (${(counts.cases / seconds).toFixed(1)} cases/s, ${(counts.instances / seconds).toFixed(1)} instances/s)`,
);
console.log(`unexpected exceptions: ${counts.unexpected_exception}`);
console.log(
  `output-path disagreements (isValid vs flag/basic/detailed/verbose, missing error messages): ${counts.output_disagreement}`,
);
console.log(`annotations on invalid instances: ${counts.annotations}`);
console.log(`schema or instance mutations: ${counts.mutation}`);
console.log(`limits hit (execution_failure, not compared): ${counts.limits}`);
console.log(
  `annotations of valid instances refused as execution_failure because the output path exceeds the limits: ${counts.annotationLimits}`,
);
console.log(`generated schemas refused: ours ${counts.oursRefused}, hyperjump ${counts.theirsRefused}`);
console.log(
  `hyperjump: ${counts.agreements} agreements; disagreements ${explainedTotal} explained (${explainedList}), ${counts.unexplained} unexplained; ${counts.theirsTimedOut} cases where hyperjump did not answer within ${PEER_TIMEOUT_MS / 1000} s (stopped; not compared)`,
);

if (firstTimeout !== undefined)
  console.log(`first case hyperjump did not answer: case ${firstTimeout} (replay with --seed ${opts.seed})`);

const hostile = hostileReport(fileURLToPath(new URL("../fixtures/hostile/", import.meta.url)));
for (const line of hostile.lines) console.log(line);

const failed =
  hostile.failed ||
  counts.unexpected_exception +
    counts.output_disagreement +
    counts.annotations +
    counts.mutation +
    counts.oursRefused +
    counts.theirsRefused +
    counts.unexplained >
    0;

for (const f of firsts.values()) {
  console.log(`\nFAILURE ${f.kind} (seed ${opts.seed}, case ${f.caseIndex}): ${f.detail}`);
  let min;
  if (f.kind === "hyperjump_disagreement") {
    min = await minimizeAsync(f.schema, f.instance, async (s, i) => {
      const t = await hyperjumpVerdicts(s, [i]);
      const o = ourVerdicts(s, [i], t.uri);
      const ov = o.verdicts[0];
      const tv = t.verdicts[0];
      return (
        t.error === undefined &&
        o.error === undefined &&
        typeof ov === "boolean" &&
        ov !== tv &&
        explain(s, i, ov, tv) === undefined
      );
    });
  } else if (f.kind === "hyperjump_refused") {
    min = { schema: f.schema, instance: null };
  } else {
    const want = shape(f.detail);
    min = minimize(f.schema, f.instance, (s, i) =>
      checkCase({ schema: clone(s), instances: [clone(i)] }).problems.some(
        (p) => p.kind === f.kind && shape(p.detail) === want,
      ),
    );
  }
  console.log(`  minimal schema:   ${JSON.stringify(min.schema)}`);
  console.log(`  minimal instance: ${JSON.stringify(min.instance)}`);
}

console.log(
  `${failed ? "\nFAILED" : "\nOK"} (seed ${opts.seed}; replay exactly with: npm run fuzz -- --seed ${opts.seed} --cases ${counts.cases})`,
);
if (worker !== null) await worker.terminate();
process.exit(failed ? 1 : 0);
