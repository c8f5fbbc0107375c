// npm run bench -- --only gateway [--quick]: what `backplane-schema gateway` (dist/) adds to a tool call, and what each
// server costs it. Latency: an SDK 1.x client calls a trivial stdio tool (bench/gateway-server.mjs) directly and
// through the gateway, in alternating rounds, one call at a time; the added latency is the gateway's median (and
// p99) minus the direct one. Memory: the gateway's resident set with 1 and with 9 servers behind it (3 with --quick),
// after listing and calling every server; per server is the difference over 8 (2). Prints markdown (and the figures as JSON on stderr).
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./data.mjs";
import { median } from "./stats.mjs";

const SERVER = join(REPO, "bench", "gateway-server.mjs");
const CLI = join(REPO, "dist", "cli", "main.js");

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

export async function main(argv) {
  const quick = argv.includes("--quick");
  const rounds = quick ? 2 : 10;
  const calls = quick ? 100 : 2000;
  const warm = quick ? 100 : 2000;
  const many = quick ? 3 : 9;
  const dir = mkdtempSync(join(os.tmpdir(), "backplane-bench-gateway-"));
  const loadAtStart = os.loadavg();
  try {
    const direct = await connect([SERVER]);
    const gateway = await connect([CLI, "gateway", "--config", config(dir, 1)]);
    await timeCalls(direct.client, "echo", warm);
    await timeCalls(gateway.client, "s0__echo", warm);
    const samples = { direct: [], gateway: [] };
    const perRound = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? ["gateway", "direct"] : ["direct", "gateway"];
      const round = {};
      for (const which of order) {
        const times = await timeCalls(
          which === "direct" ? direct.client : gateway.client,
          which === "direct" ? "echo" : "s0__echo",
          calls,
        );
        samples[which].push(...times);
        round[which] = median(times);
      }
      perRound.push(round.gateway - round.direct);
    }
    await direct.client.close();
    await gateway.client.close();

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

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: { start: loadAtStart, end: os.loadavg() },
      rounds,
      callsPerRound: calls,
      directUs: { median: median(samples.direct), p99: percentile(samples.direct, 0.99) },
      gatewayUs: { median: median(samples.gateway), p99: percentile(samples.gateway, 0.99) },
      addedUs: {
        median: median(samples.gateway) - median(samples.direct),
        p99: percentile(samples.gateway, 0.99) - percentile(samples.direct, 0.99),
        perRoundMedians: perRound,
      },
      gatewayRssKiB: memory,
      perServerKiB: memory[1] === null ? null : (memory[many] - memory[1]) / (many - 1),
    };
    const us = (x) => `${x.toFixed(0)} µs`;
    const load = (l) => l.map((x) => x.toFixed(2)).join(" ");
    console.log(`## Gateway (npm run bench -- --only gateway${quick ? " --quick" : ""})\n`);
    console.log(
      `${result.date}, Node ${result.node}, ${result.cpus} CPUs, load average ${load(loadAtStart)} → ${load(result.loadAverage.end)}; ${rounds} alternating rounds of ${calls} sequential calls each.\n`,
    );
    console.log("| trivial stdio tool | median | p99 |");
    console.log("|---|---|---|");
    console.log(`| direct (client → server) | ${us(result.directUs.median)} | ${us(result.directUs.p99)} |`);
    console.log(`| through the gateway | ${us(result.gatewayUs.median)} | ${us(result.gatewayUs.p99)} |`);
    console.log(`| added by the gateway | ${us(result.addedUs.median)} | ${us(result.addedUs.p99)} |`);
    console.log(`\nPer-round added medians: ${perRound.map((x) => x.toFixed(0)).join(", ")} µs.`);
    if (result.perServerKiB !== null) {
      const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
      console.log(
        `\nGateway resident set: ${mib(memory[1])} with 1 server, ${mib(memory[many])} with ${many}: ` +
          `${(result.perServerKiB / 1024).toFixed(2)} MiB per server (each server is its own process besides).`,
      );
    }
    console.error(JSON.stringify(result));
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
