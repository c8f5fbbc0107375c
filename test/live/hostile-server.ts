/**
 * A stdio MCP server (SDK 1.x) for the gateway's bounds (issue 44): `node hostile-server.js <name> <mode> [arg…]`.
 * Modes:
 * - `templates <template>…`: publishes the URI templates; a read answers `<name> read <uri>`.
 * - `flood <bytes>`: its tool `flood` answers at once, then writes `notifications/message` of `bytes` bytes as fast
 *   as its stdout takes them, until its stdin ends.
 * - `storm`: answers every `tools/list` and then sends `tools/list_changed` again (stderr: `listed <n>`).
 * - `pages <pages> <bytes>`: after its tool `grow` is called, `tools/list` answers `pages` pages, each one tool with a
 *   description of `bytes` bytes (stderr: `page <n>`).
 * Every mode also has the tool `echo`. Imported, or run without arguments (as the test runner does), it does nothing.
 */

import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const OBJECT = { type: "object" as const, properties: {} };

function tool(name: string, description = `The tool ${name}.`) {
  return { name, description, inputSchema: OBJECT };
}

async function serve(name: string, mode: string, args: readonly string[]): Promise<void> {
  const templates = mode === "templates";
  const server = new Server(
    { name, version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, logging: {}, ...(templates ? { resources: {} } : {}) } },
  );
  let listed = 0;
  let grown = false;
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    listed++;
    process.stderr.write(`listed ${listed}\n`);
    if (mode === "storm") setTimeout(() => void server.sendToolListChanged().catch(() => undefined), 20);
    if (mode === "pages" && grown) {
      const page = Number(request.params?.cursor ?? "0");
      process.stderr.write(`page ${page}\n`);
      const more = page + 1 < Number(args[0]);
      return {
        tools: [tool(`t${page}`, "d".repeat(Number(args[1])))],
        ...(more ? { nextCursor: String(page + 1) } : {}),
      };
    }
    return {
      tools: [tool("echo"), ...(mode === "flood" ? [tool("flood")] : []), ...(mode === "pages" ? [tool("grow")] : [])],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "flood") {
      const data = "f".repeat(Number(args[0]));
      let stop = false;
      process.stdin.on("end", () => (stop = true));
      setImmediate(async () => {
        for (let i = 0; !stop; i++) {
          await server.sendLoggingMessage({ level: "info", data: `${i} ${data}` }).catch(() => (stop = true));
        }
      });
      return { content: [{ type: "text", text: "flooding" }] };
    }
    if (request.params.name === "grow") {
      grown = true;
      setImmediate(() => void server.sendToolListChanged().catch(() => undefined));
      return { content: [{ type: "text", text: "growing" }] };
    }
    return { content: [{ type: "text", text: `${name}: echo` }] };
  });
  if (templates) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: args.map((uriTemplate, i) => ({ uriTemplate, name: `template${i}` })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
      contents: [{ uri: request.params.uri, text: `${name} read ${request.params.uri}` }],
    }));
  }
  await server.connect(new StdioServerTransport());
}

const [name, mode, ...rest] = process.argv.slice(2);
const main = process.argv[1];
if (main !== undefined && import.meta.url === pathToFileURL(main).href && name !== undefined && mode !== undefined) {
  await serve(name, mode, rest);
}
