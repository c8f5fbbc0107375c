/**
 * A clone with no copy of the official suite explains itself: `npm test` (its pretest,
 * scripts/ensure-suite.mjs) and the suite runner (test/suite/locate.ts) each say in one line, with no
 * stack trace, to run `npm run suite:fetch` or set `JSON_SCHEMA_TEST_SUITE`. Each case runs in a scratch
 * directory laid out like a clone, where neither fixtures/ nor ../shared holds the suite.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";
import { copyFromRepo, environment, linkNodeModules, run, scratchDir, type Run } from "./scratch.js";

const SCRIPTS = ["COMMIT", "scripts/ensure-suite.mjs", "scripts/fetch-suite.mjs"];
const STACK_FRAME = /^\s+at /m;

function assertOneLineAdvice(output: string): void {
  const lines = output.trim().split("\n");
  assert.equal(lines.length, 1, `one line:\n${output}`);
  assert.match(lines[0]!, /"npm run suite:fetch"/);
  assert.match(lines[0]!, /JSON_SCHEMA_TEST_SUITE\b/);
  assert.doesNotMatch(output, STACK_FRAME);
}

/** A local git repository standing in for the upstream suite, with one commit holding `tests/draft2020-12`. */
function upstreamRepository(dir: string): string {
  mkdirSync(join(dir, "tests", "draft2020-12"), { recursive: true });
  writeFileSync(join(dir, "tests", "draft2020-12", "type.json"), "[]\n");
  const git = (...args: string[]): string =>
    execFileSync("git", ["-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.invalid", ...args], {
      encoding: "utf8",
    });
  git("init", "--quiet");
  git("add", "--all");
  git("commit", "--quiet", "--message", "suite");
  return git("rev-parse", "HEAD").trim();
}

function ensureSuite(clone: string, env: Record<string, string | undefined>): Run {
  return run(process.execPath, ["scripts/ensure-suite.mjs"], {
    cwd: clone,
    env: environment({ JSON_SCHEMA_TEST_SUITE: undefined, ...env }),
  });
}

test("ensure-suite when the suite cannot be fetched: one line naming suite:fetch and JSON_SCHEMA_TEST_SUITE", () => {
  const root = scratchDir("no-suite");
  const clone = join(root, "clone");
  copyFromRepo(clone, SCRIPTS);
  // An upstream that does not exist fails the way a machine without network does, without using it.
  const result = ensureSuite(clone, { JSON_SCHEMA_TEST_SUITE_REPO: join(root, "no-upstream") });
  assert.equal(result.status, 1);
  assert.equal(result.stdout, "");
  assertOneLineAdvice(result.stderr);
  assert.match(result.stderr, /does not appear to be a git repository/, "git's reason is kept");
  assert.ok(!existsSync(join(clone, "fixtures", "json-schema-test-suite")), "no half-fetched copy is left");
});

test("ensure-suite fetches the pinned commit when no copy is found", () => {
  const root = scratchDir("fetch-suite");
  const clone = join(root, "clone");
  copyFromRepo(clone, SCRIPTS);
  const commit = upstreamRepository(join(root, "upstream"));
  writeFileSync(join(clone, "COMMIT"), commit + "\n");
  const result = ensureSuite(clone, { JSON_SCHEMA_TEST_SUITE_REPO: join(root, "upstream") });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^fetched the suite at [0-9a-f]{40} into fixtures\/json-schema-test-suite\n$/);
  const fetched = join(clone, "fixtures", "json-schema-test-suite");
  assert.equal(readFileSync(join(fetched, "COMMIT"), "utf8").trim(), commit);
  assert.ok(existsSync(join(fetched, "tests", "draft2020-12", "type.json")));
});

test("ensure-suite is silent and fetches nothing when JSON_SCHEMA_TEST_SUITE names a copy", () => {
  const root = scratchDir("env-suite");
  const clone = join(root, "clone");
  copyFromRepo(clone, SCRIPTS);
  mkdirSync(join(root, "copy", "tests", "draft2020-12"), { recursive: true });
  const result = ensureSuite(clone, {
    JSON_SCHEMA_TEST_SUITE: join(root, "copy"),
    JSON_SCHEMA_TEST_SUITE_REPO: join(root, "no-upstream"),
  });
  assert.deepEqual(result, { status: 0, stdout: "", stderr: "" });
  assert.ok(!existsSync(join(clone, "fixtures")));
});

test("the suite runner with no copy of the suite: one line through npm test's reporter, no stack trace", () => {
  const clone = join(scratchDir("runner-no-suite"), "clone");
  copyFromRepo(clone, ["COMMIT", "build/src", "build/test/suite"]);
  linkNodeModules(clone);
  const reporter = join(repoRoot, "scripts", "test-reporter.mjs");
  const result = run(
    process.execPath,
    ["--test", `--test-reporter=${reporter}`, join("build", "test", "suite", "official.test.js")],
    // NODE_TEST_CONTEXT would make the inner runner report to this one instead of printing.
    { cwd: clone, env: environment({ JSON_SCHEMA_TEST_SUITE: undefined, NODE_TEST_CONTEXT: undefined }) },
  );
  assert.equal(result.status, 1);
  assert.doesNotMatch(result.stdout, STACK_FRAME);
  const failure = /✖ .*official\.test\.js:\n {2}(.*)\n/.exec(result.stdout);
  assert.ok(failure !== null, result.stdout);
  assertOneLineAdvice(failure[1]!);
  assert.match(failure[1]!, /^no copy of the JSON-Schema-Test-Suite found \(looked in: /);
  assert.match(result.stdout, /\n0 passed, 1 failed, 0 skipped\n$/);
});
