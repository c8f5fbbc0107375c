/**
 * The tools, prompt and resource of the SDK 2.x test server (modern-server.ts lists them), registered on one
 * `McpServer` instance by {@link build}. What `change_tools` added lives in the process, so every instance built later
 * lists it too.
 */

import { randomBytes } from "node:crypto";
import {
  acceptedContent,
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

export const MAX_EXTRA = 64;
/** What changes while the process lives: the tools and prompts `change_tools` added. */
const added = { tools: [] as string[], prompts: [] as string[] };
/** Seals `ask_name`'s `requestState`; one process serves every round, so a per-process key is enough. */
const stateCodec = createRequestStateCodec<{ tool: string }>({ key: new Uint8Array(randomBytes(32)) });

/** How a server tells its clients that `change_tools` added `name`: the HTTP and stdio fronts differ. */
export type Changed = (server: McpServer, kind: "tools" | "prompts", name: string) => void;

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

export function registerExtraTool(server: McpServer, name: string): void {
  server.registerTool(name, { description: "A tool change_tools added.", inputSchema: NO_ARGS }, () => text(name));
}

export function registerExtraPrompt(server: McpServer, name: string): void {
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

/** One server instance (the SDK builds one per modern HTTP request, one per session or stdio connection). */
export function build(name: string, changed: Changed): McpServer {
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
