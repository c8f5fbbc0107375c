/**
 * Issue 44, observations 6, 7 and 20 over the Streamable HTTP front: SDK 1.x clients that close without a `DELETE`
 * (an IDE reloading) never fill the session table; an idle session expires after `--session-idle-timeout`; what a
 * server sends during a tool call (a sampling request, log messages) travels on that call's POST stream, so a client
 * that opened no GET stream gets it; a wrong token is told apart from none.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLI, misbehaving, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";

const TOKEN = "a-token-of-at-least-16-characters";
const SESSIONS = 64;
let dir = "";
let child: ChildProcess;
let stderr = "";
let endpoint = "";

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-sessions-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  const args = ["gateway", "--config", "config.json", "--http", "127.0.0.1:0", "--token-file", "token"];
  child = spawn(process.execPath, [CLI, ...args, "--session-idle-timeout", "600000"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += String(chunk);
  });
  endpoint = await until(
    "the HTTP front to listen",
    () => /serving Streamable HTTP at (\S+)/.exec(stderr)?.[1],
    60_000,
  );
});
after(async () => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await until("the gateway to exit", () => child.exitCode !== null || child.signalCode !== null, 30_000);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** An SDK client whose transport never opens the GET stream (its GET is answered 405 before it leaves). */
function transport(noGet: boolean): StreamableHTTPClientTransport {
  const fetchNoGet = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (noGet && (init?.method ?? "GET") === "GET") return new Response(null, { status: 405 });
    return fetch(url, init);
  };
  return new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: fetchNoGet,
  });
}

const TIMEOUT = { timeout: 240_000 };

describe("gateway: HTTP sessions and streams (issue 44)", () => {
  test(`observation 6: ${SESSIONS + 8} connect/close cycles of the SDK client all succeed`, TIMEOUT, async () => {
    for (let i = 0; i < SESSIONS + 8; i++) {
      const client = new Client({ name: `reload-${i}`, version: "1.0.0" });
      await client.connect(transport(false));
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((t) => t.name === "alpha__echo"),
        `cycle ${i}`,
      );
      await client.close(); // sends no DELETE
    }
    assert.match(stderr, /closed: the least recently used idle session, for a new client \(64 open\)/);
    assert.doesNotMatch(stderr, /too many sessions/);
  });

  test(
    "observation 7: a call's sampling request and log messages reach a client with no GET stream",
    TIMEOUT,
    async () => {
      const client = new Client({ name: "no-get", version: "1.0.0" }, { capabilities: { sampling: {} } });
      let sampled = 0;
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        sampled++;
        return { role: "assistant", content: { type: "text", text: "sampled text" }, model: "test-model" };
      });
      const logs: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
      await client.connect(transport(true));
      try {
        const sample = await client.callTool({ name: "alpha__sample", arguments: { prompt: "hi", timeoutMs: 30_000 } });
        assert.match(textOf(sample), /^sampled \(0 progress\): .*sampled text/);
        assert.equal(sampled, 1);
        const log = await client.callTool({ name: "alpha__log", arguments: {} });
        assert.equal(textOf(log), "logged 3");
        assert.deepEqual(logs, ["log 1", "log 2", "log 3"]);
      } finally {
        await client.close();
      }
    },
  );

  test("observation 20: a wrong bearer token is told apart from none", async () => {
    const status = async (headers: Record<string, string>) => {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: "{}",
      });
      return `${response.status} ${((await response.json()) as { error: { message: string } }).error.message}`;
    };
    assert.match(await status({}), /^401 unauthorized: a bearer token is required/);
    assert.match(await status({ authorization: "Bearer wrong-token" }), /^401 .*not the one in --token-file/);
  });
});

describe("gateway: an idle HTTP session expires", () => {
  test("after --session-idle-timeout the session is closed and its id unknown", TIMEOUT, async () => {
    const idleDir = mkdtempSync(join(tmpdir(), "backplane-gateway-idle-"));
    writeFileSync(join(idleDir, "config.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
    writeFileSync(join(idleDir, "token"), `${TOKEN}\n`);
    const args = ["gateway", "--config", "config.json", "--http", "127.0.0.1:0", "--token-file", "token"];
    const idle = spawn(process.execPath, [CLI, ...args, "--session-idle-timeout", "300"], {
      cwd: idleDir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    idle.stderr?.on("data", (chunk: Buffer) => (err += String(chunk)));
    try {
      const url = await until("the front", () => /serving Streamable HTTP at (\S+)/.exec(err)?.[1], 60_000);
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${TOKEN}`,
      };
      const init = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "idle", version: "1" } },
        }),
      });
      const session = init.headers.get("mcp-session-id") as string;
      await init.text();
      await until(
        "the session to expire",
        () => /closed: idle for 300 ms \(--session-idle-timeout\)/.test(err),
        60_000,
      );
      const after = await fetch(url, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": session },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
      });
      assert.equal(after.status, 404);
    } finally {
      idle.kill("SIGTERM");
      await until("the gateway to exit", () => idle.exitCode !== null || idle.signalCode !== null, 30_000);
      rmSync(idleDir, { recursive: true, force: true });
    }
  });
});
