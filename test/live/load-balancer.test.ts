/**
 * The load balancer the replica tests put in front of several gateways (load-balancer.ts), proven against two plain
 * Node http backends: successive requests from one client alternate between them; a request carrying a session id a
 * backend set stays on that backend; an SSE response arrives event by event, not when the backend ends it; a stopped
 * backend's share goes to the other. And the configuration docs/guide/gateway.md quotes is the one the helper writes.
 * Then in front of two SDK 2.x test servers (modern-server.ts): 2026-07-28 requests are served by both, a 2025-11-25
 * client's session (with an elicitation on its call's stream) stays on the server that opened it.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Agent, createServer, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { haproxyAvailable, haproxyConfig, startLoadBalancer, type LoadBalancer } from "./load-balancer.js";
import { startModernServer, type ModernServer } from "./modern-server.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

interface TestBackend {
  readonly name: string;
  readonly server: Server;
  readonly port: number;
  /** Ends the SSE streams this backend holds open. */
  release(): void;
}

/** A backend that names itself, sets `Mcp-Session-Id: <name>-<n>` on `/session`, and holds `/sse` open until released. */
async function backend(name: string): Promise<TestBackend> {
  let sessions = 0;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream", "x-backend": name });
      res.write("data: one\n\n");
      held.push(res);
      return;
    }
    const headers: Record<string, string> = { "content-type": "text/plain", "x-backend": name };
    if (req.url === "/session") headers["mcp-session-id"] = `${name}-${++sessions}`;
    res.writeHead(200, headers).end(name);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const release = () => {
    for (const res of held.splice(0)) res.end("data: two\n\n");
  };
  return { name, server, port: (server.address() as AddressInfo).port, release };
}

let a: TestBackend | undefined;
let b: TestBackend | undefined;
let balancer: LoadBalancer | undefined;

before(async () => {
  assert.ok(haproxyAvailable(), "haproxy is not installed (apt-get install -y haproxy; .ci/run does)");
  a = await backend("A");
  b = await backend("B");
  const backends = [a, b].map((x) => ({ host: "127.0.0.1", port: x.port }));
  balancer = await startLoadBalancer({ backends, stickyOn: "Mcp-Session-Id" });
});
after(async () => {
  client.destroy();
  await balancer?.stop();
  for (const x of [a, b]) {
    x?.release();
    x?.server.closeAllConnections();
    x?.server.close();
  }
});

/** One client: one kept-alive connection to the balancer, reused by every request that follows. */
const client = new Agent({ keepAlive: true, maxSockets: 1 });

interface Answered {
  readonly backend: string;
  readonly session: string | undefined;
  /** Whether the request went over the connection an earlier one opened. */
  readonly reused: boolean;
}

/** Which backend answered `path` through the balancer, and the session id it set. */
function through(path: string, session?: string): Promise<Answered> {
  const headers = session === undefined ? {} : { "mcp-session-id": session };
  return new Promise((resolve, reject) => {
    const req = request(`${balancer!.url}${path}`, { agent: client, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += String(chunk)));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`${res.statusCode}: ${body}`));
        const set = res.headers["mcp-session-id"];
        resolve({ backend: body, session: typeof set === "string" ? set : undefined, reused: req.reusedSocket });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function sequence(n: number, path: string, session?: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) seen.push((await through(path, session)).backend);
  return seen;
}

/** A session set by `name`: sessions are handed out round-robin, so one of two tries lands there. */
async function sessionOf(name: string): Promise<string> {
  for (let i = 0; i < 2; i++) {
    const { backend: answered, session } = await through("/session");
    if (answered === name && session !== undefined) return session;
  }
  return assert.fail(`no session from ${name} in two tries`);
}

describe("HAProxy in front of two backends", { timeout: 60_000 }, () => {
  test("balances one client's successive requests round-robin, over one connection", async () => {
    const answers: Answered[] = [];
    for (let i = 0; i < 6; i++) answers.push(await through("/"));
    assert.deepEqual(
      answers.slice(1).map((a) => a.reused),
      [true, true, true, true, true],
      "one kept-alive connection",
    );
    const seen = answers.map((a) => a.backend);
    assert.deepEqual(new Set(seen), new Set(["A", "B"]));
    for (let i = 1; i < seen.length; i++) assert.notEqual(seen[i], seen[i - 1], `alternates: ${seen.join(" ")}`);
  });

  test("sends a request with a session id back to the backend that set it", async () => {
    const fromA = await sessionOf("A");
    const fromB = await sessionOf("B");
    assert.match(fromB, /^B-\d+$/);
    assert.deepEqual(await sequence(5, "/", fromB), ["B", "B", "B", "B", "B"]);
    const interleaved: string[] = [];
    for (const session of [fromA, fromB, fromB, fromA, fromA, fromB])
      interleaved.push((await through("/", session)).backend);
    assert.deepEqual(interleaved, ["A", "B", "B", "A", "A", "B"]);
    assert.deepEqual(new Set(await sequence(4, "/", "never-set")), new Set(["A", "B"]), "an unknown id is balanced");
  });

  test("streams an SSE response event by event", async () => {
    const response = await fetch(`${balancer!.url}/sse`);
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("data: one")) {
      const { value, done } = await reader.read();
      assert.ok(!done, "the stream is still open");
      text += new TextDecoder().decode(value);
    }
    assert.ok(!text.includes("data: two"), "the first event came before the backend ended the stream");
    a!.release();
    b!.release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    assert.match(text, /data: one\n\n[^]*data: two\n\n/);
  });

  test("sends a stopped backend's share to the other", async () => {
    a!.server.closeAllConnections();
    await new Promise((done) => a!.server.close(done));
    assert.deepEqual(await sequence(4, "/"), ["B", "B", "B", "B"]);
  });

  test("is configured as docs/guide/gateway.md says", () => {
    const guide = readFileSync(join(root, "docs", "guide", "gateway.md"), "utf8");
    const section = guide.slice(guide.indexOf("## Running several gateways"));
    const quoted = /```haproxy\n([^]*?)```/.exec(section)?.[1];
    assert.ok(quoted !== undefined, "the section quotes an haproxy block");
    const backends = [
      { host: "10.0.0.11", port: 8080 },
      { host: "10.0.0.12", port: 8080 },
    ];
    const written = haproxyConfig("0.0.0.0:8080", { backends, stickyOn: "Mcp-Session-Id" }).split("\n");
    const lines = quoted.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
    assert.ok(lines.length >= 10, "the block holds the configuration, not a fragment");
    for (const line of lines) assert.ok(written.includes(line), `the helper writes \`${line.trim()}\``);
  });
});

describe("HAProxy in front of two SDK 2.x test servers", { timeout: 60_000 }, () => {
  let servers: ModernServer[] = [];
  let mcp: LoadBalancer | undefined;
  before(async () => {
    servers = await Promise.all(["replica-a", "replica-b"].map((name) => startModernServer({ name })));
    const backends = servers.map((x) => ({ host: "127.0.0.1", port: Number(new URL(x.url).port) }));
    mcp = await startLoadBalancer({ backends, stickyOn: "Mcp-Session-Id" });
  });
  after(async () => {
    await mcp?.stop();
    await Promise.all(servers.map((x) => x.stop()));
  });

  test("serves 2026-07-28 requests from both servers", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const served: string[] = [];
    for (let id = 1; id <= 4; id++) {
      const response = await fetch(`${mcp!.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "echo",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "echo", arguments: {}, _meta: meta },
        }),
      });
      const answer = (await response.json()) as { result?: { _meta?: Record<string, { name?: string }> } };
      served.push(answer.result?._meta?.["io.modelcontextprotocol/serverInfo"]?.name ?? "?");
    }
    assert.deepEqual(new Set(served), new Set(["replica-a", "replica-b"]), served.join(" "));
  });

  test("keeps a 2025-11-25 client's session on the server that opened it", async () => {
    const client = new Client({ name: "sticky-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Io" } }));
    const transport = new StreamableHTTPClientTransport(new URL(`${mcp!.url}/mcp`));
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId !== undefined, "a session");
      const name = client.getServerVersion()?.name;
      for (let i = 0; i < 4; i++) {
        const echoed = (await client.callTool({ name: "echo", arguments: { text: String(i) } })) as CallToolResult;
        assert.deepEqual(echoed.content, [{ type: "text", text: `echo: ${i}` }], "the session is known where it lands");
      }
      const asked = (await client.callTool({ name: "ask_name", arguments: {} })) as CallToolResult;
      assert.deepEqual(asked.content, [{ type: "text", text: "Hello, Io!" }]);
      assert.ok(name === "replica-a" || name === "replica-b");
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});
