/** Scratch directories standing in for a fresh clone or a consumer project, and processes run in them. */

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after } from "node:test";
import { repoRoot } from "../suite/locate.js";

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A directory removed when the test (or, called at the top level, the test file) that made it ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `backplane-${prefix}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The environment of the test run with the given variables set, and those given `undefined` removed
 * (so a developer's JSON_SCHEMA_TEST_SUITE cannot leak into a run that must not find the suite).
 */
export function environment(changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Run {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeout ?? 120_000,
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Copies repository paths (files or directories) into `dir` at the same relative places. */
export function copyFromRepo(dir: string, paths: readonly string[]): void {
  for (const path of paths) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    cpSync(join(repoRoot, path), join(dir, path), { recursive: true });
  }
}

/** The repository's installed dependencies, linked (not copied) into `dir`. */
export function linkNodeModules(dir: string): void {
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
}
