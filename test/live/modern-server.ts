/**
 * An MCP 2026-07-28 (stateless) test server on SDK 2.x (`@modelcontextprotocol/server` 2.4.0), for the conformance
 * suite's 2026-07-28 server scenarios and the gateway's era-combination tests. Over HTTP it is the SDK's
 * `createMcpHandler` behind Node's http server (2025-era requests get the SDK's default stateless legacy leg); over stdio
 * it is the SDK's `serveStdio` (a 2025-era `initialize` pins a legacy session, an envelope pins the modern era).
 *
 * `node modern-server.js serve http [--name N]` listens on a free loopback port and prints
 * `modern MCP server listening at http://127.0.0.1:<port>/mcp`; `node modern-server.js serve stdio [--name N]` speaks
 * on stdin/stdout. Imported, or run without `serve` (as the test runner does), it does nothing but export
 * {@link startModernServer} and {@link modernServerEntry}.
 *
 * Tools, in listed order (the suite's header scenario calls the first one with `{}`):
 * - `echo` `{text?}`: `echo: <text>`.
 * - `ask_name`: `input_required` with a form elicitation (`name`) and an HMAC-sealed `requestState`; the retry with an
 *   accepted `{name}` and the state answers `Hello, <name>!`. A retry without them asks again.
 * - `ask_model` `{prompt?}`: `input_required` with a sampling request; the retry answers `The model said: <text>`.
 * - `add` `{a, b, violate?}`: `structuredContent: {sum}` under an `outputSchema` requiring an integer `sum`;
 *   `violate: true` answers `{sum: "<a+b>"}` (a string), which the SDK lets through because this server's output
 *   validator accepts anything: the check under test is the gateway's, not the server's.
 * - `region_info` `{region, priority?}`: `region` carries `x-mcp-header: Region`, `priority` (integer)
 *   `x-mcp-header: Priority`; the SDK checks `Mcp-Param-Region` / `Mcp-Param-Priority` against the body (`-32020`).
 * - `change_tools` (and `test_trigger_tool_change`, the suite's name for it): adds a tool `extra_<n>` (at most
 *   {@link MAX_EXTRA} per process, then an error result) and tells `subscriptions/listen` streams
 *   `notifications/tools/list_changed`; `test_trigger_prompt_change` does the same for prompts (`extra_prompt_<n>`).
 * - `test_missing_capability`: asks for sampling, so a request that did not declare it gets `-32021`.
 * - `test_streaming_elicitation`: `input_required` with an elicitation (never a standalone request on the stream).
 * - `test_logging_tool`: logs three messages; the SDK sends them only when the request's `_meta` names a `logLevel`.
 * Prompt `greeting` `{name}`; resource `test://info` (text).
 */

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type JsonSchemaType,
  type ServerContext,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

/** How many `extra_<n>` tools (and as many prompts) `change_tools` adds to one process at most. */
export const MAX_EXTRA = 64;
/** The largest request body the HTTP front buffers (the SDK's own default bound). */
const MAX_BODY = 4 * 1024 * 1024;

/** What changes while the process lives: the tools and prompts `change_tools` added. */
const added = { tools: [] as string[], prompts: [] as string[] };
/** Seals `ask_name`'s `requestState`; one process serves every round, so a per-process key is enough. */
const stateCodec = createRequestStateCodec<{ tool: string }>({ key: new Uint8Array(randomBytes(32)) });

type Changed = (server: McpServer, kind: "tools" | "prompts", name: string) => void;

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError } : {}) };
}

function schema(json: Record<string, unknown>): StandardSchemaWithJSON {
  return fromJsonSchema(json as JsonSchemaType);
}

/** Lists `json` as the schema but accepts any value, so the server can break its own output schema on request. */
function advertisedOnly(json: Record<string, unknown>): StandardSchemaWithJSON {
  const listed = fromJsonSchema(json as JsonSchemaType)["~standard"];
  return { "~standard": { ...listed, validate: (value: unknown) => ({ value }) } };
}

const NO_ARGS = schema({ type: "object", properties: {} });

function registerExtraTool(server: McpServer, name: string): void {
  server.registerTool(name, { description: "A tool change_tools added.", inputSchema: NO_ARGS }, () => text(name));
}

function registerExtraPrompt(server: McpServer, name: string): void {
  server.registerPrompt(name, { description: "A prompt test_trigger_prompt_change added." }, () => ({
    messages: [{ role: "user", content: { type: "text", text: name } }],
  }));
}

/** Adds one tool or prompt to the process's list and reports it through `changed`, up to {@link MAX_EXTRA}. */
function addOne(server: McpServer, kind: "tools" | "prompts", changed: Changed): CallToolResult {
  const list = added[kind];
  if (list.length >= MAX_EXTRA) return text(`no more than ${MAX_EXTRA} ${kind} can be added`, true);
  const name = kind === "tools" ? `extra_${list.length + 1}` : `extra_prompt_${list.length + 1}`;
  list.push(name);
  changed(server, kind, name);
  return text(`added ${name}`);
}

const NAME_SCHEMA = {
  type: "object" as const,
  properties: { name: { type: "string" as const } },
  required: ["name"],
};

async function askName(ctx: ServerContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
  const state = ctx.mcpReq.requestState<{ tool: string }>();
  const answer = acceptedContent(ctx.mcpReq.inputResponses, "name");
  if (state?.tool === "ask_name" && typeof answer?.["name"] === "string") return text(`Hello, ${answer["name"]}!`);
  return inputRequired({
    inputRequests: { name: inputRequired.elicit({ message: "What is your name?", requestedSchema: NAME_SCHEMA }) },
    requestState: await stateCodec.mint({ tool: "ask_name" }),
  });
}

function askModel(prompt: string, ctx: ServerContext): CallToolResult | ReturnType<typeof inputRequired> {
  const answer = inputResponse(ctx.mcpReq.inputResponses, "model");
  if (answer.kind === "sampling") {
    const content = answer.result.content;
    const said = !Array.isArray(content) && content.type === "text" ? content.text : JSON.stringify(content);
    return text(`The model said: ${said}`);
  }
  const message = { role: "user" as const, content: { type: "text" as const, text: prompt } };
  return inputRequired({
    inputRequests: { model: inputRequired.createMessage({ messages: [message], maxTokens: 64 }) },
  });
}

function registerExchangeTools(server: McpServer): void {
  server.registerTool(
    "echo",
    {
      description: "Echoes its text.",
      inputSchema: schema({ type: "object", properties: { text: { type: "string" } } }),
    },
    (args) => text(`echo: ${(args as { text?: string }).text ?? ""}`),
  );
  server.registerTool(
    "ask_name",
    { description: "Asks the user's name (elicitation).", inputSchema: NO_ARGS },
    (_, ctx) => askName(ctx),
  );
  server.registerTool(
    "ask_model",
    {
      description: "Asks the client's model (sampling).",
      inputSchema: schema({ type: "object", properties: { prompt: { type: "string" } } }),
    },
    (args, ctx) => askModel((args as { prompt?: string }).prompt ?? "Say hello.", ctx),
  );
  server.registerTool(
    "add",
    {
      description: "Adds two integers; violate: true answers a sum that breaks the output schema.",
      inputSchema: schema({
        type: "object",
        properties: { a: { type: "integer" }, b: { type: "integer" }, violate: { type: "boolean" } },
        required: ["a", "b"],
      }),
      outputSchema: advertisedOnly({
        type: "object",
        properties: { sum: { type: "integer" } },
        required: ["sum"],
        additionalProperties: false,
      }),
    },
    (args) => {
      const { a, b, violate } = args as { a: number; b: number; violate?: boolean };
      const sum = violate === true ? String(a + b) : a + b;
      return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
    },
  );
  server.registerTool(
    "region_info",
    {
      description: "Names a region; its arguments are mirrored in Mcp-Param-Region and Mcp-Param-Priority.",
      inputSchema: schema({
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          priority: { type: "integer", "x-mcp-header": "Priority" },
        },
        required: ["region"],
      }),
    },
    (args) => {
      const { region, priority } = args as { region: string; priority?: number };
      return text(`region: ${region}${priority === undefined ? "" : `, priority: ${priority}`}`);
    },
  );
}

function registerChangeTools(server: McpServer, changed: Changed): void {
  const change = { description: "Adds a tool and announces tools/list_changed.", inputSchema: NO_ARGS };
  server.registerTool("change_tools", change, () => addOne(server, "tools", changed));
  server.registerTool("test_trigger_tool_change", change, () => addOne(server, "tools", changed));
  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Adds a prompt and announces prompts/list_changed.", inputSchema: NO_ARGS },
    () => addOne(server, "prompts", changed),
  );
  for (const name of added.tools) registerExtraTool(server, name);
}

/** The tools the suite's `server-stateless` scenario calls by name. */
function registerSuiteProbes(server: McpServer): void {
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability.", inputSchema: NO_ARGS },
    (_, ctx) =>
      inputResponse(ctx.mcpReq.inputResponses, "model").kind === "sampling"
        ? text("sampled")
        : askModel("Say hello.", ctx),
  );
  server.registerTool(
    "test_streaming_elicitation",
    { description: "Asks for input through the response, never with a request on the stream.", inputSchema: NO_ARGS },
    (_, ctx) => askName(ctx),
  );
  server.registerTool(
    "test_logging_tool",
    { description: "Logs three messages at the request's log level.", inputSchema: NO_ARGS },
    async (_, ctx) => {
      for (const n of [1, 2, 3]) await ctx.mcpReq.log("info", `log message ${n}`);
      return text("logged");
    },
  );
}

function registerPromptsAndResources(server: McpServer): void {
  server.registerPrompt(
    "greeting",
    {
      description: "Greets someone.",
      argsSchema: schema({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
    },
    (args) => ({
      messages: [{ role: "user", content: { type: "text", text: `Say hello to ${(args as { name: string }).name}.` } }],
    }),
  );
  for (const name of added.prompts) registerExtraPrompt(server, name);
  server.registerResource("info", "test://info", { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "modern test server" }],
  }));
}

/** One server instance (the SDK builds one per HTTP request, one per stdio connection). */
function build(name: string, changed: Changed): McpServer {
  const server = new McpServer(
    { name, version: "1.0.0" },
    {
      capabilities: { logging: {} },
      requestState: { verify: stateCodec.verify },
      cacheHints: { "tools/list": { ttlMs: 5_000, cacheScope: "public" } },
    },
  );
  registerExchangeTools(server);
  registerChangeTools(server, changed);
  registerSuiteProbes(server);
  registerPromptsAndResources(server);
  return server;
}

/** A Node request as a web-standard one (the SDK's HTTP entry is fetch-shaped), its body buffered under a bound. */
async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  chunks.reduce((at, chunk) => (body.set(chunk, at), at + chunk.length), 0);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(key, one);
  }
  const method = req.method ?? "GET";
  const init = { method, headers, signal, ...(method === "GET" || method === "HEAD" ? {} : { body }) };
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, init);
}

/** Writes a web-standard response; a client that goes away aborts the request (the 2026-07-28 cancellation). */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (response.body === null) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

async function serveHttp(name: string): Promise<void> {
  const handler = createMcpHandler(
    () =>
      build(name, (_, kind) => {
        if (kind === "tools") handler.notify.toolsChanged();
        else handler.notify.promptsChanged();
      }),
    { onerror: () => undefined },
  );
  const http = createServer((req, res) => {
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    void (async () => {
      if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return void res.writeHead(404).end();
      const request = await toWebRequest(req, aborted.signal);
      if (request === undefined) return void res.writeHead(413).end();
      await writeResponse(await handler.fetch(request), res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`modern MCP server listening at http://127.0.0.1:${port}/mcp\n`);
}

function serveOnStdio(name: string): void {
  // One instance per connection: it registers what it adds itself, and the SDK tells the listen streams.
  serveStdio(() =>
    build(name, (server, kind, added) => {
      if (kind === "tools") registerExtraTool(server, added);
      else registerExtraPrompt(server, added);
    }),
  );
}

/** The compiled script, for `{ command: process.execPath, args: [modernServerEntry, "serve", "stdio"] }`. */
export const modernServerEntry = fileURLToPath(import.meta.url);

/** A running HTTP modern server: its endpoint, everything it wrote, and `stop()`. */
export interface ModernServer {
  readonly url: string;
  readonly pid: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node modern-server.js serve http` as a child process and resolves with its endpoint once it listens (within
 * `timeoutMs`); rejects, with the child stopped, if it exits or does not listen in time.
 */
export async function startModernServer(options: { name?: string; timeoutMs?: number } = {}): Promise<ModernServer> {
  const args = [modernServerEntry, "serve", "http", "--name", options.name ?? "modern-test-server"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-200_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the modern server did not listen:\n${output}`)),
      options.timeoutMs ?? 30_000,
    );
    const look = () => {
      const found = /listening at (\S+)/.exec(output)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on("data", look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the modern server exited:\n${output}`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { url, pid: child.pid ?? 0, output: () => output, stop };
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, transport, ...rest] = process.argv.slice(2);
  const name = option(rest, "--name") ?? "modern-test-server";
  if (command === "serve" && transport === "http") await serveHttp(name);
  else if (command === "serve" && transport === "stdio") serveOnStdio(name);
}
