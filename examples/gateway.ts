/**
 * The MCP gateway (docs/guide/gateway.md): a client's `mcpServers` file naming the reference memory server, the
 * gateway started as a client starts any MCP server, and an SDK client in front of it that lists the namespaced
 * tools, makes an invalid call (refused before the server sees it) and a valid one, then closes stdin (the gateway
 * stops the server and exits).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const require = createRequire(import.meta.url);
const installed = (name: string) => dirname(require.resolve(`${name}/package.json`));
const cli = join(installed("backplane-agent-runtime"), "dist", "cli", "main.js"); // the backplane-schema command
const memory = join(installed("@modelcontextprotocol/server-memory"), "dist", "index.js");

// The file a client already has, moved beside the gateway.
const dir = mkdtempSync(join(tmpdir(), "gateway-"));
const server = { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } };
writeFileSync(join(dir, "gateway.json"), JSON.stringify({ mcpServers: { memory: server } }));

// What the client's configuration now starts: the gateway.
const gateway = ["gateway", "--config", join(dir, "gateway.json"), "--pins", join(dir, "pins.json")];
const transport = new StdioClientTransport({ command: process.execPath, args: [cli, ...gateway], stderr: "ignore" });
const client = new Client({ name: "host", version: "1.0.0" });
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  console.log(tools.map((tool) => tool.name));
  const invalid = await client.callTool({ name: "memory__search_nodes", arguments: { query: 5 } });
  console.log(invalid);
  const valid = await client.callTool({ name: "memory__read_graph", arguments: {} });
  console.log(valid.structuredContent);
  const pins = JSON.parse(readFileSync(join(dir, "pins.json"), "utf8")) as Record<string, string>;
  const names = Object.keys(pins);
  console.log(
    names.length,
    "pins written on first use, the server's identity among them:",
    names.filter((n) => n.startsWith("server:")),
  );
} finally {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}

// Output:
// [
//   'memory__create_entities',
//   'memory__create_relations',
//   'memory__add_observations',
//   'memory__delete_entities',
//   'memory__delete_observations',
//   'memory__delete_relations',
//   'memory__read_graph',
//   'memory__search_nodes',
//   'memory__open_nodes'
// ]
// {
//   content: [
//     {
//       type: 'text',
//       text: "The arguments do not match the tool's input schema (1 problem):\n" +
//         '- /query: must be string (expected by "type" at /properties/query/type)'
//     }
//   ],
//   isError: true
// }
// { entities: [], relations: [] }
// 10 pins written on first use, the server's identity among them: [ 'server:memory' ]
