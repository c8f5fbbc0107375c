/**
 * A stdio MCP server (SDK 1.x) whose tools and answers a test writes into a file, for the gateway's policy tests:
 * `node scripted-server.js serve <name> <script.json>`. The file holds `{ "tools": [...], "results": { tool: result },
 * "errors": { tool: { code, message } }, "prompts": [...], "raw": { "tools/list" or tool: result text } }` (every
 * resource read is `-32602 Resource <uri> not found`) and is read again at every request (a `raw` answer
 * is written as it is, so that it can hold what the SDK's own serialiser could not write), so a test changes what the server lists by rewriting it and
 * calling the tool `notify` (always listed), which sends `notifications/tools/list_changed`. A call to a tool without a
 * scripted result answers with the server's name, the tool's name and the arguments. Imported, or run without `serve`
 * (as the test runner does), it does nothing.
 */

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** What a script file holds. */
export interface Script {
  readonly tools: readonly Record<string, unknown>[];
  readonly results?: Readonly<Record<string, unknown>>;
  readonly prompts?: readonly Record<string, unknown>[];
  /** Tools that answer with a JSON-RPC error (an `McpError` thrown in the SDK's handler). */
  readonly errors?: Readonly<Record<string, { code: number; message: string }>>;
  /** Answers written as they are: `result` JSON text by tool name, or for `tools/list`. */
  readonly raw?: Readonly<Record<string, string>>;
}

/** Writes a JSON-RPC answer whose result is `text` as it is, and never lets the SDK answer the request itself. */
function answerRaw(id: string | number, text: string): Promise<never> {
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}\n`);
  return new Promise(() => undefined);
}

const NOTIFY = { name: "notify", description: "Sends tools/list_changed.", inputSchema: { type: "object" } };

async function serve(name: string, file: string): Promise<void> {
  const script = () => JSON.parse(readFileSync(file, "utf8")) as Script;
  const server = new Server(
    { name, version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    const raw = script().raw ?? {};
    if (Object.hasOwn(raw, "tools/list")) return answerRaw(extra.requestId, raw["tools/list"] as string);
    return { tools: [...script().tools, NOTIFY] } as never;
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: script().prompts ?? [] }) as never);
  server.setRequestHandler(GetPromptRequestSchema, (request) => ({
    messages: [{ role: "user", content: { type: "text", text: `${name}: prompt ${request.params.name}` } }],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    throw new McpError(-32602, `Resource ${request.params.uri} not found`);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = request.params.name;
    const raw = script().raw ?? {};
    if (Object.hasOwn(raw, tool)) return answerRaw(extra.requestId, raw[tool] as string);
    process.stderr.write(`call ${tool}\n`);
    if (tool === "notify") {
      await server.sendToolListChanged();
      return { content: [{ type: "text", text: "notified" }] };
    }
    const errors = script().errors ?? {};
    const error = Object.hasOwn(errors, tool) ? errors[tool] : undefined;
    if (error !== undefined) throw new McpError(error.code, error.message);
    const results = script().results ?? {};
    if (Object.hasOwn(results, tool)) return results[tool] as never;
    return { content: [{ type: "text", text: `${name}: ${tool} ${JSON.stringify(request.params.arguments ?? {})}` }] };
  });
  await server.connect(new StdioServerTransport());
}

const [mode, name, file] = process.argv.slice(2);
const main = process.argv[1];
if (
  main !== undefined &&
  import.meta.url === pathToFileURL(main).href &&
  mode === "serve" &&
  name !== undefined &&
  file !== undefined
) {
  await serve(name, file);
}
