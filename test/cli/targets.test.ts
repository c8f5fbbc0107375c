/**
 * `backplane-schema admit --target` (docs/reference/cli.md, docs/guide/providers.md): per target, one row per tool with
 * its outcome and where; a required target refusing a tool refuses the batch (strict) or quarantines the tool;
 * `--widen`; `--emit` prints the provider-ready tools as JSON on stdout, the report on stderr.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runCli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "backplane-targets-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const closed = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { q: { type: "string", ...extra } },
  required: ["q"],
  additionalProperties: false,
});
const catalog = join(dir, "catalog.json");
writeFileSync(
  catalog,
  JSON.stringify([
    { name: "search", revision: "1", description: "Search.", inputSchema: closed() },
    { name: "files.read", revision: "1", inputSchema: closed({ minLength: 1 }) },
  ]),
);

describe("admit --target", () => {
  test("strict: a tool the target refuses refuses the batch, naming the profile, rule, keyword and pointer", () => {
    const run = runCli(["admit", catalog, "--target", "openai-strict"]);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /batch rejected \(strict\)\n\s+error\s+unsupported_capability\/provider_unsupported\n/);
    assert.match(run.stdout, /tool\s+files\.read \(revision 1\)/);
    assert.match(run.stdout, /provider\s+openai-strict@2026-10 rule keyword-unsupported, keyword minLength at /);
  });

  test("--quarantine: the tool is quarantined, and each target's table shows every tool's outcome", () => {
    const run = runCli(["admit", catalog, "--quarantine", "--target", "openai-strict", "--target", "anthropic"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^files\.read\s+1\s+quarantined\s+unsupported_capability\/provider_unsupported: /m);
    assert.match(run.stdout, /\ntarget openai-strict@2026-10 \(required\): 1 of 2 sendable\n/);
    assert.match(run.stdout, /^\s+files\.read\s+refused\s+keyword-unsupported at \/properties\/q\/minLength: /m);
    assert.match(run.stdout, /\ntarget anthropic@2026-10 \(required\): 1 of 2 sendable\n/);
    assert.match(run.stdout, /^\s+search\s+fits$/m);
    const gate = runCli(["admit", catalog, "--quarantine", "--fail-on-quarantine", "--target", "openai-strict"]);
    assert.equal(gate.status, 1);
  });

  test("--widen and --emit: the provider-ready JSON alone on stdout, the report on stderr", () => {
    const run = runCli(["admit", catalog, "--target", "openai-strict", "--widen", "--emit"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stderr,
      /^\s+files\.read\s+widened\s+exact tool-renamed at ""; widened keyword-dropped at \/properties\/q\/minLength$/m,
    );
    const emitted = JSON.parse(run.stdout) as Record<
      string,
      { tools: { function: { name: string; parameters: unknown } }[]; names: unknown[]; errors: unknown[] }
    >;
    assert.deepEqual(Object.keys(emitted), ["openai-strict@2026-10"]);
    const request = emitted["openai-strict@2026-10"]!;
    assert.deepEqual(
      request.tools.map((t) => t.function.name),
      ["search", "files_read"],
    );
    assert.deepEqual(request.tools[1]!.function.parameters, closed());
    assert.deepEqual(request.names, [
      { mcp: "search", provider: "search" },
      { mcp: "files.read", provider: "files_read" },
    ]);
    assert.deepEqual(request.errors, []);
  });

  test("--report-target checks report-only (required: false): the batch is admitted, the refusal only listed", () => {
    // issue 31 #14: the CLI could only check a provider as required.
    const run = runCli(["admit", catalog, "--report-target", "openai-strict", "--target", "anthropic"]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /admitted \(strict\): 2 accepted, 0 quarantined\n/);
    assert.match(run.stdout, /\ntarget openai-strict@2026-10 \(reported only\): 1 of 2 sendable\n/);
    assert.match(run.stdout, /^\s+files\.read\s+refused\s+keyword-unsupported at \/properties\/q\/minLength: /m);
    assert.match(run.stdout, /\ntarget anthropic@2026-10 \(required\): 2 of 2 sendable\n/);
    const gate = runCli(["admit", catalog, "--quarantine", "--fail-on-quarantine", "--report-target", "openai-strict"]);
    assert.equal(gate.status, 0, "a report-only target quarantines nothing");
    const emitted = runCli(["admit", catalog, "--report-target", "openai-strict", "--emit"]);
    assert.equal(emitted.status, 0, emitted.stderr);
    const request = (JSON.parse(emitted.stdout) as Record<string, { tools: { function: { name: string } }[] }>)[
      "openai-strict@2026-10"
    ]!;
    assert.deepEqual(
      request.tools.map((t) => t.function.name),
      ["search"],
    );
  });

  test("--widen or --emit without a target, and an unknown profile, are usage errors (exit 2)", () => {
    for (const args of [
      ["--widen"],
      ["--emit"],
      ["--target", "gemini"],
      ["--target", "nobody"],
      ["--report-target", "nobody"],
    ]) {
      const run = runCli(["admit", catalog, ...args]);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}`);
      assert.match(run.stderr, /^backplane-schema: --(widen|emit|target)\b/);
    }
  });
});
