// npm run bench [-- --quick] [-- --only <names>] [-- --regime steady|rotating|long|cold|mixed|host|both|all]
// [-- --out <file>]
// Measures backplane-agent-runtime (dist/) against peer validators in five regimes: steady state (steady.mjs: a fresh
// process per workload), the long warm-up (the same, every validator warmed with 20,000 calls instead of 5,000), the
// rotating call site (the same, with 8 compiled copies of each schema behind one call site), cold (cold.mjs: fresh
// processes) and the mixed host (mixed.mjs: one process per library that has exercised every workload first); then
// retained memory (memory.mjs). Prints markdown, writes every number as JSON.
// `both` (the default) is steady state and cold; `host` is steady state and the long warm-up (for the hot set, the
// tool counts and Execution.invoke: `--regime host --only hot-set,hot-set-invoke,tools-100,tools-200,tools-400`);
// `all` adds the long warm-up, the rotating call site and the mixed host.
// npm run bench -- --only gateway [--quick]: the MCP gateway's added latency and memory per server (gateway.mjs).
// BENCH_BASELINE=<path to another build's dist/index.js> adds that build as the library "baseline" (peers.mjs).
// BENCH_JSON_RULE=1 adds "ajv+json": ajv's function followed by the rule for values that are not JSON data.
// BENCH_LIBS=<names> times only those libraries (ajv among them), BENCH_CLOCK=wall times the hot regimes' samples by the wall clock instead of the process's CPU time (timing.mjs).
import os from "node:os";
import { writeFileSync } from "node:fs";
import { missing, suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { parseOptions } from "./options.mjs";
import { Excluded, checkedValidators, ownCopy } from "./prepare.mjs";
import { steadyInChild } from "./steady.mjs";
import { measureCold } from "./cold.mjs";
import { measureMixed } from "./mixed.mjs";
import { measureMemory } from "./memory.mjs";
import { markdown } from "./report.mjs";
import { CLOCK } from "./timing.mjs";
import { MEMORY, UNITS, WORKLOADS, context } from "./workloads/index.mjs";

const argv = process.argv.slice(2);
// The gateway's benchmark is its own module: `npm run bench -- --only gateway [--quick]`.
if (argv[argv.indexOf("--only") + 1] === "gateway") {
  await (await import("./gateway.mjs")).main(argv);
  process.exit(0);
}
const opts = parseOptions(argv, [...WORKLOADS.map((w) => w.name), MEMORY.name]);
if (opts.error) {
  console.error(opts.error);
  process.exit(2);
}
const { settings } = opts;
const command = `npm run bench${argv.length ? " -- " + argv.join(" ") : ""}`;
const started = new Date();
const loadAtStart = os.loadavg();
const notes = [];
const log = (line) => {
  notes.push(line);
  console.error(line);
};

// ---- what runs, and what is skipped for want of reference data --------------------------------------------------
const runsHere = (w) => opts.wanted(w.name) && w.regimes.some((r) => opts.regimes.includes(r));
const skipped = [];
const unavailable = (name, needs) => {
  const why = needs.map(missing).find(Boolean);
  if (why) {
    skipped.push({ workload: name, reason: why });
    log(`- ${name}: skipped (${why})`);
  }
  return Boolean(why);
};
const workloads = WORKLOADS.filter((w) => runsHere(w) && !unavailable(w.name, w.needs));
const memoryScenarios = runsHere(MEMORY)
  ? MEMORY.scenarios.filter((s) => !unavailable(`${MEMORY.name}/${s.name}`, s.needs))
  : [];

// BENCH_LIBS=ours,baseline,ajv,ajv+json times only those libraries (a shorter run on a shared machine). Every library
// still takes part in choosing the corpus's tools, so the workloads are the same whichever are timed.
const everyPeer = await loadPeers(suiteRemotes(), log);
const chosen = process.env.BENCH_LIBS?.split(",") ?? [];
const peers = chosen.length ? everyPeer.filter((p) => chosen.includes(p.name)) : everyPeer;
const names = peers.map((p) => p.name);
if (!names.includes("ajv")) throw new Error("ajv is the baseline and the oracle for generated calls; it must load");
const ctx = context(everyPeer, log);

/** Each result with a time gets its time per declared property, for the shapes that say how many they declare. */
const withPerProperty = (results, declared) =>
  declared
    ? Object.fromEntries(
        Object.entries(results).map(([lib, r]) => [
          lib,
          r.ns === undefined ? r : { ...r, nsPerProperty: r.ns / declared },
        ]),
      )
    : results;

// ---- the workloads -------------------------------------------------------------------------------------------------
const steady = {};
const long = {};
const rotating = {};
const cold = {};
const mixed = {};
const inMixedHost = [];
for (const w of workloads) {
  const cases = await w.cases(ctx);
  const tests = cases.flatMap((c) => c.tests);
  const valid = tests.filter((t) => t.valid).length;
  const calls = { valid, invalid: tests.length - valid };
  const count = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const schemas = count(cases.length, "schema");
  const verdicts = calls.invalid ? `: ${valid} valid, ${calls.invalid} invalid` : ", all valid";
  const size = w.kind === "validate" ? `${schemas}, ${count(tests.length, "instance")}${verdicts}` : schemas;
  const description = `${w.description} (${size})`;
  const participants = [];
  const excluded = {};
  for (const p of peers) {
    try {
      await checkedValidators(p, ownCopy(cases));
      participants.push(p.name);
    } catch (e) {
      if (!(e instanceof Excluded)) throw e;
      excluded[p.name] = e.message;
      log(`- ${w.name}: ${p.name} excluded (${e.message})`);
    }
  }
  const declared = w.declaredProperties ? { declaredProperties: w.declaredProperties } : {};
  const counted = w.toolCount ? { toolCount: w.toolCount } : {};
  const hot = { description, unit: UNITS[w.kind], kind: w.kind, calls, ...declared, ...counted, excluded };
  const t0 = Date.now();
  if (opts.regimes.includes("steady") && w.regimes.includes("steady")) {
    const results = await steadyInChild(w, cases, participants, settings);
    if (results.error) log(`- ${w.name} (steady): failed (${results.error})`);
    steady[w.name] = { ...hot, results: results.error ? {} : withPerProperty(results, w.declaredProperties) };
  }
  if (opts.regimes.includes("long") && w.regimes.includes("long")) {
    const longSettings = { ...settings, warmCalls: settings.longWarmCalls };
    const results = await steadyInChild(w, cases, participants, longSettings);
    if (results.error) log(`- ${w.name} (long warm-up): failed (${results.error})`);
    long[w.name] = { ...hot, results: results.error ? {} : withPerProperty(results, w.declaredProperties) };
  }
  if (opts.regimes.includes("rotating") && w.regimes.includes("rotating") && w.kind === "validate") {
    const results = await steadyInChild(w, cases, participants, settings, settings.copies);
    if (results.error) log(`- ${w.name} (rotating): failed (${results.error})`);
    rotating[w.name] = { ...hot, results: results.error ? {} : withPerProperty(results, w.declaredProperties) };
  }
  if (opts.regimes.includes("mixed") && w.regimes.includes("mixed")) {
    inMixedHost.push({ name: w.name, kind: w.kind, cases, libs: participants });
    mixed[w.name] = { ...hot, results: {} };
  }
  if (opts.regimes.includes("cold") && w.regimes.includes("cold")) {
    const unit = w.coldCalls === 1 ? "compile + first call" : `compile + first ${w.coldCalls} calls`;
    const results = await measureCold(w, cases, participants, settings, log);
    cold[w.name] = { description, coldUnit: unit, calls, excluded, results };
  }
  console.error(`  ${w.name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

let mixedHost = null;
if (inMixedHost.length) {
  const t0 = Date.now();
  const hostLibs = names.filter((lib) => inMixedHost.some((w) => w.libs.includes(lib)));
  const run = await measureMixed(inMixedHost, hostLibs, settings, log);
  for (const w of workloads.filter((x) => mixed[x.name]))
    mixed[w.name].results = withPerProperty(run.results[w.name], w.declaredProperties);
  mixedHost = { workloads: inMixedHost.map((w) => w.name), libraries: run.host };
  console.error(`  mixed host: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

let memory = null;
const memoryLabels = {};
if (memoryScenarios.length) {
  const scenarios = [];
  for (const s of memoryScenarios) {
    const items = await s.items(ctx, settings.catalogSize);
    memoryLabels[s.name] = s.label(items.length);
    scenarios.push({ name: s.name, items });
  }
  memory = await measureMemory(names, scenarios, log);
}

// ---- report --------------------------------------------------------------------------------------------------------
const loadAtEnd = os.loadavg();
const seconds = (Date.now() - started.getTime()) / 1000;
const cpu = os.cpus()[0]?.model ?? "unknown";
const cores = os.cpus().length;
const node = process.version;
const platform = `${process.platform}/${process.arch}`;
const environment = {
  command,
  clock: CLOCK,
  quick: opts.quick,
  started,
  seconds,
  node,
  platform,
  cpu,
  cores,
  loadAtStart,
  loadAtEnd,
};
const described = Object.fromEntries(
  workloads.map((w) => [w.name, steady[w.name] ?? long[w.name] ?? rotating[w.name] ?? mixed[w.name] ?? cold[w.name]]),
);
const report = {
  environment,
  settings,
  steady,
  long,
  rotating,
  cold,
  mixed,
  mixedHost,
  memory,
  memoryLabels,
  described,
  peers,
  notes,
};
console.log(markdown(report, names).join("\n"));

const json = {
  command,
  date: started.toISOString(),
  seconds,
  node,
  platform,
  cpu,
  cores,
  loadAverage: { start: loadAtStart, end: loadAtEnd },
  quick: opts.quick,
  clock: CLOCK,
  only: opts.only ? [...opts.only] : null,
  regimes: opts.regimes,
  settings,
  libraries: Object.fromEntries(peers.map((p) => [p.name, p.note])),
  skipped,
  steady,
  long,
  rotating,
  cold,
  mixed,
  mixedHost,
  memory: memory && { labels: memoryLabels, results: memory },
  notes,
};
writeFileSync(opts.out, JSON.stringify(json, null, 2) + "\n");
