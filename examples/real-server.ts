/**
 * Connect a real MCP server (docs/guide/real-server.md): an SDK 2.x server whose tools are declared with this engine,
 * a client that lists them, admits them as one batch and runs every call through `Execution.invoke`, with the client's
 * `callTool` as `dispatch` (here over the SDK's in-memory transport; over stdio or HTTP it is the same).
 */

import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { compile, Execution, ToolCatalog, type ExecutionHost } from "backplane-agent-runtime";
import { BackplaneJsonSchemaValidator } from "backplane-agent-runtime/mcp";

const server = new McpServer({ name: "converter", version: "1.2.0" });
server.registerTool(
  "celsius_to_fahrenheit",
  {
    description: "Converts a temperature.",
    inputSchema: compile({
      type: "object",
      properties: { celsius: { type: "number", minimum: -273.15 } },
      required: ["celsius"],
      additionalProperties: false,
    }),
    outputSchema: compile({ type: "object", properties: { fahrenheit: { type: "number" } }, required: ["fahrenheit"] }),
  },
  (args) => {
    const { celsius } = args as { celsius: number };
    const fahrenheit = (celsius * 9) / 5 + 32;
    return { content: [{ type: "text", text: String(fahrenheit) }], structuredContent: { fahrenheit } };
  },
);

const client = new Client(
  { name: "host", version: "1.0.0" },
  { jsonSchemaValidator: new BackplaneJsonSchemaValidator() },
);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
try {
  // What the server lists becomes a batch: the server's version as the revision, its name as the backend.
  const { tools } = await client.listTools();
  // The in-memory transport hands over the SDK's objects, whose absent fields are own properties set to undefined;
  // over stdio or HTTP the tools arrive as JSON. Admission reads them as JSON data, so give it what the wire carries.
  const listed = JSON.parse(JSON.stringify(tools)) as typeof tools;
  const descriptors = listed.map((tool) => ({ ...tool, revision: "1.2.0", backend: "converter" }));
  const admitted = ToolCatalog.admitBatch(descriptors, { backends: ["converter"] });
  if (!admitted.ok) throw new Error(admitted.error.message);
  console.log(
    "admitted:",
    admitted.value.accepted,
    admitted.value.pins["celsius_to_fahrenheit"]?.length,
    "chars pinned",
  );

  type CallToolResult = Awaited<ReturnType<typeof client.callTool>>;
  const host: ExecutionHost<CallToolResult> = {
    dispatch: ({ serverName, arguments: args }) =>
      client.callTool({ name: serverName, arguments: args as Record<string, unknown> }),
  };
  for (const args of [{ celsius: 100 }, { celsius: -300 }, { kelvin: 0 }]) {
    const call = { name: "celsius_to_fahrenheit", arguments: args };
    const result = await Execution.invoke(admitted.value, call, host);
    console.log(result.ok ? result.value.structuredContent : `${result.error.stage}: ${result.error.modelText}`);
  }
} finally {
  await client.close();
  await server.close();
}

// Output:
// admitted: [ 'celsius_to_fahrenheit' ] 344 chars pinned
// { fahrenheit: 212 }
// arguments: The arguments do not match the tool's input schema (1 problem):
// - /celsius: must be at least -273.15 (expected by "minimum" at /properties/celsius/minimum)
// arguments: The arguments do not match the tool's input schema (2 problems):
// - (arguments): must have required property "celsius" (expected by "required" at /required)
// - (arguments): must not have property "kelvin", which the schema does not allow (expected by "additionalProperties" at /additionalProperties)
