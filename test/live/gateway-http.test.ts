/**
 * `backplane-schema gateway --http` live (issue 34 §1): the Streamable HTTP front refuses a request without the bearer
 * token (or with another), a foreign Origin and a Host that does not name the loopback address, and serves a real SDK
 * client that sends the token; a second gateway reaches the first as a Streamable HTTP upstream. SIGTERM ends it.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, misbehaving, startGateway, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";

const TOKEN = "a-token-of-at-least-16-characters";
let dir = "";
let child: ChildProcess;
let stderr = "";
let endpoint = "";

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-http-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  const args = ["gateway", "--config", "config.json", "--http", "127.0.0.1:0", "--token-file", "token"];
  child = spawn(process.execPath, [CLI, ...args, "--allow-origin", "http://localhost:3000"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += String(chunk);
  });
  endpoint = await until("the HTTP front to listen", () => /serving Streamable HTTP at (\S+)/.exec(stderr)?.[1]);
});
after(async () => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await until("the gateway to exit", () => child.exitCode !== null);
  }
  rmSync(dir, { recursive: true, force: true });
});

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
});

function post(headers: Record<string, string>, url = endpoint): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: initialize,
  });
}

/** The status of a POST whose Host header names `host` (DNS rebinding: a foreign name resolving to 127.0.0.1). */
function withHost(host: string, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(endpoint, {
      method: "POST",
      headers: { ...headers, host, "content-type": "application/json" },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on("error", reject);
    request.end(initialize);
  });
}

describe("gateway: the Streamable HTTP front", () => {
  test("a request without the token, with another token, a foreign Origin or a foreign Host is refused", async () => {
    const none = await post({});
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer /);
    assert.equal((await post({ authorization: "Bearer not-the-token-at-all" })).status, 401);
    assert.equal((await post({ authorization: TOKEN })).status, 401, "the Bearer scheme is required");
    const bearer = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await post({ ...bearer, origin: "https://evil.example" })).status, 403);
    assert.equal(await withHost("evil.example", bearer), 403, "fetch cannot set Host: sent with node:http");
    assert.equal((await post(bearer, endpoint.replace(/\/mcp$/, "/other"))).status, 404);
    const ok = await post({ ...bearer, origin: "http://localhost:3000" });
    assert.equal(ok.status, 200);
    assert.ok(ok.headers.get("mcp-session-id"));
  });

  test("an SDK client with the token lists and calls the tools", async () => {
    const client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "alpha__echo"));
      assert.equal(
        textOf(await client.callTool({ name: "alpha__echo", arguments: { message: "over http" } })),
        "alpha: over http",
      );
      const invalid = await client.callTool({ name: "alpha__echo", arguments: { message: 1 } });
      assert.equal(invalid.isError, true);
    } finally {
      await client.close();
    }
  });

  test("a gateway reaches this one as a Streamable HTTP upstream", async () => {
    const front = { url: endpoint, headers: { Authorization: `Bearer ${TOKEN}` } };
    const gateway = await startGateway({ servers: { front } });
    try {
      const { tools } = await gateway.client.listTools();
      assert.ok(tools.some((t) => t.name === "front__alpha__echo"));
      const result = await gateway.client.callTool({ name: "front__alpha__echo", arguments: { message: "twice" } });
      assert.equal(textOf(result), "alpha: twice");
    } finally {
      await gateway.close();
    }
  });

  test("SIGTERM ends the gateway cleanly", async () => {
    child.kill("SIGTERM");
    await until("the gateway to exit", () => child.exitCode !== null || child.signalCode !== null);
    assert.equal(child.exitCode, 0);
  });
});
