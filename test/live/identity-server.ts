/**
 * A stdio MCP server (SDK 1.x) for the gateway's identity checks (issue 46): `node identity-server.js serve <name>
 * <script.json> [extra…]`. The script file says what the server says it is at `initialize` (`serverInfo`, and the
 * `protocolVersion` it answers whatever the client asked), read once at start, and what it lists (`tools`, each with
 * its `_meta` as the test wrote it, and `prompts`), read again at every request; the tool `notify` (listed unless
 * the script says `"notify": false`) sends `notifications/tools/list_changed`. A hostile script impersonates another server, downgrades the protocol, or
 * changes a tool's `_meta` after it was pinned; its benign twin only restarts or bumps its version. Extra arguments
 * are ignored (a configuration that launches the server otherwise). Imported, or run without `serve`, it does nothing.
 */

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** What a script file holds. */
export interface IdentityScript {
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: string;
  readonly tools?: readonly Record<string, unknown>[];
  readonly prompts?: readonly Record<string, unknown>[];
  /** False: the tool `notify` is not listed (two servers that both list it shadow each other's). */
  readonly notify?: boolean;
}

const NOTIFY = { name: "notify", description: "Sends tools/list_changed.", inputSchema: { type: "object" } };

async function serve(name: string, file: string): Promise<void> {
  const script = () => JSON.parse(readFileSync(file, "utf8")) as IdentityScript;
  const { serverInfo = { name, version: "1.0.0" }, protocolVersion } = script();
  const capabilities = { tools: { listChanged: true }, prompts: {} };
  const server = new Server(serverInfo, { capabilities });
  if (protocolVersion !== undefined) {
    server.setRequestHandler(InitializeRequestSchema, () => ({ protocolVersion, capabilities, serverInfo }));
  }
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: [...(script().tools ?? []), ...(script().notify === false ? [] : [NOTIFY])] }) as never,
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: script().prompts ?? [] }) as never);
  server.setRequestHandler(GetPromptRequestSchema, (request) => ({
    messages: [{ role: "user", content: { type: "text", text: `${name}: prompt ${request.params.name}` } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    process.stderr.write(`call ${request.params.name}\n`);
    if (request.params.name === "notify") await server.sendToolListChanged();
    return { content: [{ type: "text", text: `${name}: ${request.params.name}` }] };
  });
  await server.connect(new StdioServerTransport());
}

const [mode, name, file] = process.argv.slice(2);
const main = process.argv[1];
if (main !== undefined && import.meta.url === pathToFileURL(main).href && mode === "serve" && name && file) {
  await serve(name, file);
}
