/**
 * The pre-release MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, installed beside the
 * pinned 0.1.16 as the alias `@modelcontextprotocol/conformance-next`) and its three 2026-07-28 server scenarios:
 * `server-stateless` (no `initialize`, the `_meta` envelope, `server/discover`, `-32022`, `-32021`, removed methods,
 * `subscriptions/listen`), `http-header-validation` (`Mcp-Method`, `Mcp-Name`, `-32020`) and
 * `http-custom-header-server-validation` (`Mcp-Param-*` from a tool's `x-mcp-header`, the base64 sentinel). Each
 * scenario is one run of the suite's CLI, bounded in time; its `checks.json` is read back.
 */

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScenarioResult } from "./conformance.js";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The suite's 2026-07-28 server scenarios issue 45 names, in the order they run. */
export const MODERN_SCENARIOS = [
  "server-stateless",
  "http-header-validation",
  "http-custom-header-server-validation",
] as const;
export type ModernScenario = (typeof MODERN_SCENARIOS)[number];

/** One scenario's checks: {@link ScenarioResult} plus the checks the suite only warned about (its SHOULDs). */
export interface ModernScenarioResult extends ScenarioResult {
  readonly scenario: ModernScenario;
  /** The warned checks' ids and messages (a missed `list_changed` on a listen stream is one). */
  readonly warnings: readonly string[];
}

interface Check {
  id?: string;
  status?: string;
  errorMessage?: string;
}

/** How long one scenario may take (the suite's own per-scenario timeout is 30 s). */
const SCENARIO_MS = 90_000;

/** Runs the suite's CLI to the end (or kills it after `ms`); resolves with what it wrote. */
function runCli(args: string[], cwd: string, ms: number): Promise<string> {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-500_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the conformance suite ran longer than ${ms} ms:\n${output}`));
    }, ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

function checksOf(file: string): Check[] {
  return JSON.parse(readFileSync(file, "utf8")) as Check[];
}

function named(checks: readonly Check[]): string[] {
  return checks.map((c) => `${c.id ?? "?"}: ${c.errorMessage ?? ""}`);
}

/** The `checks.json` the suite wrote for `scenario` into `out` (its folder is `server-<scenario>-<timestamp>`). */
function readScenario(out: string, scenario: ModernScenario, output: string): ModernScenarioResult {
  const folder = readdirSync(out).find((entry) => entry.startsWith(`server-${scenario}-20`));
  const file = folder === undefined ? undefined : join(out, folder, "checks.json");
  assert.ok(file !== undefined && existsSync(file), `the suite wrote no checks for ${scenario}:\n${output}`);
  const checks = checksOf(file);
  const failed = checks.filter((c) => c.status === "FAILURE");
  return {
    scenario,
    passed: checks.filter((c) => c.status === "SUCCESS").length,
    failed: failed.length,
    failures: named(failed),
    warnings: named(checks.filter((c) => c.status === "WARNING")),
  };
}

/**
 * Runs `conformance server --url <url> --scenario <s>` of the pre-release suite for each of `scenarios` (all three by
 * default) and returns each one's check counts, in order. On Node 20 the suite's CLI needs the same module hook as the
 * pinned one (conformance-hook.ts: `fs.globSync`, never called by `server`).
 */
export async function runModernScenarios(
  url: string,
  scenarios: readonly ModernScenario[] = MODERN_SCENARIOS,
): Promise<ModernScenarioResult[]> {
  const out = mkdtempSync(join(tmpdir(), "backplane-conformance-modern-"));
  const pkg = require.resolve("@modelcontextprotocol/conformance-next/package.json");
  const cli = join(dirname(pkg), "dist", "index.js");
  const major = Number(process.versions.node.split(".")[0]);
  const node = major >= 22 ? [] : ["--import", join(here, "conformance-hook.js")];
  try {
    const results: ModernScenarioResult[] = [];
    for (const scenario of scenarios) {
      const args = [...node, cli, "server", "--url", url, "--scenario", scenario, "-o", out];
      results.push(readScenario(out, scenario, await runCli(args, out, SCENARIO_MS)));
    }
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
