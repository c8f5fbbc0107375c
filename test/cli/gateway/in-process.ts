/**
 * The gateway in-process (issue 44): a real `Gateway` whose upstreams reach real SDK 1.x `Server`s through the SDK's
 * in-memory linked pair (the upstream's `Connector` seam), and a real SDK `Client` attached over another pair. No
 * process is started; every server records the requests it saw, so a test can assert what never reached it. What
 * needs real processes (stdout noise, exit codes, signals, the HTTP front) stays in test/live/.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ToolListChangedNotificationSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { answeringClient } from "./answering-client.js";
import { Audit, Reporter } from "../../../src/cli/gateway/audit.js";
import type { ServerConfig } from "../../../src/cli/gateway/config.js";
import { Gateway, type GatewaySettings } from "../../../src/cli/gateway/gateway.js";
import type { CatalogSettings } from "../../../src/cli/gateway/policy/catalog.js";
import { PinLedger, type PinsMode } from "../../../src/cli/gateway/policy/pin-ledger.js";
import { loadSdk } from "../../../src/cli/gateway/sdk.js";
import type { Connector } from "../../../src/cli/gateway/upstream/connector.js";
import { MAX_PAGES } from "../../../src/cli/gateway/upstream/listing.js";

/** A tool call's answer (or what the server does instead), given the server and the call's abort signal. */
export type Answer = (
  args: Record<string, unknown>,
  on: { server: Server; signal: AbortSignal; token: string | number | undefined },
) => unknown;

/** What one in-memory server lists and answers; the test may change it between calls. */
export interface Spec {
  tools: Record<string, unknown>[];
  /** Answers by tool name; a tool without one answers with the server's name, the tool's and the arguments. */
  answers?: Record<string, Answer>;
  prompts?: Record<string, unknown>[];
  resources?: Record<string, unknown>[];
  templates?: string[];
  /** Sends `tools/list_changed` again right after every `tools/list` it answers (a storm). */
  storm?: boolean;
}

/** One in-memory server: what it lists, and every request it saw (method and params), in order. */
export interface FakeServer {
  readonly name: string;
  spec: Spec;
  readonly seen: { method: string; params: Record<string, unknown> }[];
  /** How many times it was started (a connection made to it). */
  starts: number;
  /** The SDK server of its current connection. */
  current: Server | undefined;
  /** Tells the gateway its tools changed. */
  listChanged(): Promise<void>;
  /** How many requests of `method` it saw. */
  count(method: string): number;
}

export function fakeServer(name: string, spec: Spec): FakeServer {
  const fake: FakeServer = {
    name,
    spec,
    seen: [],
    starts: 0,
    current: undefined,
    listChanged: async () => fake.current?.sendToolListChanged(),
    count: (method) => fake.seen.filter((s) => s.method === method).length,
  };
  return fake;
}

/** A real SDK server answering from `fake`'s spec, recording what it is asked. */
function serve(fake: FakeServer): Server {
  const server = new Server(
    { name: fake.name, version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, completions: {}, logging: {} },
    },
  );
  const saw = <T extends { method: string; params?: unknown }>(request: T) =>
    fake.seen.push({ method: request.method, params: (request.params ?? {}) as Record<string, unknown> });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    saw(request);
    if (fake.spec.storm === true) setTimeout(() => void server.sendToolListChanged().catch(() => undefined), 0);
    return { tools: fake.spec.tools } as never;
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    saw(request);
    const tool = request.params.name;
    const args = request.params.arguments ?? {};
    const answers = fake.spec.answers ?? {};
    if (Object.hasOwn(answers, tool))
      return (await (answers[tool] as Answer)(args, {
        server,
        signal: extra.signal,
        token: request.params._meta?.progressToken,
      })) as never;
    return { content: [{ type: "text", text: `${fake.name}: ${tool} ${JSON.stringify(args)}` }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, (r) => (saw(r), { prompts: fake.spec.prompts ?? [] }) as never);
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    saw(request);
    return { messages: [{ role: "user", content: { type: "text", text: `${fake.name}: ${request.params.name}` } }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, (r) => (saw(r), { resources: fake.spec.resources ?? [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    saw(request);
    const templates = (fake.spec.templates ?? []).map((t) => ({ uriTemplate: t, name: t }));
    return { resourceTemplates: templates };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    saw(request);
    const { uri } = request.params;
    if (uri.includes("missing")) throw new McpError(-32602, `Resource ${uri} not found`);
    return { contents: [{ uri, text: `${fake.name} read ${uri}` }] };
  });
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    saw(request);
    return { completion: { values: [`${fake.name}:${request.params.argument.value}`] } };
  });
  return server;
}

/**
 * The connector the in-process gateway uses: each start of a server links a fresh SDK server to the upstream over an
 * in-memory pair. A name not in `servers` cannot be started (as a command that does not exist).
 */
function inMemoryConnector(servers: readonly FakeServer[]): Connector {
  return async (config) => {
    const fake = servers.find((s) => s.name === config.name);
    if (fake === undefined) throw Object.assign(new Error(`spawn ${config.name} ENOENT`), { code: "ENOENT" });
    const [gatewaySide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = serve(fake);
    fake.starts++;
    fake.current = server;
    await server.connect(serverSide);
    return { transport: gatewaySide, stop: () => server.close() };
  };
}

/** Settings to change from `testSettings`' (the catalog's one by one). */
export type Overrides = Partial<Omit<GatewaySettings, "catalog">> & { catalog?: Partial<CatalogSettings> };

/** The gateway's settings as `backplane-schema gateway` defaults them, with short timeouts for tests. */
export function testSettings(names: readonly string[], overrides: Overrides = {}): GatewaySettings {
  const { catalog, ...rest } = overrides;
  return {
    callTimeoutMs: 5_000,
    startupTimeoutMs: 5_000,
    maxMessageBytes: 4 * 1024 * 1024,
    maxQueuedBytes: 8 * 1024 * 1024,
    maxRunningRequests: 128,
    pingTimeoutMs: 1_000,
    restart: false,
    listing: { maxItems: 10_000, maxBytes: 16 * 1024 * 1024, maxPages: MAX_PAGES },
    maxListChanged: 30,
    maxStdoutNoise: 1_000,
    maxDroppedNotifications: 1_000,
    clientRequestTimeoutMs: 30_000,
    oneClient: true,
    hiddenText: "report",
    ...rest,
    catalog: {
      draft07: "upgrade",
      hiddenText: "report",
      formatAssertion: false,
      unpinned: "admit",
      namespaced: true,
      servers: [...names],
      ...catalog,
    },
  };
}

export interface InProcess {
  readonly gateway: Gateway;
  readonly client: Client;
  /** Everything the gateway reported (stderr lines, with the audit log's JSON lines among them). */
  output(): string;
  /** The audit log's lines. */
  audit(): Record<string, unknown>[];
  /** `tools/list_changed` notifications the client got. */
  listChanged(): number;
  /** The elicitation requests the client was asked. */
  readonly elicitations: unknown[];
  close(): Promise<void>;
}

export interface InProcessOptions {
  /** Server names configured but not among the servers (they cannot start). */
  readonly missing?: readonly string[];
  readonly settings?: Overrides;
  readonly pins?: { path: string; mode: PinsMode; configFile?: string };
  /** What the client answers to `elicitation/create`. */
  readonly elicit?: () => ElicitResult;
}

/**
 * A gateway in front of `servers`, and a client with roots (one root), sampling (it answers "sampled text") and
 * elicitation (`options.elicit`, else decline) attached to it.
 */
export async function inProcess(servers: readonly FakeServer[], options: InProcessOptions = {}): Promise<InProcess> {
  const names = [...servers.map((s) => s.name), ...(options.missing ?? [])];
  const configs: ServerConfig[] = names.map((name) => ({ name, kind: "stdio", command: name, args: [], env: {} }));
  let output = "";
  const write = (text: string) => void (output += text);
  const reporter = new Reporter(write);
  const pins = options.pins;
  const ledger = new PinLedger(pins?.path, pins?.mode ?? "tofu", (t) => reporter.say(t), pins?.configFile);
  await ledger.open();
  const sdk = await loadSdk("gateway");
  const gateway = new Gateway(sdk, configs, testSettings(names, options.settings), {
    ledger,
    reporter,
    audit: new Audit("-", false, write),
    connect: inMemoryConnector(servers),
  });
  const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.attach(gatewaySide);
  const { client, elicitations } = answeringClient("in-process-test", options.elicit);
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant",
    content: { type: "text", text: "sampled text" },
    model: "test-model",
  }));
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  await client.connect(clientSide);
  await gateway.ready;
  return {
    gateway,
    client,
    elicitations,
    output: () => output,
    audit: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    listChanged: () => changes,
    close: async () => {
      await client.close();
      await gateway.stop();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? "";
}

/** A tool with an object input schema. */
export function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, inputSchema: { type: "object" }, ...extra };
}
