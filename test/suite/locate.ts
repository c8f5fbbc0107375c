/**
 * Finds the official JSON-Schema-Test-Suite (docs/project/conformance.md "Where the suite comes from"):
 * `$JSON_SCHEMA_TEST_SUITE`, then `fixtures/json-schema-test-suite`, then `../shared/json-schema-test-suite`. Fails
 * loudly when none is present, or when the copy names a commit other than the pinned `COMMIT`: one line saying how to
 * get the right copy, and the test file stops there (a stack trace would only bury that line).
 */

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export function pinnedCommit(): string {
  return readFileSync(join(repoRoot, "COMMIT"), "utf8").trim();
}

export function candidates(): string[] {
  const list: string[] = [];
  const env = process.env["JSON_SCHEMA_TEST_SUITE"];
  if (env !== undefined && env !== "") list.push(resolve(env));
  list.push(
    join(repoRoot, "fixtures", "json-schema-test-suite"),
    resolve(repoRoot, "..", "shared", "json-schema-test-suite"),
  );
  return list;
}

export function locateSuite(): string {
  for (const dir of candidates()) {
    if (!existsSync(join(dir, "tests", "draft2020-12"))) continue;
    const commitFile = join(dir, "COMMIT");
    const head = existsSync(commitFile) ? readFileSync(commitFile, "utf8").trim() : gitHead(dir);
    if (head !== undefined && head !== pinnedCommit()) {
      suiteUnusable(`the JSON-Schema-Test-Suite at ${dir} is at commit ${head}, but COMMIT pins ${pinnedCommit()}`);
    }
    return dir;
  }
  suiteUnusable(`no copy of the JSON-Schema-Test-Suite found (looked in: ${candidates().join(", ")})`);
}

function suiteUnusable(problem: string): never {
  process.stderr.write(
    `${problem}: run "npm run suite:fetch" to clone it at ${pinnedCommit()}, ` +
      `or set JSON_SCHEMA_TEST_SUITE to a copy at that commit\n`,
  );
  process.exit(1);
}

function gitHead(dir: string): string | undefined {
  const head = join(dir, ".git", "HEAD");
  if (!existsSync(head)) return undefined;
  const ref = readFileSync(head, "utf8").trim();
  if (!ref.startsWith("ref: ")) return ref;
  const refFile = join(dir, ".git", ref.slice(5));
  return existsSync(refFile) ? readFileSync(refFile, "utf8").trim() : undefined;
}

/** Every JSON file below `dir`, as paths relative to it, sorted. */
export function jsonFiles(dir: string, recursive = true): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        if (recursive) walk(path);
      } else if (name.endsWith(".json")) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}

/** The suite's remotes, registered under http://localhost:1234/ as the suite's README says. */
export function remotes(suite: string): Map<string, unknown> {
  const registry = new Map<string, unknown>();
  const dir = join(suite, "remotes");
  for (const file of jsonFiles(dir)) {
    registry.set(
      "http://localhost:1234/" + file.split("\\").join("/"),
      JSON.parse(readFileSync(join(dir, file), "utf8")),
    );
  }
  return registry;
}
