/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned devDependency) against its own test
 * server, directly and through `backplane-schema gateway --http`. The test server is the suite's
 * `everything-server.ts`, which the npm package does not ship: it is read from the conformance folder of the shared
 * reference material beside the checkout, compiled with esbuild into `build/conformance/` (so it resolves the
 * project's own SDK, express and cors) and started on a free loopback port. Every wait is bounded; every child is
 * stopped when the test is done.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { until } from "../until.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (this file runs from build/test/live). */
const root = resolve(here, "..", "..", "..");
const require = createRequire(import.meta.url);

/** Where the suite's test server is kept: the shared reference folder beside the checkout. */
export function conformanceServerSource(): string {
  const source = resolve(root, "..", "shared", "mcp-conformance", "everything-server.ts");
  if (!existsSync(source)) assert.fail(`the conformance test server is missing: expected ${source}`);
  return source;
}

/** A child process with its output kept, stopped by `stop()`. */
export interface Child {
  readonly process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Child {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += String(chunk);
    if (output.length > 1_000_000) output = output.slice(-500_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const exited = new Promise((done) => child.once("exit", done));
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A loopback port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Compiles the suite's test server and starts it; resolves with its endpoint once it answers. */
export async function startConformanceServer(): Promise<{ endpoint: string; child: Child }> {
  const outdir = join(root, "build", "conformance");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, "everything-server.mjs");
  await build({
    entryPoints: [conformanceServerSource()],
    outfile,
    format: "esm",
    platform: "node",
    bundle: false,
    logLevel: "silent",
  });
  const port = await freePort();
  const child = start(process.execPath, [outfile], { ...process.env, PORT: String(port) }, outdir);
  const endpoint = `http://localhost:${port}/mcp`;
  await until(
    "the conformance test server to listen",
    () => child.output().includes(String(port)) || child.process.exitCode !== null,
    30_000,
  );
  assert.equal(child.process.exitCode, null, `the conformance test server exited:\n${child.output()}`);
  return { endpoint, child };
}

/** One scenario's checks, as the suite wrote them. */
export interface ScenarioResult {
  readonly scenario: string;
  readonly passed: number;
  readonly failed: number;
  /** The failed checks' ids and messages. */
  readonly failures: readonly string[];
}

interface Check {
  id?: string;
  status?: string;
  errorMessage?: string;
}

/**
 * Runs `conformance server --url <endpoint> --suite all` and reads every scenario's `checks.json`. The suite's CLI
 * imports `fs.globSync` (Node 22) for a command the server run never calls; on Node 20 a module hook
 * (conformance-hook.ts) gives it that name, and only it.
 */
export async function runConformance(endpoint: string): Promise<ScenarioResult[]> {
  const out = mkdtempSync(join(tmpdir(), "backplane-conformance-"));
  const cli = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
  const hook = join(here, "conformance-hook.js");
  const major = Number(process.versions.node.split(".")[0]);
  const node = major >= 22 ? [] : ["--import", hook];
  const child = start(
    process.execPath,
    [...node, cli, "server", "--url", endpoint, "--suite", "all", "-o", out],
    process.env,
    out,
  );
  await until("the conformance suite to finish", () => child.process.exitCode !== null, 180_000).catch(
    async (e: unknown) => {
      await child.stop();
      throw e;
    },
  );
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(out).sort()) {
    const file = join(out, entry, "checks.json");
    if (!existsSync(file)) continue;
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(file, "utf8")) as Check[];
    const failedChecks = checks.filter((c) => c.status === "FAILURE");
    results.push({
      scenario,
      passed: checks.filter((c) => c.status === "SUCCESS").length,
      failed: failedChecks.length,
      failures: failedChecks.map((c) => `${c.id ?? "?"}: ${c.errorMessage ?? ""}`),
    });
  }
  assert.ok(results.length > 0, `the conformance suite wrote no results:\n${child.output()}`);
  return results;
}

/**
 * A loopback proxy that adds the gateway's bearer token: the suite's CLI cannot send one. A Host or Origin naming the
 * proxy's own loopback address is moved to the gateway's port (what a client talking to the gateway directly would
 * send); any other Host or Origin, the method, path, body and streamed answers pass through unchanged, so the suite's
 * DNS-rebinding checks still meet the gateway's own guards.
 */
export async function tokenProxy(target: string, token: string): Promise<{ endpoint: string; server: Server }> {
  const upstream = new URL(target);
  let own = "";
  const moved = (value: string | undefined, prefix: string) => {
    for (const host of ["localhost", "127.0.0.1"]) {
      if (value === `${prefix}${host}:${own}`) return `${prefix}${host}:${upstream.port}`;
    }
    return value;
  };
  const server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    headers.host = moved(req.headers.host, "");
    if (req.headers.origin !== undefined) headers.origin = moved(req.headers.origin, "http://");
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  own = String(port);
  return { endpoint: `http://localhost:${port}${upstream.pathname}`, server };
}

/** `backplane-schema gateway --http` in front of one Streamable HTTP upstream, with `extra` options. */
export async function startHttpGateway(
  upstream: string,
  cli: string,
  extra: string[] = [],
): Promise<{ endpoint: string; token: string; child: Child }> {
  const dir = mkdtempSync(join(tmpdir(), "backplane-conformance-gateway-"));
  const token = "conformance-token-0123456789";
  writeFileSync(join(dir, "token"), `${token}\n`);
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { everything: { url: upstream } } }));
  const args = [cli, "gateway", "--config", "config.json", "--http", "127.0.0.1:0", "--token-file", "token"];
  const child = start(process.execPath, [...args, ...extra], process.env, dir);
  const endpoint = await until(
    "the gateway's HTTP front to listen",
    () => /serving Streamable HTTP at (\S+)/.exec(child.output())?.[1] ?? (child.process.exitCode !== null && "exit"),
    60_000,
  );
  assert.notEqual(endpoint, "exit", `the gateway exited:\n${child.output()}`);
  return { endpoint, token, child };
}
