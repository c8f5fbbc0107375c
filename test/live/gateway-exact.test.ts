/**
 * The gateway's exact checks, live (issue 46 items 1 and 2), through `backplane-schema gateway` with a hostile server
 * and its benign twin (`exact-server.js`): `--closed-arguments` refuses a call carrying a property the tool's schema
 * does not declare before it reaches the server, and says at start-up what it closed; `--hidden-text` reports (the
 * default) or withholds results, prompts, resources and elicitations that hide text, and lets the twin's
 * well-formed emoji and joiners through.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { WITHHELD_ANSWER, WITHHELD_RESULT } from "../../src/cli/gateway/policy/hidden-text.js";
import { startGateway, textOf, type RunningGateway } from "./gateway-helpers.js";

const EXACT = join(dirname(fileURLToPath(import.meta.url)), "exact-server.js");
const SERVERS = {
  evil: { command: process.execPath, args: [EXACT, "evil", "hostile"] },
  good: { command: process.execPath, args: [EXACT, "good", "benign"] },
};

type CallResult = { content?: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };

async function call(gateway: RunningGateway, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  return (await gateway.client.callTool({ name, arguments: args })) as CallResult;
}

/** The audit log's entries. */
function audit(gateway: RunningGateway): Record<string, unknown>[] {
  const text = readFileSync(join(gateway.dir, "audit.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("gateway: --closed-arguments", { timeout: 120_000 }, () => {
  test("an undeclared property is refused before the server, named for the model; declared ones reach it", async () => {
    const gateway = await startGateway({ servers: SERVERS, args: () => ["--closed-arguments"] });
    try {
      await gateway.waitFor(/good__search: closed arguments: [^\n]*\n/);
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

      const entries = audit(gateway);
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
      const entry = audit(gateway).find((e) => e["event"] === "call" && e["tool"] === "evil__report");
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
