/**
 * The options `validate` and `admit` share, run as a process: `-` for stdin, repeatable `--limit name=value`
 * (fail closed), `--draft07 reject|upgrade`, and the exit codes 0 / 1 / 2 / 3 (docs/reference/cli.md).
 */

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot, runCli, type CliRun } from "./helpers.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const example = join(repoRoot, "fixtures", "catalogs", "example.json");
let dir = "";
const write = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
};
let person = "";
let ok = "";
let bad = "";
let nested = "";
let draft07 = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-cli-options-"));
  person = write("person.json", {
    type: "object",
    properties: { name: { type: "string", minLength: 2 }, tags: { type: "array", items: { type: "string" } } },
    required: ["name"],
  });
  ok = write("ok.json", { name: "Ada", tags: ["x"] });
  bad = write("bad.json", { name: "A" });
  nested = write("nested.json", { name: "Ada", tags: [[["deep"]]] });
  draft07 = write("draft07.json", {
    $schema: DRAFT_07,
    definitions: { name: { type: "string", minLength: 2 } },
    properties: { name: { $ref: "#/definitions/name" } },
  });
});

after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** Exit `status`, nothing on stdout, exactly one `backplane-schema: …` line on stderr, no stack trace. */
function assertOneLine(run: CliRun, status: number, mentions: RegExp): void {
  assert.equal(run.status, status, `expected exit ${status}, got ${run.status}; stderr: ${run.stderr}`);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^backplane-schema: [^\n]+\n$/);
  assert.doesNotMatch(run.stderr, /\bat .*\.js:\d+/);
  assert.match(run.stderr, mentions);
}

describe("- reads stdin", () => {
  test("the schema from stdin", () => {
    const schema = readFileSync(person, "utf8");
    assert.equal(runCli(["validate", "-", ok], { input: schema }).status, 0);
    const run = runCli(["validate", "-", bad], { input: schema });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /^.*bad\.json: invalid\n {2}\/name: must be at least 2 characters long/);
  });

  test("an instance from stdin, named <stdin>", () => {
    const run = runCli(["validate", person, ok, "-", "--output", "flag"], { input: '{"name": 7}' });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, `${ok}: valid\n<stdin>: invalid\n`);
    assert.equal(runCli(["validate", person, "-"], { input: '{"name": "Ada"}' }).stdout, "");
  });

  test("a catalog from stdin", () => {
    const run = runCli(["admit", "-", "--quarantine"], { input: readFileSync(example, "utf8") });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\n<stdin>: admitted \(quarantine\): 9 accepted, 2 quarantined\n$/);
  });

  test("only once; malformed or empty stdin is an input error (exit 2)", () => {
    assertOneLine(runCli(["validate", "-", "-"], { input: "{}" }), 2, /stdin \(-\) can be read only once/);
    assertOneLine(runCli(["validate", person, "-"], { input: "{ nope" }), 2, /instance <stdin> is not valid JSON/);
    assertOneLine(runCli(["validate", "-", ok], { input: "" }), 2, /schema <stdin> is not valid JSON/);
  });
});

describe("--limit name=value", () => {
  test("valid limits are applied: generous ones change nothing, tight ones fail closed with exit 3", () => {
    const generous = ["--limit", "maxEvaluationSteps=100000", "--limit=maxInstanceDepth=16"];
    assert.equal(runCli(["validate", person, ok, ...generous]).status, 0);
    assert.equal(runCli(["validate", person, nested, ...generous]).status, 1);
    assertOneLine(
      runCli(["validate", person, nested, "--limit", "maxInstanceDepth=1"]),
      3,
      /validating .*nested\.json failed: execution_failure\/limit_exceeded: .*maxInstanceDepth \(1\)/,
    );
    assertOneLine(
      runCli(["validate", person, ok, "--limit", "maxEvaluationSteps=1"]),
      3,
      /execution_failure\/limit_exceeded: limit maxEvaluationSteps \(1\) exceeded/,
    );
  });

  test("a limit hit while compiling is exit 3, not a schema error", () => {
    assertOneLine(
      runCli(["validate", person, ok, "--limit", "maxSchemaNodes=2"]),
      3,
      /schema .*person\.json does not compile: execution_failure\/limit_exceeded: limit maxSchemaNodes \(2\)/,
    );
  });

  test("unknown names and malformed values are usage errors (exit 2), for validate and admit", () => {
    for (const command of [
      ["validate", person, ok],
      ["admit", example],
    ]) {
      assertOneLine(
        runCli([...command, "--limit", "maxFoo=1"]),
        2,
        /--limit maxFoo=1: unknown limit "maxFoo" \(known: /,
      );
      assertOneLine(runCli([...command, "--limit", "__proto__=1"]), 2, /unknown limit "__proto__"/);
      for (const value of ["-1", "1e3", "1.5", "ten", "", "99999999999999999999"])
        assertOneLine(
          runCli([...command, "--limit", `maxEvaluationSteps=${value}`]),
          2,
          /the value must be a non-negative integer/,
        );
      assertOneLine(runCli([...command, "--limit", "maxEvaluationSteps"]), 2, /expected name=value/);
      assertOneLine(runCli([...command, "--limit"]), 2, /option --limit needs a value/);
      assertOneLine(
        runCli([...command, "--limit", "maxArrayLength=5", "--limit", "maxArrayLength=6"]),
        2,
        /--limit maxArrayLength given more than once/,
      );
    }
  });

  test("admit: a limit hit refuses the batch with exit 3 (the table says why)", () => {
    const run = runCli(["admit", example, "--limit", "maxSchemaNodes=2"]);
    assert.equal(run.status, 3, run.stderr);
    assert.match(run.stdout, /batch rejected \(strict\)\n\s+error\s+execution_failure\/schema_rejected\n/);
    assert.match(run.stdout, /cause\s+execution_failure\/limit_exceeded/);
  });
});

describe("--draft07", () => {
  test("validate refuses a draft-07 schema by default (exit 2), naming the flag", () => {
    assertOneLine(
      runCli(["validate", draft07, ok]),
      2,
      /unsupported_capability\/dialect_unsupported: .*pass --draft07 upgrade to translate/,
    );
  });

  test("validate --draft07 upgrade translates it, reports the changes on stderr, and gives draft-07's verdicts", () => {
    const valid = runCli(["validate", draft07, ok, "--draft07", "upgrade"]);
    assert.equal(valid.status, 0);
    assert.equal(valid.stdout, "");
    assert.equal(
      valid.stderr,
      `backplane-schema: schema ${draft07} declares draft-07; translated to 2020-12 with 3 change(s):\n` +
        `  /$schema: schema-dialect: $schema draft-07 → https://json-schema.org/draft/2020-12/schema\n` +
        `  /definitions: definitions-to-defs: definitions → $defs\n` +
        `  /properties/name/$ref: ref-rewritten: $ref "#/definitions/name" → "#/$defs/name"\n`,
    );
    const invalid = runCli(["validate", draft07, bad, "--draft07=upgrade"]);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stdout, /bad\.json: invalid\n {2}\/name: must be at least 2 characters long/);
  });

  test("a 2020-12 schema is untouched by --draft07 upgrade (nothing on stderr)", () => {
    const run = runCli(["validate", person, ok, "--draft07", "upgrade"]);
    assert.equal(run.status, 0);
    assert.equal(run.stderr, "");
  });

  test("a draft-07 schema that cannot be translated exactly stays unsupported (exit 2), with the reason", () => {
    const dangling = write("dangling.json", { $schema: DRAFT_07, properties: { a: { $ref: "#/definitions/nope" } } });
    assertOneLine(
      runCli(["validate", dangling, ok, "--draft07", "upgrade"]),
      2,
      /unsupported_capability\/upgrade_blocked: the draft-07 schema cannot be translated to 2020-12 exactly: /,
    );
  });

  test("admit --draft07 upgrade admits the draft-07 tools of example.json, listing what was upgraded", () => {
    const run = runCli(["admit", example, "--draft07", "upgrade"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^read_text_file\s+\S+\s+accepted\s+draft-07 upgraded: inputSchema \(1 change\(s\)\), outputSchema \(1 change\(s\)\)$/m,
    );
    assert.match(run.stdout, /^edit_file\s+\S+\s+accepted\s+draft-07 upgraded: inputSchema \(3 change\(s\)\)$/m);
    assert.match(run.stdout, /admitted \(strict\): 11 accepted, 0 quarantined, 3 schema\(s\) upgraded from draft-07/);
    assert.equal(runCli(["admit", example, "--draft07", "upgrade", "--strict"]).status, 0);
  });

  test("an unknown mode is a usage error (exit 2)", () => {
    assertOneLine(runCli(["validate", person, ok, "--draft07", "yes"]), 2, /--draft07 must be one of reject, upgrade/);
    assertOneLine(runCli(["admit", example, "--draft07", "Upgrade"]), 2, /--draft07 must be one of reject, upgrade/);
  });
});

describe("--legacy-dialects", () => {
  test("validate refuses a draft-04 schema by default, naming the flag; upgrade translates it", () => {
    const draft04 = write("draft04.json", {
      $schema: "http://json-schema.org/draft-04/schema#",
      properties: { name: { type: "string", minLength: 2 }, age: { minimum: 0, exclusiveMinimum: true } },
    });
    assertOneLine(runCli(["validate", draft04, ok]), 2, /pass --legacy-dialects upgrade to translate a draft-04/);
    const run = runCli(["validate", draft04, ok, "--legacy-dialects", "upgrade"]);
    assert.equal(run.status, 0);
    assert.match(run.stderr, /declares draft-04; translated to 2020-12 with 2 change\(s\):\n/);
    assert.match(
      run.stderr,
      /\/properties\/age\/exclusiveMinimum: exclusive-bound: minimum 0 with exclusiveMinimum true/,
    );
    assert.equal(runCli(["validate", draft04, bad, "--legacy-dialects=upgrade"]).status, 1);
  });

  test("it covers draft-07 too, unless --draft07 says otherwise; an unknown mode is a usage error", () => {
    assert.equal(runCli(["validate", draft07, ok, "--legacy-dialects", "upgrade"]).status, 0);
    assert.equal(runCli(["validate", draft07, ok, "--legacy-dialects", "upgrade", "--draft07", "reject"]).status, 2);
    assertOneLine(
      runCli(["admit", example, "--legacy-dialects", "yes"]),
      2,
      /--legacy-dialects must be one of refuse, upgrade/,
    );
    assert.equal(runCli(["admit", example, "--legacy-dialects", "upgrade", "--strict"]).status, 0);
  });
});

describe("exit codes", () => {
  test("0 valid, 1 invalid, 2 usage, 3 execution failure: each distinct", () => {
    const codes = [
      runCli(["validate", person, ok]).status,
      runCli(["validate", person, bad]).status,
      runCli(["validate", person]).status,
      runCli(["validate", person, ok, "--limit", "maxEvaluationSteps=1"]).status,
    ];
    assert.deepEqual(codes, [0, 1, 2, 3]);
  });

  test("--help documents every exit code", () => {
    const help = runCli(["--help"]).stdout;
    for (const line of [/^ {2}0 {2}every instance valid/m, /^ {2}1 {2}an instance invalid/m, /^ {2}2 {2}usage error/m])
      assert.match(help, line);
    assert.match(help, /^ {2}3 {2}execution failure: a limit was hit \(an input over --max-input-bytes included\)/m);
  });
});
