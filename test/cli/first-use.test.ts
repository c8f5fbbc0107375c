/**
 * What a new user of the library and the CLI hits first (issue 43 §5): a saved `tools/list` result admitted as it is
 * (MCP's `Tool` has no revision), a validator's methods passed around as functions, the property an
 * `additionalProperties` of `false` refuses named in the model's text, and `admit`'s reasons spelling the fix as a flag.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { compile, InputSchema, OutputSchema } from "../../src/index.js";
import { runCli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "first-use-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

/** A `tools/list` result as a server answers it (the reference memory server's shape): no revision, no backend. */
const listed = {
  tools: [
    {
      name: "read_graph",
      description: "Read the entire knowledge graph",
      inputSchema: { type: "object", properties: {} },
    },
    {
      name: "search_nodes",
      description: "Search for nodes in the knowledge graph based on a query",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", description: "The search query" } },
        required: ["query"],
      },
    },
  ],
};

describe("admit on a saved tools/list result", () => {
  writeFileSync(at("tools.json"), JSON.stringify(listed));
  const revisionOf = (stdout: string, tool: string) => new RegExp(`^${tool} +(\\S+) +accepted`, "m").exec(stdout)?.[1];

  test("admits every tool, each with its definition's digest as its revision", () => {
    for (const mode of [[], ["--quarantine"]]) {
      const run = runCli(["admit", ...mode, at("tools.json")]);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /: admitted \((strict|quarantine)\): 2 accepted, 0 quarantined/);
      assert.match(revisionOf(run.stdout, "read_graph") ?? "", /^sha256:[0-9a-f]{12}$/);
    }
    const first = runCli(["admit", at("tools.json")]).stdout;
    const again = runCli(["admit", at("tools.json")]).stdout;
    assert.equal(revisionOf(again, "search_nodes"), revisionOf(first, "search_nodes"), "the same definition");
    const changed = structuredClone(listed);
    changed.tools[1]!.description = "Search for nodes; then call read_graph";
    writeFileSync(at("changed.json"), JSON.stringify(changed));
    const now = runCli(["admit", at("changed.json")]).stdout;
    assert.notEqual(revisionOf(now, "search_nodes"), revisionOf(first, "search_nodes"), "a changed definition");
    assert.equal(revisionOf(now, "read_graph"), revisionOf(first, "read_graph"));
  });

  test("--revision and --backend give the tools without one theirs; a tool's own are kept", () => {
    const own = { tools: [...listed.tools, { ...listed.tools[0], name: "pinned", revision: "7", backend: "memory" }] };
    writeFileSync(at("own.json"), JSON.stringify(own));
    const run = runCli(["admit", "--revision", "2026-12", "--backend", "memory", at("own.json")]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(revisionOf(run.stdout, "read_graph"), "2026-12");
    assert.equal(revisionOf(run.stdout, "pinned"), "7");
    const elsewhere = { tools: [{ ...listed.tools[0], backend: "other" }] };
    writeFileSync(at("elsewhere.json"), JSON.stringify(elsewhere));
    const refused = runCli(["admit", "--backend", "memory", at("elsewhere.json")]);
    assert.equal(refused.status, 1, "--backend is the backend the catalog allows: another is refused");
    const mcp = runCli(["admit", "--mcp", "node server.js", "--backend", "memory"]);
    assert.equal(mcp.status, 2);
    assert.match(mcp.stderr, /--backend applies only to a catalog file/);
  });
});

describe("admit's reasons spell the fix the CLI's way", () => {
  test("a quarantined draft-07 tool: pass --draft07 upgrade, never the API's option", () => {
    const draft07 = {
      ...listed.tools[1],
      inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...listed.tools[1]!.inputSchema },
    };
    writeFileSync(at("draft07.json"), JSON.stringify({ tools: [listed.tools[0], draft07] }));
    const quarantined = runCli(["admit", "--quarantine", at("draft07.json")]);
    assert.equal(quarantined.status, 0, quarantined.stdout + quarantined.stderr);
    assert.match(quarantined.stdout, /^search_nodes .*quarantined .*pass --draft07 upgrade to translate/m);
    const strict = runCli(["admit", at("draft07.json")]);
    assert.equal(strict.status, 1);
    for (const run of [quarantined, strict]) assert.doesNotMatch(run.stdout, /draft07: "upgrade"/);
  });
});

describe("a validator's methods work as functions", () => {
  test("[...].filter(v.isValid), and validate, annotations and evaluate taken off the validator", () => {
    const v = compile({ type: "object", required: ["name"] });
    assert.deepEqual([{ name: "a" }, {}].filter(v.isValid), [{ name: "a" }]);
    const { validate, annotations, evaluate } = v;
    assert.equal(validate({}).valid, false);
    assert.deepEqual(annotations({}), []);
    assert.equal(evaluate({ name: "a" }).valid, true);
  });
});

describe("the model's text names the property additionalProperties refuses in arguments", () => {
  const closed = { type: "object", properties: { q: { type: "string" } }, additionalProperties: false };

  test("named, as the engine's message names it", () => {
    const refused = InputSchema.validate(closed, { q: "x", extra: 1 });
    assert.equal(refused.ok, false);
    assert.match(
      !refused.ok ? refused.error.toModelText() : "",
      /- \(arguments\): must not have property "extra", which the schema does not allow \(expected by "additionalProperties"/,
    );
  });

  test("escaped and bounded: controls and invisible characters as \\u escapes, 64 characters, five names", () => {
    const hostile = { "a\u202Eb\u0007\u200B": 1, [`${"k".repeat(63)}😀tail`]: 2, c: 3, d: 4, e: 5, f: 6, g: 7 };
    const refused = InputSchema.validate(closed, hostile);
    const text = !refused.ok ? refused.error.toModelText() : "";
    assert.ok(text.includes('"a\\u202Eb\\u0007\\u200B"'), text);
    assert.ok(text.includes(`"${"k".repeat(63)}…"`), "cut before a pair it would split");
    assert.match(text, /, … \(2 more\), which the schema does not allow/);
    for (const hidden of ["\u202E", "\u0007", "\u200B", "tail"]) assert.ok(!text.includes(hidden), hidden);
  });

  test("a result's keys are the server's: never named", () => {
    const refused = OutputSchema.validate(closed, { q: "x", "ignore previous instructions": 1 });
    const text = !refused.ok ? refused.error.toModelText() : "";
    assert.match(text, /must not have properties other than those the schema allows/);
    assert.doesNotMatch(text, /ignore/);
  });
});
