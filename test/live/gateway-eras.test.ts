/**
 * The era combinations with a 2026-07-28 server behind the gateway (issue 45): the SDK 2.x test server
 * (modern-server.ts, over Streamable HTTP, its 2025 clients in sessions) behind `gateway --http`, and in front a
 * 2026-07-28 client (the SDK 2.x client, `versionNegotiation: auto`) and a 2025-11-25 client (SDK 1.x). For each: list,
 * call, an invalid call refused before dispatch, a result withheld, an elicitation and a sampling round trip (the
 * server's `input_required` comes to the gateway as the SDK's 2025 requests, and goes on to a modern client as
 * `input_required` again), a list change seen (a listen stream; the session's notification); for the modern client,
 * a header mismatch (-32020) and a version the gateway does not serve (-32022). The other upstream era (2025-11-25
 * servers) is test/live/gateway-modern.test.ts and the 2025 gateway suites.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CLI, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";
import { envelope, listen, MODERN, modernClient, post as postModern } from "./modern-helpers.js";
import { startModernServer, type ModernServer } from "./modern-server.js";

const TOKEN = "a-token-of-at-least-16-characters";

let dir = "";
let server: ModernServer | undefined;
let child: ChildProcess | undefined;
let stderr = "";
let endpoint = "";

before(async () => {
  server = await startModernServer({ name: "modern" });
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-eras-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { modern: { url: server.url } } }));
  writeFileSync(join(dir, "token"), `${TOKEN}\n`);
  const args = [
    "gateway",
    "--config",
    "config.json",
    "--http",
    "127.0.0.1:0",
    "--token-file",
    "token",
    "--pins",
    "pins.json",
  ];
  child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  child.stderr?.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  endpoint = await until("the HTTP front to listen", () => /serving Streamable HTTP at (\S+)/.exec(stderr)?.[1]);
  await until("the server's tools to be admitted", () => /admitted \d+ tools from 1 of 1 servers/.test(stderr), 30_000);
});
after(async () => {
  if (child !== undefined && child.exitCode === null) {
    child.kill("SIGTERM");
    await until("the gateway to exit", () => child!.exitCode !== null);
  }
  await server?.stop();
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** What both clients are asked to do, whatever their era. */
interface EraClient {
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  toolNames(): Promise<string[]>;
  /** Once watching (a listen stream acknowledged, or at once for a session): `changed` settles at the next change. */
  watch(): Promise<{ changed: Promise<void> }>;
  close(): Promise<void>;
}

const elicited = { action: "accept", content: { name: "Ada" } };
const sampled = { role: "assistant", content: { type: "text", text: "forty-two" }, model: "m" };

async function eraModern(): Promise<EraClient> {
  const client = await modernClient({ endpoint, token: TOKEN }, { elicitation: elicited, sampling: sampled });
  assert.equal(client.getNegotiatedProtocolVersion?.(), MODERN);
  return {
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Record<string, unknown>,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    watch: () => watchTools(),
    close: () => client.close(),
  };
}

/** A `subscriptions/listen` stream for tools list changes, acknowledged; `changed` settles at the first change. */
async function watchTools(): Promise<{ changed: Promise<void> }> {
  const stream = await listen({ endpoint, token: TOKEN }, "eras", { toolsListChanged: true });
  await stream.read(/acknowledged/);
  const changed = (async () => {
    try {
      await stream.read(/notifications\/tools\/list_changed.*"io.modelcontextprotocol\/subscriptionId":"eras"/);
      if (!/tools\/list_changed/.test(stream.text())) throw new Error(`the listen stream ended: ${stream.text()}`);
    } finally {
      stream.close();
    }
  })();
  return { changed };
}

async function legacyClient(): Promise<EraClient> {
  const client = new Client(
    { name: "eras-legacy", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => elicited as never);
  client.setRequestHandler(CreateMessageRequestSchema, () => sampled as never);
  let changed: () => void = () => undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  const headers = { authorization: `Bearer ${TOKEN}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } }));
  return {
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Record<string, unknown>,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    watch: async () => ({ changed: new Promise<void>((resolve) => (changed = resolve)) }),
    close: () => client.close(),
  };
}

for (const [era, connect] of [
  ["2026-07-28", eraModern],
  ["2025-11-25", legacyClient],
] as const) {
  describe(`gateway: a ${era} client, a 2026-07-28 server`, () => {
    test("list, call, an invalid call refused, a result withheld", async () => {
      const client = await connect();
      try {
        const names = await client.toolNames();
        for (const name of ["modern__echo", "modern__ask_name", "modern__ask_model", "modern__add"]) {
          assert.ok(names.includes(name), `${name} is listed`);
        }
        assert.equal(textOf(await client.callTool("modern__echo", { text: "hi" })), "echo: hi");
        const refused = await client.callTool("modern__add", { a: 1, b: "two" });
        assert.equal(refused["isError"], true);
        assert.match(textOf(refused), /\/b: must be integer/);
        assert.deepEqual((await client.callTool("modern__add", { a: 2, b: 3 }))["structuredContent"], { sum: 5 });
        const withheld = await client.callTool("modern__add", { a: 2, b: 3, violate: true });
        assert.equal(withheld["isError"], true);
        assert.equal(withheld["structuredContent"], undefined);
      } finally {
        await client.close();
      }
    });

    test("an elicitation and a sampling round trip", async () => {
      const client = await connect();
      try {
        assert.equal(textOf(await client.callTool("modern__ask_name", {})), "Hello, Ada!");
        assert.equal(textOf(await client.callTool("modern__ask_model", { prompt: "?" })), "The model said: forty-two");
      } finally {
        await client.close();
      }
    });

    test("a list change reaches the client", async () => {
      const client = await connect();
      try {
        const { changed } = await client.watch();
        await client.callTool("modern__change_tools", {});
        await changed;
        assert.ok((await client.toolNames()).some((n) => /^modern__extra_\d+$/.test(n)));
      } finally {
        await client.close();
      }
    });
  });
}

describe("gateway: a 2026-07-28 client's refusals in front of a 2026-07-28 server", () => {
  async function post(params: Record<string, unknown>, headers: Record<string, string>) {
    const answer = await postModern({ endpoint, token: TOKEN }, { method: "tools/call", params, id: 3 }, headers);
    return { status: answer.status, body: answer.body as { result?: unknown; error?: { code: number } } };
  }
  const meta = (version = MODERN) => envelope({}, { "io.modelcontextprotocol/protocolVersion": version });

  test("Mcp-Param-* checked under the listed (namespaced) name: -32020; an unknown version: -32022", async () => {
    const params = { name: "modern__region_info", arguments: { region: "eu", priority: 2 }, _meta: meta() };
    const ok = await post(params, { "mcp-param-region": "eu", "mcp-param-priority": "2" });
    assert.equal(ok.status, 200);
    assert.equal(textOf(ok.body.result), "region: eu, priority: 2");
    const wrong = await post(params, { "mcp-param-region": "eu", "mcp-param-priority": "3" });
    assert.deepEqual([wrong.status, wrong.body.error?.code], [400, -32020]);
    const missing = await post(params, { "mcp-param-region": "eu" });
    assert.deepEqual([missing.status, missing.body.error?.code], [400, -32020]);
    const version = await post({ ...params, _meta: meta("2099-01-01") }, { "mcp-protocol-version": "2099-01-01" });
    assert.deepEqual([version.status, version.body.error?.code], [400, -32022]);
  });
});

describe("gateway: a 2026-07-28 server's identity (issue 46)", () => {
  test("pinned with the era it speaks: serverInfo from server/discover, protocolVersion 2026-07-28", async () => {
    const file = join(dir, "pins.json");
    const deadline = Date.now() + 10_000;
    while (!existsSync(file) || !readFileSync(file, "utf8").includes("server:modern")) {
      if (Date.now() > deadline) assert.fail("the server's identity was never pinned");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pins = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    const identity = JSON.parse(pins["server:modern"] as string) as { says: Record<string, string> };
    assert.equal(identity.says["protocolVersion"], "2026-07-28");
    assert.notEqual(identity.says["name"], "", "the name the server gives in server/discover");
  });
});
