/** `backplane-schema validate|admit|--help|--version`, run as a child process: output, exit codes 0/1/2. */

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { repoRoot, runCli, type CliRun } from "./helpers.js";

let dir = "";
const file = (name: string): string => join(dir, name);
const write = (name: string, value: unknown): string => {
  writeFileSync(file(name), typeof value === "string" ? value : JSON.stringify(value));
  return file(name);
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-cli-"));
  mkdirSync(file("registry/nested"), { recursive: true });
  write("person.json", {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { name: { type: "string", minLength: 2 }, age: { type: "integer", minimum: 0 } },
    required: ["name"],
  });
  write("ok.json", { name: "Ada", age: 36 });
  write("bad.json", { name: "A", age: -1 });
  write("malformed.json", '{"name": ');
  write("not-a-schema.json", { type: "strin" });
  write("email.json", { type: "string", format: "email" });
  write("not-email.json", '"not an email"');
  write("json-text.json", { type: "string", contentMediaType: "application/json" });
  write("broken-json-text.json", '"{ not json"');
  // Registry: one file by $id, one without $id (registered by file:// URL), nested.
  write("registry/name.json", { $id: "https://example.test/schemas/name", type: "string", minLength: 2 });
  write("registry/nested/age.json", { type: "integer", minimum: 0 });
  write("registry/root.json", {
    type: "object",
    properties: { name: { $ref: "https://example.test/schemas/name" }, age: { $ref: "nested/age.json" } },
  });
  write("uses-registry.json", {
    type: "object",
    properties: { age: { $ref: pathToFileURL(file("registry/nested/age.json")).href } },
  });
});

after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** Exit 2: nothing on stdout, exactly one `backplane-schema: …` line on stderr, no stack trace. */
function assertUsageFailure(run: CliRun, mentions?: RegExp): void {
  assert.equal(run.status, 2, `expected exit 2, got ${run.status}; stderr: ${run.stderr}`);
  assert.equal(run.stdout, "");
  const lines = run.stderr.split("\n");
  assert.equal(lines.length, 2, `stderr must be exactly one line: ${JSON.stringify(run.stderr)}`);
  assert.equal(lines[1], "");
  assert.match(lines[0]!, /^backplane-schema: \S/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  assert.doesNotMatch(run.stderr, /^\s+at /m);
  if (mentions !== undefined) assert.match(lines[0]!, mentions);
}

/** The JSON printed (indented by two spaces) after the `<file>: valid|invalid` line. */
function outputUnit(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split("\n");
  return JSON.parse(
    lines
      .slice(1)
      .map((l) => l.slice(2))
      .join("\n"),
  ) as Record<string, unknown>;
}

describe("validate", () => {
  test("quiet success: valid instances exit 0 and print nothing", () => {
    const run = runCli(["validate", file("person.json"), file("ok.json"), file("ok.json")]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, "");
  });

  test("without --output, an invalid instance prints its verdict and one line per error (exit 1)", () => {
    const run = runCli(["validate", file("person.json"), file("ok.json"), file("bad.json")]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(
      run.stdout,
      `${file("bad.json")}: invalid\n` +
        "  /name: must be at least 2 characters long, got 1 (at /properties/name/minLength)\n" +
        "  /age: must be at least 0, got -1 (at /properties/age/minimum)\n",
    );
    assert.equal(run.stderr, "");
  });

  test("--output basic prints '<file>: valid' and the output unit for a valid instance too", () => {
    const run = runCli(["validate", file("person.json"), file("ok.json"), "--output", "basic"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.split("\n")[0], `${file("ok.json")}: valid`);
    assert.equal(outputUnit(run.stdout)["valid"], true);
  });

  test("an invalid instance exits 1; every instance gets its line", () => {
    const run = runCli(["validate", "--output", "flag", file("person.json"), file("ok.json"), file("bad.json")]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, `${file("ok.json")}: valid\n${file("bad.json")}: invalid\n`);
    assert.equal(run.stderr, "");
  });

  test("flag output prints only the verdict line", () => {
    const run = runCli(["validate", file("person.json"), file("bad.json"), "--output=flag"]);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, `${file("bad.json")}: invalid\n`);
  });

  test("basic output lists the errors with messages", () => {
    const run = runCli(["validate", file("person.json"), file("bad.json"), "--output", "basic"]);
    assert.equal(run.status, 1);
    assert.equal(run.stdout.split("\n")[0], `${file("bad.json")}: invalid`);
    const unit = outputUnit(run.stdout);
    assert.equal(unit["valid"], false);
    const errors = unit["errors"] as { instanceLocation: string; error?: string }[];
    assert.ok(Array.isArray(errors));
    assert.deepEqual(
      new Set(errors.filter((e) => e.error !== undefined).map((e) => e.instanceLocation)),
      new Set(["/name", "/age"]),
    );
  });

  test("detailed output is a tree of output units", () => {
    const run = runCli(["validate", file("person.json"), file("bad.json"), "--output", "detailed"]);
    assert.equal(run.status, 1);
    const unit = outputUnit(run.stdout);
    assert.equal(unit["valid"], false);
    assert.equal(typeof unit["keywordLocation"], "string");
    assert.equal(typeof unit["instanceLocation"], "string");
    assert.ok(JSON.stringify(unit).includes("must be at least"));
  });

  test("verbose output carries results of valid instances too", () => {
    const run = runCli(["validate", file("person.json"), file("ok.json"), "--output", "verbose"]);
    assert.equal(run.status, 0);
    const unit = outputUnit(run.stdout);
    assert.equal(unit["valid"], true);
    assert.equal(unit["keywordLocation"], "");
    assert.ok(JSON.stringify(unit).includes("/properties"));
  });

  test("--format-assertion makes format assert", () => {
    assert.equal(runCli(["validate", file("email.json"), file("not-email.json"), "--output", "flag"]).status, 0);
    const run = runCli([
      "validate",
      "--format-assertion",
      file("email.json"),
      file("not-email.json"),
      "--output",
      "flag",
    ]);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, `${file("not-email.json")}: invalid\n`);
  });

  test("--content-assertion makes contentMediaType assert", () => {
    assert.equal(
      runCli(["validate", file("json-text.json"), file("broken-json-text.json"), "--output", "flag"]).status,
      0,
    );
    const run = runCli([
      "validate",
      "--content-assertion",
      file("json-text.json"),
      file("broken-json-text.json"),
      "--output",
      "flag",
    ]);
    assert.equal(run.status, 1);
  });

  test("--registry registers files by $id and, without $id, by file:// URL (relative $refs resolve)", () => {
    const registry = file("registry");
    const root = file("registry/root.json");
    const good = write("reg-ok.json", { name: "Ada", age: 3 });
    const bad = write("reg-bad.json", { name: "A", age: 3 });
    const badAge = write("reg-bad-age.json", { name: "Ada", age: -3 });
    const run = runCli(["validate", root, good, bad, badAge, "--registry", registry, "--output", "flag"]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, `${good}: valid\n${bad}: invalid\n${badAge}: invalid\n`);
    // A schema outside the registry folder refers to a registered file by its absolute file:// URL.
    const outside = runCli([
      "validate",
      file("uses-registry.json"),
      badAge,
      good,
      "--registry",
      registry,
      "--output",
      "flag",
    ]);
    assert.equal(outside.status, 1, outside.stderr);
    assert.equal(outside.stdout, `${badAge}: invalid\n${good}: valid\n`);
  });

  test("without --registry, a reference to a registry schema does not compile (exit 2, nothing fetched)", () => {
    assertUsageFailure(
      runCli(["validate", file("registry/root.json"), file("ok.json")]),
      /does not compile: validation\/ref_unresolved/,
    );
  });

  test("usage errors exit 2 with one line on stderr", () => {
    assertUsageFailure(runCli(["validate"]), /schema file/);
    assertUsageFailure(runCli(["validate", file("person.json")]), /instance/);
    assertUsageFailure(runCli(["validate", file("person.json"), file("ok.json"), "--output", "tree"]), /--output/);
    assertUsageFailure(runCli(["validate", file("person.json"), file("ok.json"), "--output"]), /needs a value/);
    assertUsageFailure(
      runCli(["validate", file("person.json"), file("ok.json"), "--frobnicate"]),
      /unknown option --frobnicate/,
    );
    assertUsageFailure(runCli(["frobnicate"]), /unknown command/);
    assertUsageFailure(runCli([]), /no command/);
  });

  test("unreadable files and malformed JSON exit 2", () => {
    assertUsageFailure(
      runCli(["validate", file("missing.json"), file("ok.json")]),
      /cannot read schema .*missing\.json/,
    );
    assertUsageFailure(runCli(["validate", file("person.json"), file("missing.json")]), /cannot read instance/);
    assertUsageFailure(runCli(["validate", file("person.json"), file("malformed.json")]), /not valid JSON/);
    assertUsageFailure(runCli(["validate", file("malformed.json"), file("ok.json")]), /schema .* not valid JSON/);
    assertUsageFailure(runCli(["validate", file("person.json"), dir]), /is a directory/);
    assertUsageFailure(
      runCli(["validate", file("person.json"), file("ok.json"), "--registry", file("nope")]),
      /registry/,
    );
  });

  test("a schema that does not compile exits 2 with its class and code", () => {
    assertUsageFailure(
      runCli(["validate", file("not-a-schema.json"), file("ok.json")]),
      /does not compile: validation\/schema_invalid/,
    );
    const draft07 = write("draft07.json", { $schema: "http://json-schema.org/draft-07/schema#", type: "object" });
    assertUsageFailure(runCli(["validate", draft07, file("ok.json")]), /unsupported_capability\/dialect_unsupported/);
  });

  test("two registry files claiming the same URI exit 2", () => {
    mkdirSync(file("dup-registry"), { recursive: true });
    write("dup-registry/a.json", { $id: "https://example.test/same" });
    write("dup-registry/b.json", { $id: "https://example.test/same" });
    assertUsageFailure(
      runCli(["validate", file("person.json"), file("ok.json"), "--registry", file("dup-registry")]),
      /both claim/,
    );
  });
});

describe("admit", () => {
  const example = join(repoRoot, "fixtures", "catalogs", "example.json");
  const broken = join(repoRoot, "fixtures", "catalogs", "broken.json");

  test("--quarantine admits example.json, quarantining exactly the draft-07 tools", () => {
    const run = runCli(["admit", example, "--quarantine"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    const catalog = JSON.parse(readFileSync(example, "utf8")) as {
      tools: { name: string; revision: string; inputSchema: Record<string, unknown> }[];
    };
    const rows = new Map(run.stdout.split("\n").map((line) => [line.split(/\s+/)[0]!, line]));
    assert.match(run.stdout.split("\n")[0]!, /^TOOL\s+REVISION\s+STATUS\s+REASON$/);
    let quarantined = 0;
    for (const tool of catalog.tools) {
      const row = rows.get(tool.name);
      assert.ok(row !== undefined, `no row for ${tool.name}`);
      assert.ok(row.includes(tool.revision));
      const draft07 = String(tool.inputSchema["$schema"] ?? "").includes("draft-07");
      if (draft07) {
        quarantined++;
        assert.match(row, /\squarantined\s+unsupported_capability\/dialect_unsupported: /);
      } else {
        assert.match(row, /\saccepted$/);
      }
    }
    assert.ok(quarantined > 0);
    assert.match(
      run.stdout,
      new RegExp(
        `admitted \\(quarantine\\): ${catalog.tools.length - quarantined} accepted, ${quarantined} quarantined`,
      ),
    );
  });

  test("strict, as in the API, is the default: example.json fails as a whole (exit 1) on its first draft-07 tool", () => {
    for (const flags of [[], ["--strict"]]) {
      const run = runCli(["admit", example, ...flags]);
      assert.equal(run.status, 1);
      assert.match(run.stdout, /batch rejected \(strict\)/);
      assert.match(run.stdout, /error\s+unsupported_capability\/schema_rejected/);
    }
  });

  test("a batch that admits no tool exits 1; --fail-on-quarantine exits 1 when any tool is quarantined", () => {
    const draft07 = (name: string) => ({
      name,
      revision: "1",
      inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" },
    });
    const none = runCli(["admit", write("none.json", [draft07("a"), draft07("b")]), "--quarantine"]);
    assert.equal(none.status, 1, none.stdout);
    assert.match(none.stdout, /admitted \(quarantine\): 0 accepted, 2 quarantined/);
    assert.equal(runCli(["admit", write("empty.json", []), "--quarantine"]).status, 1);
    const mixed = write("mixed.json", [draft07("a"), { name: "b", revision: "1", inputSchema: { type: "object" } }]);
    assert.equal(runCli(["admit", mixed, "--quarantine"]).status, 0);
    const gate = runCli(["admit", mixed, "--quarantine", "--fail-on-quarantine"]);
    assert.equal(gate.status, 1);
    assert.match(gate.stdout, /1 accepted, 1 quarantined/);
  });

  test("broken.json --strict exits 1 naming the class, code, tool and message", () => {
    const run = runCli(["admit", broken, "--strict"]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr, "");
    const catalog = JSON.parse(readFileSync(broken, "utf8")) as { tools: { name: string; revision: string }[] };
    const first = catalog.tools[0]!;
    assert.match(run.stdout, /error\s+validation\/schema_rejected/);
    assert.ok(run.stdout.includes(`tool     ${first.name} (revision ${first.revision})`), run.stdout);
    assert.match(run.stdout, /message\s+tool "/);
  });

  test("a bare array of tools is a catalog; without backends, a tool's backend is not checked", () => {
    const tools = [
      {
        name: "echo",
        revision: "1",
        backend: "local",
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      },
      {
        name: "old",
        revision: "2",
        inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" },
      },
    ];
    const run = runCli(["admit", write("bare.json", tools), "--quarantine"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^echo\s+1\s+accepted$/m);
    assert.match(run.stdout, /^old\s+2\s+quarantined\s+unsupported_capability/m);
  });

  test("a tool naming a backend outside the file's backends fails the batch", () => {
    const run = runCli([
      "admit",
      write("backend.json", {
        backends: ["a"],
        tools: [{ name: "t", revision: "1", backend: "b", inputSchema: { type: "object" } }],
      }),
    ]);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /validation\/backend_unknown/);
  });

  test("usage errors and unreadable catalogs exit 2", () => {
    assertUsageFailure(runCli(["admit"]), /exactly one catalog/);
    assertUsageFailure(runCli(["admit", example, broken]), /exactly one catalog/);
    assertUsageFailure(runCli(["admit", example, "--lenient"]), /unknown option/);
    assertUsageFailure(runCli(["admit", example, "--strict", "--quarantine"]), /cannot both be given/);
    assertUsageFailure(runCli(["admit", example, "--emit"]), /needs at least one --target/);
    assertUsageFailure(runCli(["admit", example, "--target", "openai-strik"]), /unknown provider profile/);
    assertUsageFailure(runCli(["admit", file("missing.json")]), /cannot read catalog/);
    assertUsageFailure(runCli(["admit", file("malformed.json")]), /not valid JSON/);
    assertUsageFailure(runCli(["admit", write("not-catalog.json", { tools: "nope" })]), /not a catalog/);
    assertUsageFailure(runCli(["admit", write("bad-backends.json", { backends: [1], tools: [] })]), /backends/);
  });
});

describe("--help and --version", () => {
  test("--help exits 0 and documents the registry's file:// fallback", () => {
    const run = runCli(["--help"]);
    assert.equal(run.status, 0);
    assert.match(run.stdout, /Usage: backplane-schema/);
    assert.match(run.stdout, /file:\/\/ URL/);
    assert.equal(runCli(["validate", "--help"]).status, 0);
  });

  test("every option the commands parse is in --help and in docs/reference/cli.md", () => {
    // The option names as the parsers list them: each a string literal "--name" in src/cli (gateway/ is its own).
    const cli = join(repoRoot, "src", "cli");
    const parsed = new Set<string>();
    for (const name of readdirSync(cli).filter((n) => n.endsWith(".ts")))
      for (const [, flag] of readFileSync(join(cli, name), "utf8").matchAll(/"(--[a-z][a-z0-9-]*)"/g))
        parsed.add(flag!);
    assert.ok(
      parsed.has("--max-input-bytes") && parsed.has("--report-target") && parsed.size >= 20,
      [...parsed].join(),
    );
    const help = runCli(["--help"]).stdout;
    const reference = readFileSync(join(repoRoot, "docs", "reference", "cli.md"), "utf8");
    for (const flag of parsed) {
      const named = new RegExp(`(^|[\\s\\[\`(])${flag}(?![\\w-])`, "m");
      assert.match(help, named, `--help does not document ${flag}`);
      assert.match(reference, named, `docs/reference/cli.md does not document ${flag}`);
    }
  });

  test("--version prints package.json's version", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    const run = runCli(["--version"]);
    assert.equal(run.status, 0);
    assert.equal(run.stdout, pkg.version + "\n");
  });
});
