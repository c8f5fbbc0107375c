/**
 * A stdio MCP server (SDK 1.x) for the gateway's bounds (issue 44): `node hostile-server.js <name> <mode> [arg…]`.
 * Modes:
 * - `flood <bytes>`: its tool `flood` answers at once, then writes `notifications/message` of `bytes` bytes as fast
 *   as its stdout takes them, until its stdin ends.
 * - `pages <pages> <bytes>`: after its tool `grow` is called, `tools/list` answers `pages` pages, each one tool with a
 *   description of `bytes` bytes (stderr: `page <n>`).
 * - `deaf`: after its tool `deafen` is called, it reads nothing more from its stdin (it stays up).
 * Every mode also has the tool `echo`. Imported, or run without arguments (as the test runner does), it does nothing.
 * (URI templates and a `list_changed` storm are played by in-memory servers: test/cli/gateway/in-process.test.ts.)
 */

import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const OBJECT = { type: "object" as const, properties: {} };

function tool(name: string, description = `The tool ${name}.`) {
  return { name, description, inputSchema: OBJECT };
}

async function serve(name: string, mode: string, args: readonly string[]): Promise<void> {
  const server = new Server(
    { name, version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  let grown = false;
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
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
      tools: [
        tool("echo"),
        ...(mode === "flood" ? [tool("flood")] : []),
        ...(mode === "pages" ? [tool("grow")] : []),
        ...(mode === "deaf" ? [tool("deafen")] : []),
      ],
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
    if (request.params.name === "deafen") {
      // Once this answer is written, nothing more is read: what the gateway sends waits in the pipe, then in its queue.
      setImmediate(() => process.stdin.pause());
      // With stdin paused nothing else keeps the process alive; it stays up until it is stopped.
      setInterval(() => undefined, 60_000);
      return { content: [{ type: "text", text: "deaf" }] };
    }
    if (request.params.name === "grow") {
      grown = true;
      setImmediate(() => void server.sendToolListChanged().catch(() => undefined));
      return { content: [{ type: "text", text: "growing" }] };
    }
    return { content: [{ type: "text", text: `${name}: echo` }] };
  });
  await server.connect(new StdioServerTransport());
}

const [name, mode, ...rest] = process.argv.slice(2);
const main = process.argv[1];
if (main !== undefined && import.meta.url === pathToFileURL(main).href && name !== undefined && mode !== undefined) {
  await serve(name, mode, rest);
}
