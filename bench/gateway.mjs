// npm run bench -- --only gateway [--quick]: what `backplane-schema gateway` (dist/) adds to a tool call, and what each
// server costs it. Latency: a trivial stdio tool (bench/gateway-server.mjs) called one call at a time, in rotating
// rounds, four ways: an SDK 1.x client directly and through the stdio gateway; and through one `gateway --http` front,
// an SDK 1.x client in a 2025-11-25 session and an SDK 2.x client in auto mode (2026-07-28, stateless). The added
// latency is each path's median (and p99) minus the direct one; the HTTP paths include an HTTP hop the stdio ones do
// not have. Memory: the gateway's resident set with 1 and with 9 servers behind it (3 with --quick), after listing and
// calling every server; per server is the difference over 8 (2). Throughput (gateway-http.mjs): 8 concurrent
// 2026-07-28 clients calling for a fixed time against one replica, against HAProxy in front of that one replica, and
// against HAProxy in front of two (each replica its own stdio child), in rotating rounds, with the CPU each process
// spent per call; skipped, with the reason printed, without HAProxy (`haproxy` on the PATH, or /usr/sbin/haproxy).
// Beside the gateway, the same calls through one more stdio hop and nothing else (bench/stdio-hop.mjs: each line parsed and
// written again), the floor under what any stdio gateway adds; with BENCH_GATEWAY_BASELINE=<another build's
// dist/cli/main.js>, that build's gateway too, in the same rotating rounds (its added latency against this one's).
// Prints markdown (and the figures as JSON on stderr).
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./data.mjs";
import { median, rotated } from "./stats.mjs";
import {
  childPids,
  cpuSeconds,
  startedAll,
  findHaproxy,
  legacyClient,
  modernClient,
  startHaproxy,
  startHttpGateway,
  startReplicas,
  throughput,
  writeSecrets,
} from "./gateway-http.mjs";

const SERVER = join(REPO, "bench", "gateway-server.mjs");
const HOP = join(REPO, "bench", "stdio-hop.mjs");
/** Another build's CLI, whose gateway is timed beside this one's (BENCH_GATEWAY_BASELINE). */
const BASELINE_CLI = process.env.BENCH_GATEWAY_BASELINE;
const CLI = join(REPO, "dist", "cli", "main.js");
/** Concurrent 2026-07-28 clients in the throughput measurement. */
const CONCURRENCY = 8;

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** Microseconds per call, one call at a time. */
async function timeCalls(client, name, calls) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    await client.callTool({ name, arguments: { message: "x" } });
    times.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  return times;
}

function config(dir, servers) {
  const mcpServers = {};
  for (let i = 0; i < servers; i++) mcpServers[`s${i}`] = { command: process.execPath, args: [SERVER] };
  const file = join(dir, `config-${servers}.json`);
  writeFileSync(file, JSON.stringify({ mcpServers }));
  return file;
}

/** Resident set of a process in KiB (Linux /proc, else ps). */
function rssKiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
  } catch {
    return null;
  }
}

/** The four latency paths; `calls` is each one's share of a round (the HTTP paths are slower, so they get fewer). */
async function latencyPaths(dir, http) {
  const direct = await connect([SERVER]);
  const gateway = await connect([CLI, "gateway", "--config", config(dir, 1)]);
  const hop = await connect([HOP, SERVER]);
  const legacy = await legacyClient(http.url);
  const modern = await modernClient(http.url);
  const baseline =
    BASELINE_CLI === undefined ? [] : [await connect([BASELINE_CLI, "gateway", "--config", config(dir, 1)])];
  return [
    { key: "direct", client: direct.client, tool: "echo", http: false, pid: direct.pid },
    { key: "gateway", client: gateway.client, tool: "s0__echo", http: false, pid: gateway.pid },
    { key: "hop", client: hop.client, tool: "s0__echo", http: false, pid: hop.pid },
    ...baseline.map((b) => ({ key: "baseline", client: b.client, tool: "s0__echo", http: false, pid: b.pid })),
    { key: "http2025", client: legacy, tool: "s0__echo", http: true, pid: http.pid },
    { key: "http2026", client: modern, tool: "s0__echo", http: true, pid: http.pid },
  ];
}

/**
 * Every path timed in each round, the order rotated so none always runs first or after the same one. Returns every
 * sample per path, each round's median per path, and per path the CPU microseconds per call of this process (the
 * client) and of the process the client talks to (`pid`: the server, or the gateway), which scheduling on a loaded
 * machine moves far less than the wall-clock times.
 */
async function measureLatency(paths, rounds, calls, httpCalls) {
  for (const p of paths) await timeCalls(p.client, p.tool, p.http ? httpCalls : calls);
  const samples = Object.fromEntries(paths.map((p) => [p.key, []]));
  const cpu = Object.fromEntries(paths.map((p) => [p.key, { client: 0, peer: 0, calls: 0 }]));
  const perRound = [];
  for (let r = 0; r < rounds; r++) {
    const round = {};
    for (const p of rotated(paths, r)) {
      const [self, peer] = [process.cpuUsage(), cpuSeconds(p.pid)];
      const times = await timeCalls(p.client, p.tool, p.http ? httpCalls : calls);
      const used = process.cpuUsage(self);
      cpu[p.key].client += used.user + used.system;
      cpu[p.key].peer += ((cpuSeconds(p.pid) ?? NaN) - (peer ?? NaN)) * 1e6;
      cpu[p.key].calls += times.length;
      samples[p.key].push(...times);
      round[p.key] = median(times);
    }
    perRound.push(round);
  }
  const cpuUsPerCall = Object.fromEntries(
    Object.entries(cpu).map(([k, c]) => [k, { client: c.client / c.calls, peer: c.peer / c.calls }]),
  );
  return { samples, perRound, cpuUsPerCall };
}

const figures = (xs) => ({ median: median(xs), p99: percentile(xs, 0.99) });

async function measureMemory(dir, many) {
  const memory = {};
  for (const servers of [1, many]) {
    const g = await connect([CLI, "gateway", "--config", config(dir, servers)]);
    const { tools } = await g.client.listTools();
    for (const tool of tools) await timeCalls(g.client, tool.name, 50);
    await sleep(500);
    const rss = [];
    for (let i = 0; i < 5; i++) {
      rss.push(rssKiB(g.pid));
      await sleep(100);
    }
    memory[servers] = median(rss);
    await g.client.close();
  }
  return memory;
}

/**
 * Calls per second from CONCURRENCY 2026-07-28 clients against one replica directly, HAProxy in front of that one
 * replica (what the balancer's hop costs) and HAProxy in front of two replicas, each setup once per round in rotating
 * order, `ms` each. The two replicas and both HAProxy instances run throughout; the idle ones cost next to nothing
 * (HAProxy checks each backend once a second).
 */
async function measureThroughput(haproxy, dir, rounds, ms) {
  const stops = [];
  try {
    const replicas = await startedAll(startReplicas(CLI, dir, config(dir, 1)), stops);
    const [one, two] = await startedAll(
      [
        startHaproxy(haproxy, dir, "one", [replicas[0].url]),
        startHaproxy(
          haproxy,
          dir,
          "two",
          replicas.map((r) => r.url),
        ),
      ],
      stops,
    );
    const servers = (rs) => rs.flatMap((r) => childPids(r.pid));
    const setups = [
      { key: "replica", url: replicas[0].url, pids: { gateways: [replicas[0].pid], servers: servers([replicas[0]]) } },
      {
        key: "haproxy1",
        url: one.url,
        pids: { gateways: [replicas[0].pid], servers: servers([replicas[0]]), haproxy: [one.pid] },
      },
      {
        key: "haproxy2",
        url: two.url,
        pids: { gateways: replicas.map((r) => r.pid), servers: servers(replicas), haproxy: [two.pid] },
      },
    ];
    for (const s of setups) {
      s.clients = await Promise.all(Array.from({ length: CONCURRENCY }, () => modernClient(s.url)));
      await throughput(s.clients, "s0__echo", Math.min(ms / 2, 2000), s.pids); // warm every path and process
    }
    const results = Object.fromEntries(setups.map((s) => [s.key, []]));
    for (let r = 0; r < rounds; r++) {
      for (const s of rotated(setups, r)) results[s.key].push(await throughput(s.clients, "s0__echo", ms, s.pids));
    }
    for (const s of setups) await Promise.all(s.clients.map((c) => c.close()));
    return results;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

const us = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} µs` : "–");
const load = (l) => l.map((x) => x.toFixed(2)).join(" ");

function printLatency(result, perRound) {
  console.log("| trivial stdio tool | median | p99 |");
  console.log("|---|---|---|");
  console.log(`| direct (client → server) | ${us(result.directUs.median)} | ${us(result.directUs.p99)} |`);
  console.log(`| through the gateway | ${us(result.gatewayUs.median)} | ${us(result.gatewayUs.p99)} |`);
  console.log(`| added by the gateway | ${us(result.addedUs.median)} | ${us(result.addedUs.p99)} |`);
  console.log(`\nPer-round added medians: ${perRound.map((r) => (r.gateway - r.direct).toFixed(0)).join(", ")} µs.`);
  const { hop, baseline } = result;
  console.log(
    `\nOne more stdio hop and nothing else (bench/stdio-hop.mjs: each line parsed and written again, no SDK, no ` +
      `check), the floor under any stdio gateway, in the same rounds: ${us(hop.median)} median, ${us(hop.p99)} p99, ` +
      `adding ${us(hop.addedMedian)} median and ${us(hop.addedP99)} p99 (per round: ` +
      `${perRound.map((r) => (r.hop - r.direct).toFixed(0)).join(", ")} µs). CPU per call of the process the client ` +
      `talks to: the server ${us(result.cpuUsPerCall.direct.peer)} directly, the hop ` +
      `${us(result.cpuUsPerCall.hop.peer)}, the gateway ${us(result.cpuUsPerCall.gateway.peer)} (their children not ` +
      `counted).`,
  );
  if (baseline === undefined) return;
  console.log(
    `\nThe gateway of BENCH_GATEWAY_BASELINE (${BASELINE_CLI}), in the same rounds: ${us(baseline.median)} median, ` +
      `${us(baseline.p99)} p99, adding ${us(baseline.addedMedian)} median and ${us(baseline.addedP99)} p99; CPU per ` +
      `call ${us(result.cpuUsPerCall.baseline.peer)}. This build's added median over the baseline's, the median of ` +
      `the rounds' ratios: ×${baseline.addedRatio.toFixed(2)} (per round: ` +
      `${perRound.map((r) => ((r.gateway - r.direct) / (r.baseline - r.direct)).toFixed(2)).join(", ")}).`,
  );
}

function printHttp(result) {
  const { http, cpuUsPerCall: cpu } = result;
  console.log(
    `\nThrough one \`gateway --http\` front (loopback), the same server and tool, in the same rotating rounds ` +
      `(${http.callsPerRound} calls per round each); CPU per call is the client's (this process) and the process it ` +
      `talks to (the server for the direct row, else the gateway; the gateway's stdio child not counted):\n`,
  );
  console.log(
    "| trivial stdio tool | median | p99 | added vs direct stdio: median | p99 | CPU per call: client | server or gateway |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const row = (label, f, key) =>
    console.log(
      `| ${label} | ${us(f.median)} | ${us(f.p99)} | ${key === "direct" ? "–" : us(f.median - result.directUs.median)} | ` +
        `${key === "direct" ? "–" : us(f.p99 - result.directUs.p99)} | ${us(cpu[key].client)} | ${us(cpu[key].peer)} |`,
    );
  row("direct, stdio (SDK 1.x client)", result.directUs, "direct");
  row("stdio gateway (SDK 1.x client)", result.gatewayUs, "gateway");
  row("HTTP front, 2025-11-25 session (SDK 1.x client)", http.http2025, "http2025");
  row("HTTP front, 2026-07-28 stateless (SDK 2.x client, auto mode)", http.http2026, "http2026");
  console.log(
    `\nThe HTTP rows include the HTTP hop (each client's HTTP transport, a loopback TCP connection, the front's HTTP ` +
      `handling) that the direct stdio row does not have: their "added" is the gateway and that hop together. ` +
      `Per-round medians, 2026-07-28 minus 2025-11-25: ${http.perRoundModernMinusLegacy.map((x) => x.toFixed(0)).join(", ")} µs ` +
      `(their median: ${us(median(http.perRoundModernMinusLegacy))}).`,
  );
}

function printMemory(result, many) {
  if (result.perServerKiB === null) return;
  const memory = result.gatewayRssKiB;
  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
  console.log(
    `\nGateway resident set: ${mib(memory[1])} with 1 server, ${mib(memory[many])} with ${many}: ` +
      `${(result.perServerKiB / 1024).toFixed(2)} MiB per server (each server is its own process besides).`,
  );
}

function printThroughput(result) {
  const t = result.throughput;
  if (t.skipped) {
    console.log(`\nThroughput, one replica against two behind HAProxy: skipped (${t.skipped}).`);
    return;
  }
  console.log(
    `\nThroughput: ${t.concurrency} concurrent 2026-07-28 clients (SDK 2.x, auto mode, in this process), each one call ` +
      `at a time, ${t.seconds} s per setup per round, ${t.rounds} rotating rounds; each replica is \`gateway --http\` with ` +
      `its own stdio child (the trivial server). CPU per call is each group's CPU time over the calls served; the last two columns are ` +
      `the busiest gateway's and this process's CPU time over the wall-clock time (100 %: one CPU, all the time; ` +
      `medians of the rounds).\n`,
  );
  console.log(
    "| setup | calls/s (median of rounds) | each round | CPU per call: clients | gateways | servers | HAProxy | busiest gateway's CPU | clients' CPU |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [key, label] of [
    ["replica", "one replica, directly"],
    ["haproxy1", "HAProxy → one replica"],
    ["haproxy2", "HAProxy → two replicas"],
  ]) {
    const f = t[key];
    const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)} %` : "–");
    const cpu = (k) => (f.cpuMsPerCall[k] === undefined ? "–" : `${f.cpuMsPerCall[k].toFixed(2)} ms`);
    console.log(
      `| ${label} | ${f.perSecond.toFixed(0)} | ${f.rounds.map((x) => x.toFixed(0)).join(", ")} | ` +
        `${cpu("bench")} | ${cpu("gateways")} | ${cpu("servers")} | ${cpu("haproxy")} | ` +
        `${pct(f.busiestGateway)} | ${pct(f.clientsBusy)} |`,
    );
  }
  console.log(
    `\nMedians of the per-round ratios: two replicas against one, both behind HAProxy, ×${t.twoOverOne.toFixed(2)}; ` +
      `against one replica directly, ×${t.twoOverDirect.toFixed(2)}; HAProxy in front of one replica against none, ` +
      `×${t.balancerOverDirect.toFixed(2)}. ${bottleneck(t)}`,
  );
}

/**
 * What bounded the calls per second, from the measured CPU: a second replica can only help where one replica was
 * CPU-bound, and only with a CPU free for it.
 */
function bottleneck(t) {
  const one = t.replica;
  const busy = `one replica used ${(one.busiestGateway * 100).toFixed(0)} % of a CPU`;
  const cpus = os.cpus().length;
  const share = (k) => one.cpuMsPerCall[k] ?? 0;
  const perCall = share("bench") + share("gateways") + share("servers");
  const clients = `the clients' CPU per call (${share("bench").toFixed(2)} ms) is ${(share("bench") / share("gateways")).toFixed(1)} × the gateway's`;
  const ceiling = `${cpus} CPUs at ${perCall.toFixed(2)} ms of CPU per call for clients, gateway and server together allow at most ~${((cpus * 1000) / perCall).toFixed(0)} calls/s`;
  if (one.busiestGateway >= 0.9) {
    return `One replica was CPU-bound (${busy}): a second adds throughput only with a CPU free for it; ${ceiling}.`;
  }
  return (
    `The gateway was not the bottleneck (${busy}, the clients' process ${(one.clientsBusy * 100).toFixed(0)} %): ` +
    `${clients}, ${ceiling}, and every process here shares the CPUs with whatever else runs (the load average above), ` +
    `so the ratios above say how the CPUs were shared more than what a second replica can serve.`
  );
}

/** Per setup: the median calls per second over rounds, and CPU ms per call summed over the rounds. */
function summariseThroughput(results, rounds, ms) {
  const out = { concurrency: CONCURRENCY, seconds: ms / 1000, rounds };
  for (const [key, runs] of Object.entries(results)) {
    const calls = runs.reduce((n, r) => n + r.calls, 0);
    const cpuMsPerCall = {};
    for (const k of Object.keys(runs[0].cpu)) cpuMsPerCall[k] = (runs.reduce((n, r) => n + r.cpu[k], 0) * 1e3) / calls;
    out[key] = {
      perSecond: median(runs.map((r) => r.perSecond)),
      busiestGateway: median(runs.map((r) => r.busiest.gateways)),
      clientsBusy: median(runs.map((r) => r.busiest.bench)),
      rounds: runs.map((r) => r.perSecond),
      failures: runs.reduce((n, r) => n + r.failures, 0),
      cpuMsPerCall,
    };
  }
  // Ratios within a round (the setups ran one after the other), then their median: load that drifts between rounds
  // moves both sides of a ratio alike.
  const ratio = (a, b) => median(results[a].map((r, i) => r.perSecond / results[b][i].perSecond));
  out.twoOverOne = ratio("haproxy2", "haproxy1");
  out.twoOverDirect = ratio("haproxy2", "replica");
  out.balancerOverDirect = ratio("haproxy1", "replica");
  return out;
}

export async function main(argv) {
  const quick = argv.includes("--quick");
  const rounds = quick ? 2 : 10;
  const calls = quick ? 100 : 2000;
  const httpCalls = quick ? 100 : 1000;
  const many = quick ? 3 : 9;
  const tputRounds = quick ? 1 : 6;
  const tputMs = quick ? 1000 : 5000;
  const dir = mkdtempSync(join(os.tmpdir(), "backplane-bench-gateway-"));
  writeSecrets(dir);
  const loadAtStart = os.loadavg();
  const stops = [];
  try {
    const http = await startHttpGateway(CLI, dir, config(dir, 1));
    stops.push(http.stop);
    const paths = await latencyPaths(dir, http);
    const { samples, perRound, cpuUsPerCall } = await measureLatency(paths, rounds, calls, httpCalls);
    for (const p of paths) await p.client.close();
    await stops.pop()();
    const loadAfterLatency = os.loadavg();

    const memory = await measureMemory(dir, many);
    const haproxy = findHaproxy();
    const throughputResult = haproxy
      ? summariseThroughput(await measureThroughput(haproxy, dir, tputRounds, tputMs), tputRounds, tputMs)
      : { skipped: "HAProxy is not installed: neither `haproxy` on the PATH nor /usr/sbin/haproxy runs" };

    const direct = figures(samples.direct);
    const gateway = figures(samples.gateway);
    const httpFigures = (key) => {
      const f = figures(samples[key]);
      return { ...f, addedMedian: f.median - direct.median, addedP99: f.p99 - direct.p99 };
    };
    const baseline =
      samples.baseline === undefined
        ? {}
        : {
            baseline: {
              ...httpFigures("baseline"),
              addedRatio: median(perRound.map((r) => (r.gateway - r.direct) / (r.baseline - r.direct))),
            },
          };
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: { start: loadAtStart, afterLatency: loadAfterLatency, end: os.loadavg() },
      rounds,
      callsPerRound: calls,
      directUs: direct,
      gatewayUs: gateway,
      addedUs: {
        median: gateway.median - direct.median,
        p99: gateway.p99 - direct.p99,
        perRoundMedians: perRound.map((r) => r.gateway - r.direct),
      },
      hop: httpFigures("hop"),
      ...baseline,
      http: {
        callsPerRound: httpCalls,
        http2025: httpFigures("http2025"),
        http2026: httpFigures("http2026"),
        perRoundModernMinusLegacy: perRound.map((r) => r.http2026 - r.http2025),
        perRound,
      },
      cpuUsPerCall,
      gatewayRssKiB: memory,
      perServerKiB: memory[1] === null ? null : (memory[many] - memory[1]) / (many - 1),
      throughput: throughputResult,
    };
    console.log(`## Gateway (npm run bench -- --only gateway${quick ? " --quick" : ""})\n`);
    console.log(
      `${result.date}, Node ${result.node}, ${result.cpus} CPUs, load average ${load(loadAtStart)} → ${load(loadAfterLatency)} (latency) → ${load(result.loadAverage.end)}; ${rounds} rotating rounds of ${calls} sequential calls each (stdio), ${httpCalls} (HTTP).\n`,
    );
    printLatency(result, perRound);
    printHttp(result);
    printMemory(result, many);
    printThroughput(result);
    console.error(JSON.stringify(result));
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
