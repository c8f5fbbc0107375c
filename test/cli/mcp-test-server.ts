/**
 * A stdio MCP server for the `admit --mcp` tests, in the behaviour its first argument names: `paged` lists three
 * tools over three pages of `tools/list`; `loop` answers every page with the same cursor; `hang` never answers and
 * ignores SIGTERM. Imported, or run without an argument (as the test runner does), it does nothing.
 */

import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

export const PAGED_SERVER = { name: "paged-test-server", version: "3.1.4" };

/** The pages `paged` lists, in order. */
export const PAGES: Tool[][] = [
  [{ name: "first", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
  [
    {
      name: "second",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        definitions: { n: { type: "integer" } },
        properties: { n: { $ref: "#/definitions/n" } },
      },
    },
  ],
  [
    {
      name: "third",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    },
  ],
];

async function serve(mode: string): Promise<void> {
  if (mode === "hang") {
    process.on("SIGTERM", () => undefined);
    setInterval(() => undefined, 1_000);
    return;
  }
  const server = new Server(PAGED_SERVER, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (mode === "loop") return { tools: PAGES[0]!, nextCursor: "again" };
    const page = Number(request.params?.cursor ?? "0");
    return { tools: PAGES[page]!, ...(page + 1 < PAGES.length ? { nextCursor: String(page + 1) } : {}) };
  });
  await server.connect(new StdioServerTransport());
}

// Only when run as a program: the tests import PAGES from this module.
const mode = process.argv[2];
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && mode !== undefined)
  await serve(mode);
