/**
 * The SDK 2.x test server (modern-server.ts) on its own, with the SDK 2.x client negotiating the 2026-07-28 era
 * (`versionNegotiation: auto`) over HTTP and over stdio: what the gateway's era-combination tests will lean on works as
 * modern-server.ts says — the elicitation and sampling round trips, the output-schema violation on the wire, the
 * `Mcp-Param-*` headers, and `change_tools` seen on a `subscriptions/listen` stream.
 */

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, type CallToolResult, type ClientOptions } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { modernServerEntry, startModernServer, type ModernServer } from "./modern-server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let server: ModernServer | undefined;
before(async () => {
  server = await startModernServer({ name: "modern-proof" });
});
after(async () => {
  await server?.stop();
});

/** A 2.x client with elicitation and sampling that answers with fixed values and counts what it was asked. */
function modernClient(): { client: Client; asked: string[] } {
  const options: ClientOptions = {
    capabilities: { elicitation: { form: {} }, sampling: {} },
    versionNegotiation: { mode: "auto" },
  };
  const client = new Client({ name: "modern-proof-client", version: "1.0.0" }, options);
  const asked: string[] = [];
  client.setRequestHandler("elicitation/create", () => {
    asked.push("elicitation");
    return { action: "accept", content: { name: "Ada" } };
  });
  client.setRequestHandler("sampling/createMessage", () => {
    asked.push("sampling");
    return { role: "assistant", model: "fixed", content: { type: "text", text: "hi there" } };
  });
  return { client, asked };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The parts of a JSON-RPC answer these tests read. */
interface Answer {
  result?: {
    resultType?: string;
    inputRequests?: Record<string, { method: string }>;
    requestState?: string;
    content?: { text?: string }[];
    structuredContent?: unknown;
  };
  error?: { code: number };
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Answer }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

describe("the SDK 2.x test server over HTTP", { timeout: 60_000 }, () => {
  test("serves the modern era, lists its tools and answers both input_required round trips", async () => {
    const { client, asked } = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url)));
    try {
      assert.equal(client.getProtocolEra(), "modern");
      assert.equal(client.getServerVersion()?.name, "modern-proof");
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names.slice(0, 6), ["echo", "ask_name", "ask_model", "add", "region_info", "change_tools"]);
      assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text: "x" } })), "echo: x");
      assert.equal(textOf(await client.callTool({ name: "ask_name", arguments: {} })), "Hello, Ada!");
      assert.equal(textOf(await client.callTool({ name: "ask_model", arguments: {} })), "The model said: hi there");
      assert.deepEqual(asked, ["elicitation", "sampling"]);
      const region = await client.callTool({ name: "region_info", arguments: { region: "eu-west", priority: 2 } });
      assert.equal(textOf(region), "region: eu-west, priority: 2");
    } finally {
      await client.close();
    }
  });

  test("answers input_required with a sealed requestState, and -32602 for a tampered one", async () => {
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ask_name" };
    const caps = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const first = await post(server!.url, headers, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask_name", arguments: {}, _meta: caps },
    });
    assert.equal(first.body.result?.resultType, "input_required");
    assert.equal(first.body.result?.inputRequests?.["name"]?.method, "elicitation/create");
    const state = String(first.body.result?.requestState);
    const retry = (requestState: string) =>
      post(server!.url, headers, {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "ask_name",
          arguments: {},
          inputResponses: { name: { action: "accept", content: { name: "Bo" } } },
          requestState,
          _meta: caps,
        },
      });
    assert.equal((await retry(state)).body.result?.content?.[0]?.text, "Hello, Bo!");
    const tampered = await retry(`${state.slice(0, -2)}xx`);
    assert.equal(tampered.body.error?.code, -32602);
  });

  test("puts a result that breaks its output schema on the wire when asked to", async () => {
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" };
    const call = (violate: boolean) =>
      post(server!.url, headers, {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "add", arguments: { a: 2, b: 3, violate }, _meta: META },
      });
    assert.deepEqual((await call(false)).body.result?.structuredContent, { sum: 5 });
    assert.deepEqual((await call(true)).body.result?.structuredContent, { sum: "5" });
  });

  test("refuses an Mcp-Param header that disagrees with the body: 400, -32020", async () => {
    const answer = await post(
      server!.url,
      {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "region_info",
        "mcp-param-region": "us-east",
      },
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "region_info", arguments: { region: "eu" }, _meta: META },
      },
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, -32020);
  });

  test("tells a subscriptions/listen stream that change_tools changed the list", async () => {
    const { client } = modernClient();
    let changed = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changed += 1;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url)));
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      const added = textOf(await client.callTool({ name: "change_tools", arguments: {} }));
      const name = /^added (extra_\d+)$/.exec(added)?.[1];
      assert.ok(name !== undefined, added);
      await until(() => changed > 0);
      const names = (await client.listTools(undefined, { cacheMode: "refresh" })).tools.map((t) => t.name);
      assert.ok(names.includes(name), `${name} is listed`);
    } finally {
      await subscription.close();
      await client.close();
    }
  });
});

/** An SDK 1.x (2025-11-25) client with elicitation and sampling, answering with fixed values. */
function legacyClient(): { client: LegacyClient; asked: string[]; changed: () => number } {
  const client = new LegacyClient(
    { name: "legacy-proof-client", version: "1.0.0" },
    {
      capabilities: { elicitation: {}, sampling: {} },
    },
  );
  const asked: string[] = [];
  let changed = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked.push("elicitation");
    return { action: "accept", content: { name: "Zed" } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    asked.push("sampling");
    return { role: "assistant", model: "fixed", content: { type: "text", text: "hello from 2025" } };
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed += 1;
  });
  return { client, asked, changed: () => changed };
}

describe("the SDK 2.x test server to a 2025-11-25 client over HTTP", { timeout: 60_000 }, () => {
  test("keeps it in a session: elicitation and sampling as real requests, list_changed on its stream", async () => {
    const { client, asked, changed } = legacyClient();
    const transport = new LegacyTransport(new URL(server!.url));
    await client.connect(transport);
    try {
      assert.equal(transport.protocolVersion, "2025-11-25");
      assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/);
      const ask = (name: string) => client.callTool({ name, arguments: {} }) as Promise<CallToolResult>;
      assert.equal(textOf(await ask("ask_name")), "Hello, Zed!");
      assert.equal(textOf(await ask("ask_model")), "The model said: hello from 2025");
      assert.deepEqual(asked, ["elicitation", "sampling"]);
      const added = /^added (extra_\d+)$/.exec(textOf(await ask("change_tools")))?.[1];
      assert.ok(added !== undefined);
      await until(() => changed() > 0);
      assert.ok(
        (await client.listTools()).tools.some((t) => t.name === added),
        `${added} is listed`,
      );
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  test("with --legacy stateless, serves it without a session and cannot ask it anything", async () => {
    const stateless = await startModernServer({ legacy: "stateless" });
    const { client, asked } = legacyClient();
    const transport = new LegacyTransport(new URL(stateless.url));
    try {
      await client.connect(transport);
      assert.equal(transport.sessionId, undefined);
      const answer = (await client.callTool({ name: "ask_name", arguments: {} })) as CallToolResult;
      assert.equal(answer.isError, true);
      assert.match(textOf(answer), /per-request legacy serving cannot receive server-to-client requests/);
      assert.deepEqual(asked, []);
    } finally {
      await client.close();
      await stateless.stop();
    }
  });
});

describe("the SDK 2.x test server over stdio", { timeout: 60_000 }, () => {
  test("pins the modern era and answers a round trip and a listen stream", async () => {
    const { client, asked } = modernClient();
    let changed = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changed += 1;
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [modernServerEntry, "serve", "stdio", "--name", "modern-stdio"],
    });
    await client.connect(transport);
    try {
      assert.equal(client.getProtocolEra(), "modern");
      assert.equal(client.getServerVersion()?.name, "modern-stdio");
      assert.equal(textOf(await client.callTool({ name: "ask_name", arguments: {} })), "Hello, Ada!");
      assert.deepEqual(asked, ["elicitation"]);
      const subscription = await client.listen({ toolsListChanged: true });
      assert.equal(textOf(await client.callTool({ name: "change_tools", arguments: {} })), "added extra_1");
      await until(() => changed > 0);
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
