// A trivial stdio MCP server for the gateway benchmark (SDK 1.x): one tool, `echo`, that answers at once. Run as
// `node bench/gateway-server.mjs`; it lives until its stdin ends.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
const echo = {
  name: "echo",
  description: "Echoes the message.",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [echo] }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: String(request.params.arguments?.message) }],
}));
await server.connect(new StdioServerTransport());
