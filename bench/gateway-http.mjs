// The gateway's HTTP front for bench/gateway.mjs: `backplane-schema gateway --http` processes in front of the trivial
// stdio server (bench/gateway-server.mjs, each gateway its own child), the two clients a front serves (an SDK 1.x
// client holding a 2025-11-25 session over Streamable HTTP, and an SDK 2.x client whose `versionNegotiation: auto`
// settles on the stateless 2026-07-28 form), HAProxy in front of replicas (the configuration of the replica tests,
// test/live/load-balancer.ts, without its stick table: only 2026-07-28 clients go through it here), and a closed-loop
// throughput measurement: N clients, each one call at a time, for a fixed time.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, connect as connectTcp } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";

const TOKEN = "a-bench-token-of-at-least-16-characters";

/** Polls `probe` until it returns something truthy; throws `what` after `ms`. */
async function until(what, probe, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** The directory's token and `requestState` key files, written once. */
export function writeSecrets(dir) {
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  writeFileSync(join(dir, "key"), new Uint8Array(randomBytes(32)));
}

/**
 * Starts `gateway --http` on `port` (0: any) in `dir` with `config` (one server), extra flags `more`; resolves once it
 * serves and has admitted its server's tools. `stop()` ends it (SIGTERM) and waits.
 */
export async function startHttpGateway(cli, dir, config, port = 0, more = []) {
  const args = [cli, "gateway", "--config", config, "--http", `127.0.0.1:${port}`, "--token-file", "token", ...more];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + String(chunk)).slice(-20_000)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const url = await until("the gateway's HTTP front", () => {
    if (gone()) throw new Error(`the gateway exited:\n${stderr}`);
    return /serving Streamable HTTP at (\S+)/.exec(stderr)?.[1];
  });
  await until("the gateway to admit its server", () => /admitted \d+ tools from 1 of 1 servers/.test(stderr));
  const stop = async () => {
    if (gone()) return;
    child.kill("SIGTERM");
    await until("the gateway to exit", gone, 15_000);
  };
  return { url, pid: child.pid, stop };
}

/**
 * Two replicas starting (an array of promises, for `startedAll`), as docs/guide/gateway.md "Running several gateways"
 * configures them: each its own `--replica-id`, the other as `--peer`, one `--request-state-key` file. Pins stay in
 * memory (no `--pins`): each replica pins its own child's one tool on first use, where that section shares one
 * read-only pins file.
 */
export async function startReplicas(cli, dir, config) {
  const ports = [await freePort(), await freePort()];
  const ids = ["a", "b"];
  return ids.map((id, i) =>
    startHttpGateway(cli, dir, config, ports[i], [
      ...["--replica-id", id, "--request-state-key", "key"],
      ...["--peer", `${ids[1 - i]}=http://127.0.0.1:${ports[1 - i]}/mcp`],
    ]),
  );
}

/**
 * Waits for processes started together; each one that started has its `stop` pushed onto `stops` (so the caller stops
 * it), and the first failure is thrown once all have settled: none is left running unseen.
 */
export async function startedAll(starting, stops) {
  const settled = await Promise.allSettled(await starting);
  for (const s of settled) if (s.status === "fulfilled") stops.push(s.value.stop);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => s.value);
}

/** An SDK 1.x client over Streamable HTTP: `initialize`, then every call in its 2025-11-25 session. */
export async function legacyClient(url) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

/** An SDK 2.x client in auto mode; throws unless it negotiated 2026-07-28 (stateless) with the gateway. */
export async function modernClient(url) {
  const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new ModernTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  const version = client.getNegotiatedProtocolVersion?.();
  if (version !== "2026-07-28") throw new Error(`the SDK 2.x client negotiated ${version}, not 2026-07-28`);
  return client;
}

/** HAProxy's configuration: test/live/load-balancer.ts's `haproxyConfig`, less the stick table (no sessions here). */
function haproxyConfig(bind, backends) {
  return [
    "global",
    "    maxconn 4096",
    "",
    "defaults",
    "    mode http",
    "    option redispatch 1",
    "    retries 3",
    "    timeout connect 5s",
    "    timeout client 1h",
    "    timeout server 1h",
    "    timeout http-request 30s",
    "",
    "frontend mcp",
    `    bind ${bind}`,
    "    default_backend gateways",
    "",
    "backend gateways",
    "    balance roundrobin",
    "    default-server check inter 1s fall 1 rise 1",
    ...backends.map((b, i) => `    server replica${i + 1} ${b}`),
    "",
  ].join("\n");
}

/** `haproxy` on the PATH, else Debian's /usr/sbin/haproxy (not on every user's PATH); null when neither runs. */
export const findHaproxy = () =>
  ["haproxy", "/usr/sbin/haproxy"].find((c) => spawnSync(c, ["-v"], { stdio: "ignore" }).status === 0) ?? null;

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = connectTcp({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/** HAProxy (`haproxy`: its command) in front of `urls` (gateway MCP endpoints); resolves once it listens. */
export async function startHaproxy(haproxy, dir, name, urls) {
  const port = await freePort();
  const file = join(dir, `${name}.cfg`);
  writeFileSync(
    file,
    haproxyConfig(
      `127.0.0.1:${port}`,
      urls.map((u) => new URL(u).host),
    ),
  );
  const checked = spawnSync(haproxy, ["-c", "-q", "-f", file], { encoding: "utf8" });
  if (checked.status !== 0) throw new Error(`haproxy rejects its configuration:\n${checked.stderr}`);
  const child = spawn(haproxy, ["-f", file, "-db"], { cwd: dir, stdio: "ignore" });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const end = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (gone() || Date.now() > end) throw new Error(`haproxy did not listen on ${port}`);
    await sleep(25);
  }
  // The health checks mark every backend up within `inter 1s`; wait them out so no request meets a down server.
  await sleep(1500);
  const stop = async () => {
    if (gone()) return;
    child.kill("SIGTERM");
    await until("haproxy to exit", gone, 10_000);
  };
  return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid, stop };
}

/** CPU seconds a process (and its reaped children: none here) has used: utime + stime from /proc, or null. */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100 on Linux)
  } catch {
    return null;
  }
}

/** The pids of a process's direct children (the gateway's stdio server), from /proc. */
export function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Closed loop: each client calls `tool` one call at a time, back to back, for `ms`; returns the calls completed, the
 * CPU seconds each group of processes (`pids`: { label: [pid, ...] }) and this one spent meanwhile, and per group the
 * busiest process's share of one CPU (1: it never waited for work). A call that fails is counted apart (none is
 * expected).
 */
export async function throughput(clients, tool, ms, pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([k, ps]) => [k, ps.map(cpuSeconds)]));
  const self = process.cpuUsage();
  const end = performance.now() + ms;
  let calls = 0;
  let failures = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const result = await client.callTool({ name: tool, arguments: { message: "x" } });
        if (result.isError) failures++;
        else calls++;
      }
    }),
  );
  const elapsed = ms + Math.max(0, performance.now() - end);
  const used = process.cpuUsage(self);
  const cpu = { bench: (used.user + used.system) / 1e6 };
  const busiest = {};
  for (const [k, ps] of Object.entries(pids)) {
    const each = ps.map((pid, i) => (cpuSeconds(pid) ?? NaN) - (before[k][i] ?? NaN));
    cpu[k] = each.reduce((sum, x) => sum + x, 0);
    busiest[k] = Math.max(...each) / (elapsed / 1000);
  }
  busiest.bench = cpu.bench / (elapsed / 1000);
  return { calls, failures, seconds: elapsed / 1000, perSecond: calls / (elapsed / 1000), cpu, busiest };
}
