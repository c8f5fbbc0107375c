/**
 * Issue 31 #5: what a server chose (tool names, revisions, the server's name, property names, descriptions, the text
 * of errors that quote them) reaches the terminal escaped. `admit --pins` and `admit --mcp` are run on catalogs and a
 * live server whose text carries ESC and 8-bit CSI sequences, carriage returns, line feeds, NEL and a bidi override
 * that would erase the row above and print a fake "accepted" one; the output holds none of those characters, has one
 * row per tool, and each row's status, name and revision are the truth.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot, runCli, type CliRun } from "./helpers.js";
import { FORGED_ROW, HOSTILE_SERVER } from "./mcp-test-server.js";

const testServer = join(repoRoot, "build", "test", "cli", "mcp-test-server.js");
/** `--mcp` for the test server in `mode` (paths quoted as POSIX single quotes). */
const server = (mode: string): string => [process.execPath, testServer, mode].map((w) => `'${w}'`).join(" ");

let dir = "";
const write = (name: string, value: unknown): string => {
  writeFileSync(join(dir, name), JSON.stringify(value));
  return join(dir, name);
};
before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-server-text-"));
});
after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** What a terminal acts on or hides: C0 controls but the line feed, DEL, C1 controls, separators, bidi, format. */
// eslint-disable-next-line no-control-regex -- matching control characters is this expression's job
const ACTS_ON_A_TERMINAL = /[\0-\t\v-\x1f\x7f-\x9f\u2028\u2029\p{Bidi_Control}\p{Cf}]/u;

interface Row {
  name: string;
  revision: string;
  status: string;
  reason: string;
}

/** A name or revision cell: a bare word, or a JSON string (whose escapes decode to the server's text). */
const cell = (text: string): string => (text.startsWith('"') ? (JSON.parse(text) as string) : text);
const WORD = String.raw`("(?:[^"\\]|\\.)*"|\S+)`;
const ROW = new RegExp(String.raw`^${WORD} +${WORD} +(accepted|held|quarantined)(?: +(.*))?$`);

/** The admission table of `stdout`: every line between the header and the first blank line must be one row. */
function table(run: CliRun): Row[] {
  assert.doesNotMatch(run.stdout + run.stderr, ACTS_ON_A_TERMINAL);
  const lines = run.stdout.split("\n");
  assert.match(lines[0]!, /^TOOL +REVISION +STATUS +REASON$/);
  return lines.slice(1, lines.indexOf("")).map((line) => {
    const match = ROW.exec(line);
    assert.ok(match !== null, `not one row: ${JSON.stringify(line)}`);
    return { name: cell(match[1]!), revision: cell(match[2]!), status: match[3]!, reason: match[4] ?? "" };
  });
}

/** The refusal printed for a rejected batch: the heading, then label rows only. */
function refusal(run: CliRun): Map<string, string> {
  assert.doesNotMatch(run.stdout + run.stderr, ACTS_ON_A_TERMINAL);
  const [heading, ...rows] = run.stdout.trimEnd().split("\n");
  assert.match(heading!, /: batch rejected \((strict|quarantine)\)$/);
  return new Map(
    rows.map((line) => {
      const match = /^ {2}(error|tool|message|fields|cause|provider) +(.+)$/.exec(line);
      assert.ok(match !== null, `not one labelled row: ${JSON.stringify(line)}`);
      return [match[1]!, match[2]!];
    }),
  );
}

describe("admit --pins on a catalog whose text would rewrite the terminal", () => {
  const tool = (name: string, revision: string, properties: Record<string, unknown>, description: string) => ({
    name,
    revision,
    backend: "gh",
    description,
    inputSchema: { type: "object", properties },
  });
  const catalog = (...tools: unknown[]) => ({ backends: ["gh"], tools });
  const original = catalog(
    tool("create_issue", "1.0.0", { repo: { type: "string" } }, "Creates an issue."),
    tool("list_issues", "1.0.0", {}, "Lists issues."),
  );
  const forged = (name: string) => `${FORGED_ROW.replace("lookup", name)}`;
  const changed = catalog(
    tool(
      "create_issue",
      "1.0.0",
      { repo: { type: "string" }, [`x${forged("create_issue")}`]: { type: "string" } },
      `Creates an issue.${forged("create_issue")}`,
    ),
    // A revision is not pinned: this one is admitted, and its row must still be one row.
    tool("list_issues", `1.0.0${forged("create_issue")}`, {}, "Lists issues."),
    {
      ...tool("legacy", "1.0.0", {}, "Old."),
      inputSchema: { $schema: `http://json-schema.org/draft-07/schema#${forged("legacy")}`, type: "object" },
    },
  );

  test("quarantine: the held row stays held, nothing forges an accepted row or erases one (exit 4)", () => {
    const pins = join(dir, "pins.json");
    assert.equal(runCli(["admit", write("original.json", original), "--pins", pins]).status, 0);
    const run = runCli(["admit", write("changed.json", changed), "--pins", pins, "--quarantine"]);
    assert.equal(run.status, 4, run.stdout + run.stderr);
    const rows = table(run);
    assert.deepEqual(
      rows.map((r) => [r.name, r.status]),
      [
        ["create_issue", "held"],
        ["list_issues", "accepted"],
        ["legacy", "quarantined"],
      ],
    );
    assert.equal(rows[1]!.revision, `1.0.0${forged("create_issue")}`, "the revision shown decodes to the file's");
    // The changed pointer is one quoted word that decodes to the property's pointer.
    const pointer = /^tool_changed at \/description, ("(?:[^"\\]|\\.)*");/.exec(rows[0]!.reason)?.[1];
    assert.equal(cell(pointer ?? ""), `/inputSchema/properties/x${forged("create_issue")}`);
    assert.match(rows[2]!.reason, /^unsupported_capability\/dialect_unsupported: .*\\u001b\[1A\\u001b\[2K/);
    assert.match(run.stdout, /\n\S+: admitted \(quarantine\): 1 accepted, 1 quarantined, 1 held for review\n/);
    assert.match(run.stdout, /pins\.json: 1 match, 1 changed, 0 new, 0 removed, 0 quarantined\n$/);
    assert.equal(run.stdout.split("\n").length, 1 + 3 + 1 + 2 + 1, "header, three rows, blank, two summary lines");
  });

  test("strict: the refusal's rows name the tool and the changed pointer as quoted words (exit 4)", () => {
    const pins = join(dir, "strict-pins.json");
    assert.equal(runCli(["admit", write("original2.json", original), "--pins", pins]).status, 0);
    const run = runCli(["admit", write("changed2.json", changed), "--pins", pins]);
    assert.equal(run.status, 4, run.stdout + run.stderr);
    const rows = refusal(run);
    assert.equal(rows.get("error"), "validation/tool_changed");
    assert.equal(rows.get("tool"), "create_issue (revision 1.0.0)");
    assert.equal(cell(rows.get("fields")!.split(", ")[1]!), `/inputSchema/properties/x${forged("create_issue")}`);
  });

  test("a tool name with the sequences refuses the batch; the refusal names it as one quoted word", () => {
    const run = runCli(["admit", write("bad-name.json", catalog(tool(`t${forged("t")}`, "1", {}, "T.")))]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const rows = refusal(run);
    assert.equal(rows.get("error"), "validation/tool_name_invalid");
    const named = /^("(?:[^"\\]|\\.)*") \(revision 1\)$/.exec(rows.get("tool")!)?.[1];
    assert.equal(cell(named ?? ""), `t${forged("t")}`);
  });
});

describe("admit --mcp: a live server whose name, version, tools and schemas carry the sequences", () => {
  const summary = (run: CliRun) => run.stdout.split("\n").find((l) => l.startsWith("MCP server "))!;

  test("every row is one row and says the truth; the server's name and version are quoted words", () => {
    const run = runCli(["admit", "--mcp", server("hostile"), "--quarantine"]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const rows = table(run);
    assert.deepEqual(
      rows.map((r) => [r.name, r.revision, r.status]),
      [
        ["lookup", HOSTILE_SERVER.version, "accepted"],
        ["legacy", HOSTILE_SERVER.version, "quarantined"],
      ],
    );
    const words = /^MCP server ("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*"): admitted \(quarantine\): (.*)$/.exec(
      summary(run),
    );
    assert.ok(words !== null, summary(run));
    assert.deepEqual(
      [cell(words[1]!), cell(words[2]!), words[3]],
      [HOSTILE_SERVER.name, HOSTILE_SERVER.version, "1 accepted, 1 quarantined"],
    );
  });

  test("--pins: the changed tool is held (exit 4), its row and the gate line intact; strict refuses (exit 4)", () => {
    const pins = join(dir, "mcp-pins.json");
    assert.equal(runCli(["admit", "--mcp", server("hostile"), "--quarantine", "--pins", pins]).status, 0);
    const run = runCli(["admit", "--mcp", server("hostile-changed"), "--quarantine", "--pins", pins]);
    assert.equal(run.status, 4, run.stdout + run.stderr);
    assert.deepEqual(
      table(run).map((r) => [r.name, r.status]),
      [
        ["lookup", "held"],
        ["legacy", "quarantined"],
      ],
    );
    assert.match(summary(run), /: admitted \(quarantine\): 0 accepted, 1 quarantined, 1 held for review$/);
    assert.match(run.stdout, /mcp-pins\.json: 0 match, 1 changed, 0 new, 0 removed, 0 quarantined\n$/);
    const strict = runCli(["admit", "--mcp", server("hostile-changed"), "--pins", pins]);
    assert.equal(strict.status, 4);
    assert.equal(refusal(strict).get("error"), "validation/tool_changed");
  });

  test("a tool name with the sequences: quarantined in a row of its own, refused strict, named as one quoted word", () => {
    const run = runCli(["admit", "--mcp", server("hostile-name"), "--quarantine"]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const rows = table(run);
    assert.deepEqual(
      rows.map((r) => [r.name, r.revision, r.status]),
      [
        [`lookup${FORGED_ROW}`, HOSTILE_SERVER.version, "quarantined"],
        ["legacy", HOSTILE_SERVER.version, "quarantined"],
      ],
    );
    assert.match(rows[0]!.reason, /^validation\/tool_name_invalid: /);
    const strict = runCli(["admit", "--mcp", server("hostile-name")]);
    assert.equal(strict.status, 1, strict.stdout + strict.stderr);
    const tool = /^("(?:[^"\\]|\\.)*") \(revision ("(?:[^"\\]|\\.)*")\)$/.exec(refusal(strict).get("tool")!);
    assert.ok(tool !== null);
    assert.deepEqual([cell(tool[1]!), cell(tool[2]!)], [`lookup${FORGED_ROW}`, HOSTILE_SERVER.version]);
  });
});
