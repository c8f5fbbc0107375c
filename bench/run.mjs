// npm run bench [-- --quick] [-- --only <workload>[,<workload>...]]
// Measures backplane-agent-runtime (dist/) against peer validators in one process, interleaved round-robin.
import os from "node:os";
import { writeFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { REPO, suiteCases, suiteRemotes, mcpTools, openapiSchema } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { measure, sinkValue } from "./harness.mjs";
import { Excluded, validateWorkload } from "./workloads/common.mjs";
import { passingCases, suiteValidate, suiteCompile } from "./workloads/suite.mjs";
import { mcpCases, commonSubset, mcpValidate, mcpCold } from "./workloads/mcp.mjs";
import { metaschema, metaDocuments, unevaluated, micro } from "./workloads/keywords.mjs";
import { measureMemory } from "./memory.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const onlyAt = argv.indexOf("--only");
const only =
  onlyAt >= 0
    ? new Set(
        String(argv[onlyAt + 1] ?? "")
          .split(",")
          .filter(Boolean),
      )
    : null;
const wanted = (name) => !only || only.has(name);
const settings = quick ? { rounds: 3, warmupMs: 30, sampleMs: 5 } : { rounds: 21, warmupMs: 300, sampleMs: 20 };
const WORKLOADS = [
  "suite-validate",
  "compile",
  "mcp-validate",
  "mcp-cold",
  "metaschema",
  "unevaluated",
  "micro",
  ...micro().map((m) => m.name),
  "memory",
];
if (onlyAt >= 0 && (!only.size || [...only].some((n) => !WORKLOADS.includes(n)))) {
  console.error(`--only takes a comma-separated list of: ${WORKLOADS.join(", ")}`);
  process.exit(2);
}
const CATALOG_SIZE = 5000;

const notes = [];
const log = (line) => {
  notes.push(line);
  console.error(line);
};
const started = Date.now();

const remotes = suiteRemotes();
const peers = await loadPeers(remotes, log);
const names = peers.map((p) => p.name);
const ajv = peers.find((p) => p.name === "ajv");
if (!ajv) throw new Error("ajv is the baseline and the oracle for generated cases; it must load");

// ---- data shared by several workloads ------------------------------------------------------------------------
const allCases = suiteCases();
const kept = await passingCases(peers, allCases, log);
const needMcp = ["mcp-validate", "mcp-cold", "metaschema", "memory"].some(wanted);
const mcp = needMcp ? await commonSubset(peers, await mcpCases(mcpTools(), ajv, log), log) : [];

const workloads = [];
if (wanted("suite-validate")) workloads.push(suiteValidate(kept));
if (wanted("compile")) workloads.push(suiteCompile(kept));
if (wanted("mcp-validate")) workloads.push(mcpValidate(mcp));
if (wanted("mcp-cold")) workloads.push(mcpCold(mcp));
if (wanted("metaschema"))
  workloads.push(
    metaschema(
      metaDocuments(
        openapiSchema(),
        kept.map((c) => c.schema),
        mcp.map((c) => c.schema),
      ),
    ),
  );
if (wanted("unevaluated")) {
  const u = unevaluated();
  workloads.push(validateWorkload(u.name, u.description, u.cases));
}
for (const m of micro())
  if (wanted(m.name) || (only && only.has("micro"))) workloads.push(validateWorkload(m.name, m.description, m.cases));

// ---- timing ----------------------------------------------------------------------------------------------------
const results = {};
for (const w of workloads) {
  const entries = [];
  const excluded = {};
  for (const p of peers) {
    try {
      const prepared = await w.prepare(p);
      entries.push({ name: p.name, ...prepared });
    } catch (e) {
      if (!(e instanceof Excluded)) throw e;
      excluded[p.name] = e.message;
      log(`- ${w.name}: ${p.name} excluded (${e.message})`);
    }
  }
  const t0 = Date.now();
  const r = entries.length ? await measure(entries, { ...settings, baseline: "ajv" }) : {};
  results[w.name] = { description: w.description, unit: w.unit, results: r, excluded };
  console.error(`  ${w.name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---- memory ----------------------------------------------------------------------------------------------------
let memory = null;
if (wanted("memory")) {
  const dataFile = join(os.tmpdir(), `bench-memory-${process.pid}.json`);
  const index = new Map(allCases.map((c, i) => [c, i]));
  writeFileSync(
    dataFile,
    JSON.stringify({
      suiteIndices: kept.map((c) => index.get(c)),
      tools: mcp.map((c) => ({ schema: c.schema, args: c.tests[0].data })),
      catalogSize: quick ? 1000 : CATALOG_SIZE,
    }),
  );
  try {
    memory = await measureMemory(names, dataFile, log);
  } finally {
    unlinkSync(dataFile);
  }
}

// ---- report ----------------------------------------------------------------------------------------------------
const fmtNs = (ns) =>
  ns < 1e4
    ? `${ns.toFixed(ns < 100 ? 1 : 0)} ns`
    : ns < 1e6
      ? `${(ns / 1e3).toFixed(ns < 1e5 ? 1 : 0)} µs`
      : `${(ns / 1e6).toFixed(2)} ms`;
const fmtBytes = (b) =>
  Math.abs(b) < 1e4
    ? `${Math.round(b)} B`
    : Math.abs(b) < 1e7
      ? `${(b / 1024).toFixed(1)} KiB`
      : `${(b / 1048576).toFixed(1)} MiB`;
const lines = [];
const out = (s = "") => lines.push(s);
const cpu = os.cpus()[0]?.model ?? "unknown";
const command = `node ${process.execArgv.join(" ")} bench/run.mjs ${argv.join(" ")}`.replace(/\s+/g, " ").trim();
out(`# backplane-agent-runtime benchmark`);
out();
out(`- date: ${new Date().toISOString()}`);
out(`- node: ${process.version} (${process.platform}/${process.arch}), CPU: ${cpu} × ${os.cpus().length}`);
out(`- command: \`npm run bench${argv.length ? " -- " + argv.join(" ") : ""}\` (${command})`);
out(
  `- ${settings.rounds} rounds per workload, round-robin over libraries (order rotated each round), ≥ ${settings.sampleMs} ms per sample, ${settings.warmupMs} ms warm-up; cell = median time per unit (ratio to ajv: median of per-round ratios; < 1 is faster than ajv). Absolute times move with machine load; the per-round ratios are the comparable figure`,
);
out();
out(`| workload | unit | ${names.join(" | ")} |`);
out(`|---|---|${names.map(() => "---:").join("|")}|`);
for (const w of workloads) {
  const r = results[w.name];
  const cells = names.map((n) => {
    const x = r.results[n];
    if (!x) return r.excluded[n] ? "excluded¹" : "–";
    return x.ratio === null ? fmtNs(x.ns) : `${fmtNs(x.ns)} (${x.ratio.toFixed(2)}×)`;
  });
  out(`| ${w.name} | ${w.unit} | ${cells.join(" | ")} |`);
}
out();
for (const w of workloads) out(`- **${w.name}**: ${w.description}`);
if (memory) {
  out();
  out(`| memory (retained heap per compiled schema, after gc) | ${names.join(" | ")} |`);
  out(`|---|${names.map(() => "---:").join("|")}|`);
  for (const [scenario, label] of [
    ["suite", `required suite (${kept.length} schemas)`],
    ["catalog", `MCP catalog (${quick ? 1000 : CATALOG_SIZE} tools, distinct $id)`],
  ]) {
    out(
      `| ${label} | ${names
        .map((n) => {
          const m = memory[scenario][n];
          return !m
            ? "–"
            : m.error
              ? "failed"
              : `${fmtBytes(m.perSchema)} (${(m.perSchema / memory[scenario].ajv?.perSchema).toFixed(2)}×)`;
        })
        .join(" | ")} |`,
    );
  }
  out(
    `Memory: one child process per library and scenario (\`node --expose-gc\`), heapUsed after gc, before vs after compiling (and validating once) every schema while holding all validators; ratio to ajv.`,
  );
}
out();
out(`Libraries:`);
for (const p of peers) out(`- ${p.name}: ${p.note}`);
const excl = workloads.flatMap((w) =>
  Object.entries(results[w.name].excluded).map(([n, why]) => `${w.name}/${n}: ${why}`),
);
if (excl.length) {
  out();
  out(`¹ excluded (verdict differs from the expected one or compile fails):`);
  for (const e of excl) out(`- ${e}`);
}
out();
out(`Notes:`);
for (const n of notes) out(n.startsWith("-") ? n : `- ${n}`);
const seconds = (Date.now() - started) / 1000;
out(`- wall time: ${seconds.toFixed(0)} s (sink ${sinkValue()})`);
console.log(lines.join("\n"));

const json = {
  date: new Date().toISOString(),
  node: process.version,
  cpu,
  cpus: os.cpus().length,
  command: `npm run bench${argv.length ? " -- " + argv.join(" ") : ""}`,
  settings,
  quick,
  only: only ? [...only] : null,
  seconds,
  libraries: Object.fromEntries(peers.map((p) => [p.name, p.note])),
  suite: { keptCases: kept.length, totalCases: allCases.length },
  mcpTools: mcp.length,
  workloads: results,
  memory,
  notes,
};
writeFileSync(join(REPO, "bench", "results.json"), JSON.stringify(json, null, 2) + "\n");
