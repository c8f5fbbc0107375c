/**
 * A real load balancer for the replica tests: HAProxy (Debian's package; `.ci/run` installs it) started in the
 * foreground on a free loopback port in front of the given backends. Requests without a session header are balanced
 * round-robin, each one on its own (HAProxy's default keep-alive mode does that: no `option http-server-close` is
 * needed, and no `option prefer-last-server` may be set); a request whose `Mcp-Session-Id` (or the header named
 * in `stickyOn`) a backend set on an earlier response goes back to that backend (a stick table filled from the response
 * header); responses stream through unbuffered, with timeouts long enough for SSE streams; a backend that stops is
 * taken out by its health check and a request it refused is sent to another (`option redispatch`). The configuration is
 * {@link haproxyConfig}; docs/guide/gateway.md "Running several gateways" quotes it.
 */

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./conformance.js";

export interface Backend {
  readonly host: string;
  readonly port: number;
}

export interface LoadBalancerOptions {
  readonly backends: readonly Backend[];
  /** The header a backend sets on a response to pin the client to it (a 2025-11-25 session). */
  readonly stickyOn?: string;
}

export interface LoadBalancer {
  /** `http://127.0.0.1:<port>`: append the path (`/mcp`). */
  readonly url: string;
  /** What HAProxy wrote (warnings, a backend marked down). */
  output(): string;
  stop(): Promise<void>;
}

/** A header name HAProxy's configuration can hold as it is (no spaces, parentheses or quotes). */
const HEADER = /^[A-Za-z0-9-]{1,64}$/;

/** The HAProxy configuration: `bind` is `host:port`; the backends are named `replica1`, `replica2`, ... */
export function haproxyConfig(bind: string, options: LoadBalancerOptions): string {
  assert.ok(options.backends.length > 0, "at least one backend");
  const sticky = options.stickyOn;
  if (sticky !== undefined) assert.match(sticky, HEADER, "a plain header name");
  const stick =
    sticky === undefined
      ? []
      : [
          "    stick-table type string len 128 size 100k expire 30m",
          `    stick store-response res.hdr(${sticky})`,
          `    stick match req.hdr(${sticky})`,
        ];
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
    ...stick,
    "    default-server check inter 1s fall 1 rise 1",
    ...options.backends.map((b, i) => `    server replica${i + 1} ${b.host}:${b.port}`),
    "",
  ].join("\n");
}

/** Whether `haproxy` is on the PATH (`.ci/run` installs it; elsewhere the replica tests need it installed). */
export function haproxyAvailable(): boolean {
  return spawnSync("haproxy", ["-v"], { stdio: "ignore" }).status === 0;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/**
 * Writes the configuration into a temp directory, checks it (`haproxy -c`), starts `haproxy -f <cfg> -db` and resolves
 * once its port accepts connections (within `timeoutMs`); rejects, with HAProxy stopped, if it exits or does not listen
 * in time. `stop()` ends it (SIGTERM, SIGKILL after 5 s) and removes the directory.
 */
export async function startLoadBalancer(options: LoadBalancerOptions, timeoutMs = 15_000): Promise<LoadBalancer> {
  const dir = mkdtempSync(join(tmpdir(), "backplane-haproxy-"));
  const port = await freePort();
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, haproxyConfig(`127.0.0.1:${port}`, options));
  const checked = spawnSync("haproxy", ["-c", "-q", "-f", file], { encoding: "utf8" });
  assert.equal(checked.status, 0, `haproxy rejects its configuration:\n${checked.stderr}`);
  const child = spawn("haproxy", ["-f", file, "-db"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-100_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const end = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > end) {
      await stop();
      assert.fail(`haproxy did not listen on ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
