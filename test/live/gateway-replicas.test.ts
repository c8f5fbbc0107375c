/**
 * Two `backplane-schema gateway --http` replicas behind HAProxy (issue 45 §Replicas), in front of one Streamable HTTP
 * server (server-everything): pins read-only from one file (`--pins-mode enforce`), one `--request-state-key` file,
 * each naming the other with `--peer`. A 2026-07-28 client's calls are served by both (their audit logs show it); a
 * retry sent to the replica that does not hold the parked call is handed on to the one that does and completes;
 * 2025-11-25 sessions stay on one replica (sticky on `Mcp-Session-Id`); a stopped replica keeps the calls it completed
 * in its audit log, and the other serves what comes next.
 */

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort } from "./conformance.js";
import { CLI, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";
import { haproxyAvailable, startLoadBalancer, type LoadBalancer } from "./load-balancer.js";
import { envelope, modernClient, post } from "./modern-helpers.js";
import { script } from "./servers.js";

const TOKEN = "a-token-of-at-least-16-characters";
const skip = haproxyAvailable() ? false : "HAProxy is not installed (.ci/run installs it)";

interface Replica {
  readonly id: string;
  readonly port: number;
  readonly child: ChildProcess;
  stderr: string;
}

let dir = "";
let upstream: ChildProcess | undefined;
const replicas: Replica[] = [];
let balancer: LoadBalancer | undefined;

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.kill("SIGTERM");
  return until("a child to exit", () => child.exitCode !== null || child.signalCode !== null, 15_000).then(() => {});
}

function gateway(args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [CLI, "gateway", "--config", "config.json", ...args], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  return { child, stderr: () => stderr };
}

function audit(replica: Replica): Record<string, unknown>[] {
  const file = join(dir, `audit-${replica.id}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry["event"] === "call");
}

before(async () => {
  if (skip !== false) return;
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-replicas-"));
  const port = await freePort();
  upstream = spawn(process.execPath, [script("@modelcontextprotocol/server-everything"), "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let upstreamErr = "";
  upstream.stderr?.on("data", (chunk: Buffer) => (upstreamErr += String(chunk)));
  await until("server-everything to listen", () => /listening|running/i.test(upstreamErr), 20_000);
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ mcpServers: { everything: { url: `http://127.0.0.1:${port}/mcp` } } }),
  );
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  writeFileSync(join(dir, "key"), new Uint8Array(randomBytes(32)));
  // The pins every replica enforces, written once by a first run (trust on first use) and never again.
  const first = gateway(["--http", "127.0.0.1:0", "--token-file", "token", "--pins", "pins.json"]);
  await until("the first run to pin the tools", () => /admitted \d+ tools/.test(first.stderr()), 30_000);
  await until("the pins file", () => existsSync(join(dir, "pins.json")));
  await stop(first.child);
  const ports = [await freePort(), await freePort()];
  const ids = ["a", "b"];
  for (const [i, id] of ids.entries()) {
    const other = i === 0 ? 1 : 0;
    const args = [
      ...["--http", `127.0.0.1:${ports[i]}`, "--token-file", "token", "--pins", "pins.json"],
      ...["--pins-mode", "enforce", "--request-state-key", "key", "--replica-id", id],
      ...["--peer", `${ids[other]}=http://127.0.0.1:${ports[other]}/mcp`, "--audit", `audit-${id}.jsonl`],
    ];
    const started = gateway(args);
    const replica: Replica = {
      id,
      port: ports[i]!,
      child: started.child,
      get stderr() {
        return started.stderr();
      },
    };
    replicas.push(replica);
  }
  for (const replica of replicas) {
    await until(`replica ${replica.id} to admit its tools`, () => /admitted \d+ tools/.test(replica.stderr), 30_000);
  }
  balancer = await startLoadBalancer({
    backends: replicas.map((r) => ({ host: "127.0.0.1", port: r.port })),
    stickyOn: "Mcp-Session-Id",
  });
});

after(async () => {
  await balancer?.stop();
  await Promise.all(replicas.map((r) => stop(r.child)));
  await stop(upstream);
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** A raw 2026-07-28 `tools/call` to one replica. */
async function call(replica: Replica, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const front = { endpoint: `http://127.0.0.1:${replica.port}/mcp`, token: TOKEN };
  return (await post(front, { method: "tools/call", params, id: 1 })).body;
}

describe("gateway: two replicas behind HAProxy", { skip }, () => {
  test("a 2026-07-28 client's calls are served by both replicas, every one answered", async () => {
    const client = await modernClient({ endpoint: `${balancer!.url}/mcp`, token: TOKEN });
    try {
      for (let i = 0; i < 8; i++) {
        const result = await client.callTool({ name: "everything__echo", arguments: { message: `m${i}` } });
        assert.equal(textOf(result), `Echo: m${i}`);
      }
      const sampled = await client.callTool({
        name: "everything__trigger-sampling-request",
        arguments: { prompt: "q" },
      });
      assert.match(textOf(sampled), /sampled!/);
    } finally {
      await client.close();
    }
    const served = replicas.map((r) => audit(r).filter((e) => e["tool"] === "everything__echo").length);
    assert.equal(served[0]! + served[1]!, 8, JSON.stringify(replicas.map(audit)));
    assert.ok(served[0]! > 0 && served[1]! > 0, `both replicas serve: ${served.join(" / ")}`);
  });

  test("a retry sent to the other replica is handed on to the one holding the parked call", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const meta = envelope({ sampling: {} });
    const params = { name: "everything__trigger-sampling-request", arguments: { prompt: "handed on" }, _meta: meta };
    const asked = (await call(a, params))["result"] as { resultType: string; requestState: string };
    assert.equal(asked.resultType, "input_required");
    const answer = { role: "assistant", content: { type: "text", text: "from b" }, model: "m" };
    const done = await call(b, { ...params, requestState: asked.requestState, inputResponses: { q1: answer } });
    assert.match(textOf(done["result"]), /from b/);
    // The call ran at a: its audit log has it, b's has no call for it.
    assert.ok(
      audit(a).some((e) => e["tool"] === "everything__trigger-sampling-request" && e["outcome"] === "dispatched"),
    );
  });

  test("2025-11-25 sessions stay on one replica; a stopped replica keeps what it completed", async () => {
    const client = new Client({ name: "legacy", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${balancer!.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      for (let i = 0; i < 4; i++) {
        assert.equal(
          textOf(await client.callTool({ name: "everything__echo", arguments: { message: `s${i}` } })),
          `Echo: s${i}`,
        );
      }
    } finally {
      await client.close();
    }
    const b = replicas[1]!;
    await stop(b.child);
    // Every echo answered so far (8 in the first test, 4 here) is in one replica's audit log, the stopped one's too.
    const echoes = replicas
      .flatMap(audit)
      .filter((e) => e["tool"] === "everything__echo" && e["outcome"] === "dispatched");
    assert.equal(echoes.length, 12, "no completed call is missing from the audit logs");
    const modern = await modernClient({ endpoint: `${balancer!.url}/mcp`, token: TOKEN });
    try {
      for (let i = 0; i < 4; i++) {
        const result = await modern.callTool({ name: "everything__echo", arguments: { message: `after${i}` } });
        assert.equal(textOf(result), `Echo: after${i}`);
      }
    } finally {
      await modern.close();
    }
  });
});
