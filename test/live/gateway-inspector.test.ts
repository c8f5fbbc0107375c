/**
 * The guide's MCP Inspector line (issue 44, observation 22), run through the real Inspector CLI
 * (`@modelcontextprotocol/inspector-cli` 1.0.3, a devDependency: the Inspector 1.x's launcher and command-line mode,
 * which run on Node 20). The line is read from docs/guide/gateway.md and run as written, `npx
 * @modelcontextprotocol/inspector` standing for the installed CLI: with `--` the Inspector lists the gateway's tools,
 * namespaced; without it the Inspector takes `--config` as its own and reaches the server past the gateway.
 */

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";
import { run, scratchDir } from "../package/scratch.js";
import { misbehaving } from "./gateway-helpers.js";

const INSPECTOR = join(repoRoot, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "cli.js");
const NPX = "npx @modelcontextprotocol/inspector";

/** The guide's command-line Inspector line, as words. */
function guideLine(): string[] {
  const guide = readFileSync(join(repoRoot, "docs", "guide", "gateway.md"), "utf8");
  const line = /`(npx @modelcontextprotocol\/inspector --cli -- [^`]+)`/.exec(guide)?.[1];
  assert.ok(line !== undefined, "the guide shows the Inspector's command-line form");
  return line.split(/\s+/);
}

/**
 * Runs `words` (the guide's line) with the installed Inspector CLI in a scratch directory holding `gateway.json`. The
 * CLI looks for its own package.json at `../package.json` from the working directory before importing it from its
 * folder (a quirk of the standalone package), so the directory it runs in has a package.json above it.
 */
function inspect(words: readonly string[]): string[] {
  assert.deepEqual(words.slice(0, 2), NPX.split(" "));
  const dir = scratchDir("inspector");
  writeFileSync(join(dir, "package.json"), "{}");
  const cwd = join(dir, "work");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "gateway.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
  const args = words.slice(2).map((w) => w.replace("/path/to/dist/", `${join(repoRoot, "dist")}/`));
  const inspected = run(process.execPath, [INSPECTOR, ...args], { cwd, timeout: 60_000 });
  assert.equal(inspected.status, 0, inspected.stderr);
  const listed = JSON.parse(inspected.stdout) as { tools: { name: string }[] };
  return listed.tools.map((t) => t.name);
}

test("the guide's Inspector line lists the gateway's tools through the Inspector CLI", () => {
  const words = guideLine();
  assert.ok(words.includes("--"), "the line separates the Inspector's options from the gateway's");
  const tools = inspect(words);
  assert.ok(tools.includes("alpha__echo"), tools.join(", "));
  assert.ok(
    tools.every((t) => t.startsWith("alpha__")),
    "every tool comes through the gateway",
  );
});

test("without --, the Inspector reads the gateway's --config as its own and bypasses the gateway", () => {
  const tools = inspect(guideLine().filter((w) => w !== "--"));
  assert.ok(tools.includes("echo"), tools.join(", "));
  assert.ok(!tools.some((t) => t.startsWith("alpha__")), "the gateway was not in the path");
});
