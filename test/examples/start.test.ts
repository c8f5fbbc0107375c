/** The `npm start` program (`examples/start.ts`): admission table, example calls, and one-line failures. */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "../cli/helpers.js";
import { repoRoot } from "../suite/locate.js";

const main = join(repoRoot, "build", "examples", "start.js");
const catalog = (name: string) => join(repoRoot, "fixtures", "catalogs", name);
const run = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: "utf8" });

test("admits the example catalog in quarantine mode and checks example calls", () => {
  const r = run(catalog("example.json"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /example\.json: admitted \(quarantine\): 9 accepted, 2 quarantined\n/);
  assert.match(r.stdout, /read_text_file\s+\S+\s+quarantined\s+unsupported_capability\/dialect_unsupported/);
  assert.match(
    r.stdout,
    /✘ create_issue \(missing required title\)\n\s+validation\/arguments_invalid at stage "arguments"; host stages run: none/,
  );
  assert.match(r.stdout, /✔ create_issue .*\n\s+arguments accepted; stages run: authorize → dispatch/);
  assert.match(r.stdout, /edit_file: upgradable to 2020-12/);
});

test("checks example results against their tools' output schemas, refusing one", () => {
  const r = run(catalog("example.json"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /✔ create_issue result \(the created issue\)\n\s+result accepted; stages run: authorize → dispatch/,
  );
  assert.match(
    r.stdout,
    /✘ create_issue result \(the issue number as a string\)\n\s+validation\/output_invalid at stage "result"; host stages run: authorize → dispatch\n\s+The tool's result does not match its output schema/,
  );
});

test("shows a catalog update in which one tool changed: held for review, not shown, refused, then approved", () => {
  const r = run(catalog("example.json"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    new RegExp(
      [
        "A catalog update in which the description of create_issue changed \\(Conversation.updateCatalog\\):",
        "  changed: create_issue at /description",
        "  added: none; removed: none; held for review: create_issue",
        "  the model is shown 8 tools, create_issue not among them",
        '  a call to create_issue: validation/tool_held at stage "lookup" - The tool "create_issue" is not available.',
        '  after approve\\(\\["create_issue"\\]\\): its new definition is pinned and shown again \\(9 tools\\)',
      ].join("\n"),
    ),
  );
  assert.ok(!r.stdout.includes("id_rsa"), "the changed text itself is not shown");
});

test("a catalog of output schemas with several roots: results that pass and fail", () => {
  const r = run(catalog("outputs.json"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /outputs\.json: admitted \(quarantine\): 5 accepted, 0 quarantined\n/);
  assert.match(r.stdout, /✔ list_directory_entries result/);
  assert.match(
    r.stdout,
    /✘ get_forecast result \(a day without its low\)\n\s+validation\/output_invalid at stage "result"/,
  );
});

test("--strict refuses a batch with an unsupported tool (exit 1)", () => {
  const r = run(catalog("example.json"), "--strict");
  assert.equal(r.status, 1);
  assert.match(
    r.stdout,
    /example\.json: batch rejected \(strict\)\n\s+error\s+unsupported_capability\/schema_rejected\n/,
  );
  assert.match(r.stdout, /\n\s+tool\s+read_text_file \(revision /);
});

test("the admission report is the CLI's: `admit` prints the very same table and summary", () => {
  for (const [name, strict] of [
    ["example.json", false],
    ["example.json", true],
    ["outputs.json", false],
  ] as const) {
    const flags = strict ? ["--strict"] : [];
    const demo = run(catalog(name), ...flags);
    const cli = runCli(["admit", catalog(name), ...(strict ? [] : ["--quarantine"])]);
    assert.ok(cli.stdout.length > 0);
    assert.ok(demo.stdout.includes(`\n${cli.stdout}`), `npm start shows what admit shows for ${name}`);
  }
});

test("unreadable or malformed input exits 2 with one line and no stack trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "main-"));
  writeFileSync(join(dir, "bad.json"), "{ not json");
  writeFileSync(join(dir, "shape.json"), JSON.stringify({ tools: 5 }));
  for (const args of [
    [join(dir, "missing.json")],
    [join(dir, "bad.json")],
    [join(dir, "shape.json")],
    ["--bogus"],
    ["a.json", "b.json"],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(" "));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.ok(!r.stderr.includes("    at "), r.stderr);
  }
});
