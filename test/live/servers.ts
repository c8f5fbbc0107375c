/**
 * The official reference MCP servers (pinned devDependencies, SDK 1.x) spawned over stdio with the SDK client: no
 * network, no npx, bounded waits, children stopped by pid and their temp directories removed.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";

export const VERSION = "2026.8.31";

export interface ServerSpec {
  /** The backend id the catalog names. */
  backend: string;
  /** The npm package. */
  pkg: string;
  /** Arguments after the script; `root` is the server's own temp directory. */
  args: (root: string) => string[];
  /** Environment beyond the SDK's default one. */
  env?: (root: string) => Record<string, string>;
  /** How many tools the server lists to a client with roots, sampling and elicitation (form and URL). */
  tools: number;
}

export const SERVERS: readonly ServerSpec[] = [
  { backend: "everything", pkg: "@modelcontextprotocol/server-everything", args: () => ["stdio"], tools: 17 },
  { backend: "filesystem", pkg: "@modelcontextprotocol/server-filesystem", args: (root) => [root], tools: 14 },
  {
    backend: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    args: () => [],
    env: (root) => ({ MEMORY_FILE_PATH: join(root, "memory.jsonl") }),
    tools: 9,
  },
  { backend: "sequential-thinking", pkg: "@modelcontextprotocol/server-sequential-thinking", args: () => [], tools: 1 },
];

export interface RunningServer {
  client: Client;
  /** The tools the server listed, as published. */
  tools: Tool[];
  /** The server's temp directory (the filesystem server's only allowed root). */
  root: string;
  /** The child's process id. */
  pid: number;
  /** Closes the client, makes sure the child is gone (killing it by pid if it lingers) and removes the temp dir. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The server's bin script in node_modules (the pinned version). */
export function script(pkg: string): string {
  const manifest = require(`${pkg}/package.json`) as { version: string; bin: Record<string, string> };
  assert.equal(manifest.version, VERSION, `${pkg} is pinned to ${VERSION}`);
  return join(dirname(require.resolve(`${pkg}/package.json`)), Object.values(manifest.bin)[0] as string);
}

/** Whether a process with this id still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pause(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Spawns a server and lists its tools (the everything server registers some right after initialisation). `wrap`
 * turns the server's node arguments into those of the process actually spawned (a proxy in front of it).
 */
export async function start(
  spec: ServerSpec,
  validator = new BackplaneJsonSchemaValidator(),
  wrap: (args: string[]) => string[] = (args) => args,
): Promise<RunningServer> {
  const root = mkdtempSync(join(tmpdir(), `backplane-live-${spec.backend}-`));
  writeFileSync(join(root, "notes.txt"), "line one\nline two\n");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: wrap([script(spec.pkg), ...spec.args(root)]),
    env: { ...getDefaultEnvironment(), ...spec.env?.(root) },
    cwd: root,
    stderr: "ignore",
  });
  const client = new Client(
    { name: "backplane-live-test", version: "1.0.0" },
    { capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } }, jsonSchemaValidator: validator },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  let pid: number | null = null;
  const stop = async (): Promise<void> => {
    try {
      await client.close();
      for (let i = 0; pid !== null && alive(pid) && i < 40; i++) await pause(50);
      if (pid !== null && alive(pid)) process.kill(pid, "SIGKILL");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  try {
    await client.connect(transport);
    pid = transport.pid;
    assert.ok(pid !== null, "the child has a pid");
    let tools: Tool[] = [];
    for (let i = 0; i < 40; i++) {
      tools = (await client.listTools()).tools;
      if (tools.length >= spec.tools) break;
      await pause(50);
    }
    return { client, tools, root, pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
