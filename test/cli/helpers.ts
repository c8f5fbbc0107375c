/** Shared helpers for the CLI tests: the repository root and a synchronous spawn of the built CLI. */

import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** This file compiles to build/test/cli/helpers.js; the repository root is three levels up. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The CLI as tsconfig.test.json compiles it (the same source as dist/cli/main.js). */
export const cliPath = join(repoRoot, "build", "src", "cli", "main.js");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: Record<string, string>; cli?: string } = {},
): CliRun {
  const result = spawnSync(process.execPath, [options.cli ?? cliPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
