/**
 * The gateway's exact checks, live (issue 46 items 1 and 2), through `backplane-schema gateway` with a hostile server
 * and its benign twin (`exact-server.js`): `--closed-arguments` refuses a call carrying a property the tool's schema
 * does not declare before it reaches the server, and says at start-up what it closed; `--hidden-text` reports (the
 * default) or withholds results, prompts, resources and elicitations that hide text, and lets the twin's
 * well-formed emoji and joiners through.
 */

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { WITHHELD_ANSWER, WITHHELD_RESULT } from "../../src/cli/gateway/policy/hidden-text.js";
import { reference, startGateway, textOf, type RunningGateway } from "./gateway-helpers.js";
import { until } from "../until.js";
import { SERVERS as REFERENCE } from "./servers.js";

const EXACT = join(dirname(fileURLToPath(import.meta.url)), "exact-server.js");
const SERVERS = {
  evil: { command: process.execPath, args: [EXACT, "evil", "hostile"] },
  good: { command: process.execPath, args: [EXACT, "good", "benign"] },
};

type CallResult = { content?: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };

async function call(gateway: RunningGateway, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  return (await gateway.client.callTool({ name, arguments: args })) as CallResult;
}

/** The audit log's entries, once it holds `count` of the kind `event` (the log is written after the answer). */
async function audit(gateway: RunningGateway, event: string, count: number): Promise<Record<string, unknown>[]> {
  const read = () => {
    const path = join(gateway.dir, "audit.jsonl");
    const text = existsSync(path) ? readFileSync(path, "utf8").trim() : "";
    return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  await until(
    `${count} ${event} entries in the audit log`,
    () => read().filter((e) => e["event"] === event).length >= count,
  );
  return read();
}

describe("gateway: --closed-arguments", { timeout: 120_000 }, () => {
  test("an undeclared property is refused before the server, named for the model; declared ones reach it", async () => {
    const gateway = await startGateway({ servers: SERVERS, args: () => ["--closed-arguments"] });
    try {
      await gateway.waitFor(/good__search: closed arguments: [^\n]*\n/);
      await gateway.waitFor(/evil__report: closed arguments: [^\n]*\n/);
      assert.match(gateway.stderr(), /good__search: closed arguments: closed the root, \/properties\/options\n/);
      assert.match(gateway.stderr(), /evil__report: closed arguments: closed the root\n/);

      const declared = await call(gateway, "good__search", { q: "notes", options: { limit: 3 } });
      assert.equal(declared.isError, undefined);
      assert.equal(textOf(declared), "good: search got q,options");

      for (const server of ["good", "evil"]) {
        const refused = await call(gateway, `${server}__search`, { q: "notes", exfil: "~/.ssh/id_rsa" });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /closed arguments/);
        assert.match(textOf(refused), /must not have property "exfil"/);
        assert.ok(!textOf(refused).includes("id_rsa"), "no value is quoted");
      }
      const nested = await call(gateway, "good__search", { q: "notes", options: { limit: 3, scope: "all" } });
      assert.match(textOf(nested), /\/options: must not have property "scope"/);
      assert.ok(!/call search [^\n]*exfil|call search [^\n]*scope/.test(gateway.stderr()), "never sent to a server");
    } finally {
      await gateway.close();
    }
  });

  test("off by default: the open schema lets the property through, as the server published it", async () => {
    const gateway = await startGateway({ servers: SERVERS });
    try {
      const passed = await call(gateway, "evil__search", { q: "notes", exfil: "x" });
      assert.equal(textOf(passed), "evil: search got q,exfil");
      assert.ok(!gateway.stderr().includes("closed arguments"));
    } finally {
      await gateway.close();
    }
  });
});

describe("gateway: --hidden-text in answers", { timeout: 120_000 }, () => {
  test("refuse: the hostile result, prompt, resource and elicitation are withheld; the benign twin's pass", async () => {
    const gateway = await startGateway({
      servers: SERVERS,
      args: (dir) => ["--hidden-text", "refuse", "--audit", join(dir, "audit.jsonl")],
      elicit: () => ({ action: "accept", content: { ok: true } }),
    });
    try {
      const withheld = await call(gateway, "evil__report");
      assert.deepEqual(withheld, { content: [{ type: "text", text: WITHHELD_RESULT }], isError: true });
      const benign = await call(gateway, "good__report");
      assert.equal(benign.isError, undefined);
      assert.equal(textOf(benign), "Search finished 👨‍👩‍👧 🏳️‍🌈 🏴󠁧󠁢󠁥󠁮󠁧󠁿");
      assert.deepEqual(benign.structuredContent, { file: "می‌خواهم invoice.pdf ⚠️" });

      await assert.rejects(gateway.client.getPrompt({ name: "evil__greeting" }), (e: Error) =>
        e.message.includes(WITHHELD_ANSWER),
      );
      const prompt = await gateway.client.getPrompt({ name: "good__greeting" });
      assert.equal((prompt.messages[0]?.content as { text: string }).text, "Say hello 👋🏽 to the team.");
      await assert.rejects(gateway.client.readResource({ uri: "note://evil/readme" }), (e: Error) =>
        e.message.includes(WITHHELD_ANSWER),
      );
      const resource = await gateway.client.readResource({ uri: "note://good/readme" });
      assert.equal((resource.contents[0] as { text: string }).text, "Read me\tfirst.\nThen the rest.");

      const refusedAsk = await call(gateway, "evil__ask");
      assert.match(textOf(refusedAsk), /^elicitation failed: .*withheld this answer/);
      assert.equal(gateway.elicitations.length, 0, "the client was never asked the hostile question");
      assert.equal(textOf(await call(gateway, "good__ask")), "elicitation: accept");
      assert.equal(gateway.elicitations.length, 1);

      const err = gateway.stderr();
      assert.match(
        err,
        /evil: hidden text in tools\/call evil__report: \/content\/0\/text U\+E0049 U\+E0065 U\+E0067 U\+E006E U\+E006F U\+E0072; \/structuredContent\/file U\+202E; withheld/,
      );
      assert.match(err, /evil: hidden text in prompts\/get greeting: \/messages\/0\/content\/text U\+200B; withheld/);
      assert.match(
        err,
        /evil: hidden text in resources\/read note:\/\/evil\/readme: \/contents\/0\/text U\+001B; withheld/,
      );
      assert.match(err, /evil: hidden text in elicitation\/create form: \/message U\+202E; withheld/);
      assert.ok(!/good: hidden text/.test(err), "the benign twin is never flagged");
      assert.ok(!err.includes("id_rsa") && !err.includes("txt.exe"), "the text itself is never written");

      const entries = await audit(gateway, "call", 4);
      const report = entries.find((e) => e["event"] === "call" && e["tool"] === "evil__report");
      assert.deepEqual(
        { outcome: report?.["outcome"], stage: report?.["stage"], code: report?.["code"] },
        { outcome: "withheld", stage: "result", code: "hidden_text" },
      );
      assert.deepEqual(report?.["hiddenText"], [
        { pointer: "/content/0/text", codePoints: ["U+E0049", "U+E0065", "U+E0067", "U+E006E", "U+E006F", "U+E0072"] },
        { pointer: "/structuredContent/file", codePoints: ["U+202E"] },
      ]);
      const answers = entries.filter((e) => e["event"] === "answer");
      assert.deepEqual(
        answers.map((e) => `${String(e["server"])} ${String(e["method"])} ${String(e["outcome"])}`),
        ["evil prompts/get withheld", "evil resources/read withheld", "evil elicitation/create withheld"],
      );
      const good = entries.find((e) => e["event"] === "call" && e["tool"] === "good__report");
      assert.equal(good?.["outcome"], "dispatched");
      assert.equal(good?.["hiddenText"], undefined);
    } finally {
      await gateway.close();
    }
  });

  test("report (the default): everything is passed on as it came, and each place is reported", async () => {
    const gateway = await startGateway({ servers: SERVERS, args: (dir) => ["--audit", join(dir, "audit.jsonl")] });
    try {
      const passed = await call(gateway, "evil__report");
      assert.equal(passed.isError, undefined);
      assert.ok(textOf(passed).startsWith("Search finished.\u{E0049}"), "passed on untouched");
      const prompt = await gateway.client.getPrompt({ name: "evil__greeting" });
      assert.match((prompt.messages[0]?.content as { text: string }).text, /\u200B/);
      await gateway.waitFor(/evil: hidden text in prompts\/get greeting: [^\n]*passed on \(--hidden-text report\)/);
      assert.match(gateway.stderr(), /evil: hidden text in tools\/call evil__report: .*; passed on/);
      const entries = await audit(gateway, "answer", 1);
      const entry = entries.find((e) => e["event"] === "call" && e["tool"] === "evil__report");
      assert.equal(entry?.["outcome"], "dispatched");
      assert.equal((entry?.["hiddenText"] as unknown[]).length, 2);
    } finally {
      await gateway.close();
    }
  });

  test("off: nothing is looked at in answers", async () => {
    const gateway = await startGateway({ servers: SERVERS, args: () => ["--hidden-text", "off"] });
    try {
      assert.equal((await call(gateway, "evil__report")).isError, undefined);
      await gateway.client.getPrompt({ name: "evil__greeting" });
      assert.ok(!gateway.stderr().includes("hidden text in"));
    } finally {
      await gateway.close();
    }
  });
});

describe("gateway: the benign side, the four reference servers", { timeout: 180_000 }, () => {
  test("--closed-arguments and --hidden-text report: every call, prompt, resource and elicitation passes unflagged", async () => {
    const root = mkdtempSync(join(tmpdir(), "backplane-exact-reference-"));
    writeFileSync(join(root, "notes.txt"), "first line\nsecond line\n");
    const servers: Record<string, unknown> = {};
    for (const spec of REFERENCE) servers[spec.backend] = reference(spec.pkg, root, spec.args(root), spec.env?.(root));
    const gateway = await startGateway({
      servers,
      args: (dir) => ["--closed-arguments", "--hidden-text", "report", "--audit", join(dir, "audit.jsonl")],
    });
    try {
      // 40 of the 41: the test client declares form elicitation only, so everything does not list its URL one.
      await gateway.waitFor(/admitted 40 tools from 4 of 4 servers/, 60_000);
      const closedOf = () => gateway.stderr().match(/^backplane-schema gateway: \S+: closed arguments: .*$/gm) ?? [];
      const closedLines = await until(
        "one closed-arguments line per tool",
        () => closedOf().length >= 40 && closedOf(),
      );
      assert.equal(closedLines.length, 40);
      const notes = join(root, "notes.txt");
      const calls: [string, Record<string, unknown>][] = [
        ["everything__echo", { message: "hello 👋🏽" }],
        ["everything__get-sum", { a: 2, b: 3 }],
        ["everything__get-structured-content", { location: "Chicago" }],
        ["everything__get-annotated-message", { messageType: "success", includeImage: true }],
        ["everything__get-resource-links", { count: 3 }],
        ["everything__get-resource-reference", {}],
        ["everything__get-tiny-image", {}],
        ["everything__trigger-elicitation-request", {}],
        ["filesystem__write_file", { path: join(root, "new.txt"), content: "written ✔️" }],
        ["filesystem__read_text_file", { path: notes, head: 1 }],
        ["filesystem__read_multiple_files", { paths: [notes, join(root, "new.txt")] }],
        ["filesystem__edit_file", { path: notes, edits: [{ oldText: "first", newText: "1st" }], dryRun: true }],
        ["filesystem__list_directory", { path: root }],
        ["filesystem__directory_tree", { path: root }],
        ["filesystem__search_files", { path: root, pattern: "*.txt" }],
        ["filesystem__get_file_info", { path: notes }],
        ["filesystem__list_allowed_directories", {}],
        ["memory__create_entities", { entities: [{ name: "ada", entityType: "person", observations: ["wrote"] }] }],
        ["memory__create_relations", { relations: [{ from: "ada", to: "ada", relationType: "knows" }] }],
        ["memory__read_graph", {}],
        ["memory__search_nodes", { query: "ada" }],
        ["memory__open_nodes", { names: ["ada"] }],
        [
          "sequential-thinking__sequentialthinking",
          { thought: "a first thought", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
        ],
      ];
      for (const [name, args] of calls) {
        const result = await call(gateway, name, args);
        assert.notEqual(result.isError, true, `${name}: ${textOf(result).slice(0, 300)}`);
      }
      const prompts = [
        await gateway.client.getPrompt({ name: "everything__simple-prompt" }),
        await gateway.client.getPrompt({ name: "everything__args-prompt", arguments: { city: "Zürich" } }),
      ];
      assert.ok(prompts.every((p) => p.messages.length > 0));
      const { resources } = await gateway.client.listResources();
      assert.ok(resources.length >= 8, `${resources.length} resources`);
      for (const r of resources) await gateway.client.readResource({ uri: r.uri });
      assert.ok(gateway.elicitations.length >= 1, "the elicitation reached the client");

      const err = gateway.stderr();
      assert.ok(!err.includes("hidden text in"), err.match(/.*hidden text in.*/)?.[0]);
      const entries = await audit(gateway, "call", calls.length);
      const screened = entries.filter((e) => e["event"] === "call");
      assert.equal(screened.length, calls.length);
      assert.deepEqual(
        screened.filter((e) => e["outcome"] !== "dispatched" || e["hiddenText"] !== undefined),
        [],
        "every call dispatched, none with hidden text, none refused for an undeclared property",
      );
      assert.equal(entries.filter((e) => e["event"] === "answer").length, 0);
      console.log(
        `reference servers: ${calls.length} calls, ${prompts.length} prompts, ${resources.length} resources, ` +
          `${gateway.elicitations.length} elicitation(s): 0 hidden-text flags; closed arguments: ` +
          closedSummary(closedLines),
      );
    } finally {
      await gateway.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** The objects closed and left open over the tools' start-up lines. */
function closedSummary(lines: readonly string[]): string {
  let closed = 0;
  let open = 0;
  for (const line of lines) {
    const parts = line.replace(/^.*?: closed arguments: /, "").split("; ");
    for (const part of parts) {
      if (part.startsWith("closed ")) closed += part.slice("closed ".length).split(", ").length;
      else if (part !== "nothing closed") open++;
    }
  }
  return `${closed} objects closed, ${open} left open in ${lines.length} tools`;
}
