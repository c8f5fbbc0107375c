/**
 * `backplane-schema gateway --http` and MCP 2026-07-28 (issue 45), a modern client in front of 2025-11-25 servers:
 * the real SDK 2.x client (`versionNegotiation: auto`) lists, calls, is refused an invalid call, has a result withheld,
 * answers a sampling and an elicitation request as `input_required` round trips; raw requests show the refusals a
 * modern client recognises (-32020, -32022, -32021, -32602, 404), the `requestState` checks (a forged state refused, a
 * spent one starting the request again), a parked call cancelled at its server when no retry comes, and a
 * `list_changed` on a `subscriptions/listen` stream. A 2025-11-25 client on the same endpoint keeps its session.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, reference, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";
import { envelope, listen, MODERN, modernClient, post as postModern, type Front } from "./modern-helpers.js";
import type { Script } from "./scripted-server.js";

const TOKEN = "a-token-of-at-least-16-characters";
const SCRIPTED = join(dirname(fileURLToPath(import.meta.url)), "scripted-server.js");
const META = envelope;

const OUTPUT = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };
const SCRIPT: Script = {
  tools: [
    { name: "add", inputSchema: { type: "object" }, outputSchema: OUTPUT },
    {
      name: "lookup",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
    },
  ],
  results: { add: { content: [{ type: "text", text: "3" }], structuredContent: { sum: "three" } } },
};

let dir = "";
let child: ChildProcess;
let stderr = "";
let endpoint = "";
let scriptFile = "";

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-modern-"));
  scriptFile = join(dir, "alpha.json");
  writeFileSync(scriptFile, JSON.stringify(SCRIPT));
  const everything = reference("@modelcontextprotocol/server-everything", dir);
  const alpha = { command: process.execPath, args: [SCRIPTED, "serve", "alpha", scriptFile] };
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { everything, alpha } }));
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  const args = ["gateway", "--config", "config.json", "--http", "127.0.0.1:0", "--token-file", "token"];
  child = spawn(process.execPath, [CLI, ...args, "--client-request-timeout", "1500", "--audit", "audit.jsonl"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += String(chunk);
  });
  endpoint = await until("the HTTP front to listen", () => /serving Streamable HTTP at (\S+)/.exec(stderr)?.[1]);
  await until("both servers to be admitted", () => /admitted \d+ tools from 2 of 2 servers/.test(stderr), 30_000);
});
after(async () => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await until("the gateway to exit", () => child.exitCode !== null);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Where the tests' requests go. */
const front = (): Front => ({ endpoint, token: TOKEN });

/** A 2026-07-28 request, headers derived from the body unless `headers` says otherwise. */
function post(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return postModern(front(), { method, params }, headers);
}

describe("gateway: MCP 2026-07-28 clients in front of 2025-11-25 servers", () => {
  test("the SDK 2.x client negotiates 2026-07-28 and lists, calls, is refused and withheld as a 2025 client is", async () => {
    const client = await modernClient(front());
    try {
      assert.equal(client.getNegotiatedProtocolVersion?.(), MODERN);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "everything__echo"));
      assert.ok(tools.some((t) => t.name === "alpha__add"));
      assert.equal(
        textOf(await client.callTool({ name: "everything__echo", arguments: { message: "hi" } })),
        "Echo: hi",
      );
      const refused = await client.callTool({ name: "everything__echo", arguments: { message: 5 } });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /\/message: must be string/);
      const withheld = await client.callTool({ name: "alpha__add", arguments: {} });
      assert.equal(withheld.isError, true);
      assert.equal(withheld.structuredContent, undefined);
      assert.doesNotMatch(JSON.stringify(withheld), /three/);
    } finally {
      await client.close();
    }
  });

  test("a server's sampling and elicitation requests become input_required round trips, the answer checked", async () => {
    const client = await modernClient(front(), { elicitation: { action: "accept", content: { color: "red" } } });
    try {
      const sampled = await client.callTool({
        name: "everything__trigger-sampling-request",
        arguments: { prompt: "q" },
      });
      assert.match(textOf(sampled), /sampled!/);
      // server-everything asks for a form whose fields the answer must match: an answer that does not is refused.
      const before = stderr.length;
      await client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} });
      await until("the refused answer to be reported", () =>
        /elicitation answer was not returned to the server/.test(stderr.slice(before)),
      );
    } finally {
      await client.close();
    }
  });

  test("raw requests: header mismatch -32020, unknown version -32022, bad envelope -32602, removed method 404", async () => {
    const wrongName = await post(
      "tools/call",
      { name: "everything__echo", arguments: { message: "x" }, _meta: META() },
      { "mcp-name": "everything__ech" },
    );
    assert.deepEqual([wrongName.status, (wrongName.body["error"] as { code: number }).code], [400, -32020]);
    const encoded = await post(
      "tools/call",
      { name: "everything__echo", arguments: { message: "x" }, _meta: META() },
      { "mcp-name": `=?base64?${Buffer.from("everything__echo").toString("base64")}?=` },
    );
    assert.equal(encoded.status, 200);
    const param = await post(
      "tools/call",
      { name: "alpha__lookup", arguments: { region: "eu" }, _meta: META() },
      { "mcp-param-region": "us" },
    );
    assert.deepEqual([param.status, (param.body["error"] as { code: number }).code], [400, -32020]);
    const paramOk = await post(
      "tools/call",
      { name: "alpha__lookup", arguments: { region: "eu" }, _meta: META() },
      { "mcp-param-region": "eu" },
    );
    assert.equal(paramOk.status, 200);
    const version = await post(
      "server/discover",
      { _meta: { ...META(), "io.modelcontextprotocol/protocolVersion": "v9" } },
      {
        "mcp-protocol-version": "v9",
      },
    );
    assert.equal(version.status, 400);
    assert.deepEqual(version.body["error"], {
      code: -32022,
      message: "Unsupported protocol version: v9 (supported: 2026-07-28)",
      data: { supported: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], requested: "v9" },
    });
    const noCapabilities = await post("server/discover", {
      _meta: { "io.modelcontextprotocol/protocolVersion": MODERN },
    });
    assert.deepEqual([noCapabilities.status, (noCapabilities.body["error"] as { code: number }).code], [400, -32602]);
    const ping = await post("ping", { _meta: META() });
    assert.deepEqual([ping.status, (ping.body["error"] as { code: number }).code], [404, -32601]);
    // The tasks extension is not offered: its methods do not exist here, and a call declaring it gets a complete result.
    const task = await post("tasks/get", { taskId: "t1", _meta: META() }, { "mcp-name": "t1" });
    assert.deepEqual([task.status, (task.body["error"] as { code: number }).code], [404, -32601]);
    const extensions = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    const withTasks = await post("tools/call", {
      name: "everything__echo",
      arguments: { message: "t" },
      _meta: META(extensions),
    });
    assert.equal((withTasks.body["result"] as { resultType: string }).resultType, "complete");
    const discover = await post("server/discover", { _meta: META() });
    const result = discover.body["result"] as Record<string, unknown>;
    assert.equal(result["resultType"], "complete");
    assert.equal(result["cacheScope"], "private");
    assert.equal(result["ttlMs"], 0);
  });

  test("a question the request's capabilities do not cover is -32021; no log messages without a logLevel", async () => {
    const lacking = await post("tools/call", {
      name: "everything__trigger-sampling-request",
      arguments: { prompt: "q" },
      _meta: META(),
    });
    assert.equal(lacking.status, 400);
    assert.deepEqual(lacking.body["error"], {
      code: -32021,
      message:
        "Missing required client capability: sampling (declare it in _meta io.modelcontextprotocol/clientCapabilities)",
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  test("requestState: a forged one is refused, a spent one starts the request again, an unanswered one expires", async () => {
    const params = {
      name: "everything__trigger-sampling-request",
      arguments: { prompt: "q" },
      _meta: META({ sampling: {} }),
    };
    const first = await post("tools/call", params);
    const asked = first.body["result"] as { resultType: string; requestState: string; inputRequests: object };
    assert.equal(asked.resultType, "input_required");
    assert.deepEqual(Object.keys(asked.inputRequests), ["q1"]);
    const [claims] = asked.requestState.split(".");
    const forged = await post("tools/call", { ...params, requestState: `${claims}.AAAA`, inputResponses: {} });
    assert.match((forged.body["error"] as { message: string }).message, /requestState refused: .*signature/);
    const answer = { role: "assistant", content: { type: "text", text: "fine" }, model: "m" };
    const done = await post("tools/call", {
      ...params,
      requestState: asked.requestState,
      inputResponses: { q1: answer },
    });
    assert.match(textOf(done.body["result"]), /fine/);
    const again = await post("tools/call", {
      ...params,
      requestState: asked.requestState,
      inputResponses: { q1: answer },
    });
    assert.equal((again.body["result"] as { resultType: string }).resultType, "input_required");
    const otherParams = await post("tools/call", {
      ...params,
      arguments: { prompt: "other" },
      requestState: (again.body["result"] as { requestState: string }).requestState,
      inputResponses: { q1: answer },
    });
    assert.match((otherParams.body["error"] as { message: string }).message, /method or params differ/);
    // Nobody retries the last two: after --client-request-timeout (1.5 s) each is cancelled at its server.
    await until(
      "a parked call to be cancelled",
      () => readFileSync(join(dir, "audit.jsonl"), "utf8").includes('"code":"cancelled"'),
      10_000,
    );
  });

  test("a client that closes its response before the answer cancels the call at its server", async () => {
    const controller = new AbortController();
    const params = {
      name: "everything__trigger-long-running-operation",
      arguments: { duration: 30, steps: 30 },
      _meta: META(),
    };
    const pending = postModern(
      front(),
      { method: "tools/call", params, id: 9 },
      { accept: "application/json" },
      controller.signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    await assert.rejects(pending);
    const cancelled = () =>
      readFileSync(join(dir, "audit.jsonl"), "utf8")
        .split("\n")
        .some((line) => line.includes("trigger-long-running-operation") && line.includes('"code":"cancelled"'));
    await until("the long call to be cancelled at its server", cancelled, 10_000);
  });

  test("subscriptions/listen: acknowledged first, then a tools list_changed stamped with the subscriptionId", async () => {
    const stream = await listen(front(), "listen-1", { toolsListChanged: true, resourceSubscriptions: ["x://y"] });
    assert.equal(stream.contentType, "text/event-stream");
    await stream.read(/acknowledged/);
    const first = JSON.parse(/data: (.*)/.exec(stream.text())![1]!);
    assert.equal(first.method, "notifications/subscriptions/acknowledged");
    assert.deepEqual(first.params.notifications, { toolsListChanged: true });
    assert.equal(first.params._meta["io.modelcontextprotocol/subscriptionId"], "listen-1");
    writeFileSync(
      scriptFile,
      JSON.stringify({ ...SCRIPT, tools: [...SCRIPT.tools, { name: "extra", inputSchema: { type: "object" } }] }),
    );
    await post("tools/call", { name: "alpha__notify", arguments: {}, _meta: META() });
    await Promise.race([stream.read(/tools\/list_changed/), new Promise((r) => setTimeout(r, 10_000))]);
    stream.close();
    const changed = stream
      .text()
      .split("\n")
      .filter((l) => l.includes("tools/list_changed"));
    assert.equal(changed.length, 1, stream.text());
    assert.match(changed[0]!, /"io.modelcontextprotocol\/subscriptionId":"listen-1"/);
  });

  test("a 2025-11-25 client on the same endpoint keeps its session", async () => {
    const client = new Client({ name: "legacy", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId !== undefined);
      assert.equal(textOf(await client.callTool({ name: "everything__echo", arguments: { message: "x" } })), "Echo: x");
    } finally {
      await client.close();
    }
  });
});
