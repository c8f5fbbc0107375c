/**
 * The README's gateway block runs after the README's own install (issue 44, observation 17): the block is read from
 * README.md, its paths pointed at this clone (built, with the SDK 1.x installed, as the README says) and at a scratch
 * directory, and started exactly as a client starts it (`command` and `args`, the SDK's stdio client with its default
 * environment); the client lists the servers' tools through it. The README's other way, the command installed
 * globally with the SDK beside it, is run too: `npm pack`, the README's `npm install -g` line into a scratch prefix
 * (`--prefer-offline`: the npm cache first; the SDK's registry metadata is not in the cache `npm ci` leaves), and
 * `"command": "backplane-schema"` found on the `PATH` that prefix gives.
 */

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "../suite/locate.js";
import { misbehaving } from "../live/gateway-helpers.js";
import { run, scratchDir } from "./scratch.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const CLONE = "/path/to/backplane-agent-runtime";
const HOME = "/home/ada/.mcp/";

/** The README's section on the gateway. */
function gatewaySection(): string {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("## In front of an MCP client: the gateway");
  assert.ok(start >= 0, "the README has its gateway section");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The `mcpServers.gateway` entry of the section's JSON block. */
function readmeEntry(section: string): { command: string; args: string[] } {
  const block = /```json\n([^]*?)\n```/.exec(section);
  assert.ok(block !== null, "the gateway section shows a client configuration");
  const config = JSON.parse(block[1] as string) as { mcpServers: { gateway: { command: string; args: string[] } } };
  return config.mcpServers.gateway;
}

/** Writes the gateway's own configuration (one test server) where the README's paths point, in `dir`. */
function configure(dir: string, args: readonly string[]): string[] {
  writeFileSync(join(dir, "gateway.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
  return args.map((arg) => arg.replace(CLONE, repoRoot).replace(HOME, `${dir}/`));
}

/** Starts `command args` as a client would and lists the tools it serves. */
async function toolsThrough(command: string, args: string[], env: Record<string, string>): Promise<string[]> {
  const transport = new StdioClientTransport({ command, args, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  const client = new Client({ name: "readme-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    return (await client.listTools(undefined, { timeout: 60_000 })).tools.map((t) => t.name);
  } catch (e) {
    throw new Error(`${command} ${args.join(" ")} did not serve: ${String(e)}\n${stderr}`, { cause: e });
  } finally {
    await client.close();
  }
}

test("the README's gateway block, after the README's install (a built clone with the SDK), serves the tools", async () => {
  const section = gatewaySection();
  assert.match(section, /npm install --no-save @modelcontextprotocol\/sdk@1/, "the README says to add the SDK");
  const sdk = JSON.parse(
    readFileSync(join(repoRoot, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8"),
  ) as { version: string };
  assert.match(sdk.version, /^1\./, "this clone has the SDK 1.x, as the README's install leaves it");
  assert.ok(existsSync(join(repoRoot, "dist", "cli", "main.js")), "this clone is built (npm run build)");
  const entry = readmeEntry(section);
  assert.equal(entry.command, "node");
  assert.equal(entry.args[0], `${CLONE}/dist/cli/main.js`);
  const dir = scratchDir("readme-gateway");
  const args = configure(dir, entry.args);
  const tools = await toolsThrough(entry.command, args, getDefaultEnvironment());
  assert.ok(tools.includes("alpha__echo"), tools.join(", "));
  assert.ok(existsSync(join(dir, "pins.json")), "the pins file the block names is written");
});

test(
  "the README's global install puts backplane-schema on the PATH with the SDK beside it",
  { timeout: 600_000 },
  async () => {
    const section = gatewaySection();
    const line = /`(npm install -g\s+[^`]+)`/.exec(section)?.[1];
    assert.ok(line !== undefined, "the README shows the global install");
    const dir = scratchDir("readme-global");
    const pack = run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: repoRoot });
    assert.equal(pack.status, 0, pack.stderr);
    const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as { filename: string }[];
    const words = line.split(/\s+/).slice(3);
    assert.deepEqual(words, [`${CLONE}/${packed!.filename}`, "@modelcontextprotocol/sdk@1"], "the README's tarball");
    const prefix = join(dir, "prefix");
    const install = run(
      npm,
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        join(dir, packed!.filename),
      ].concat(words.slice(1)),
      { cwd: dir, timeout: 300_000 },
    );
    assert.equal(install.status, 0, install.stderr);
    const entry = readmeEntry(section);
    const args = configure(dir, entry.args.slice(entry.args.indexOf("gateway")));
    const env = getDefaultEnvironment();
    const path = [join(prefix, "bin"), env["PATH"] ?? ""].join(delimiter);
    const tools = await toolsThrough("backplane-schema", args, { ...env, PATH: path });
    assert.ok(tools.includes("alpha__echo"), tools.join(", "));
  },
);
