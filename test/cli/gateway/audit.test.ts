/** What the gateway writes: stderr lines and audit lines are safe for a terminal; values only when asked for. */

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Audit, Reporter } from "../../../src/cli/gateway/audit.js";

const HOSTILE = "evil\u001b[2J\u009b31m\u202etxt.exe\u200b\u{E0041}\r\nnext";
/** ESC, CSI (C1), a bidi override, a zero-width space and a carriage return: what must never reach a terminal raw. */
const unsafe = (text: string) => ["\u001b", "\u009b", "\u202e", "\u200b", "\r"].some((c) => text.includes(c));

describe("Reporter", () => {
  test("server-chosen text is one escaped line: no ESC, C1, bidi or invisible character reaches the terminal", () => {
    let out = "";
    const reporter = new Reporter((text) => (out += text));
    reporter.say(`held ${HOSTILE}`);
    reporter.server("alpha", HOSTILE);
    const lines = out.split("\n");
    assert.equal(lines.length, 4, "one line each (the server's own line break is escaped)");
    assert.match(
      lines[0] ?? "",
      /^backplane-schema gateway: held evil\\u001b\[2J\\u009b31m\\u202etxt\.exe\\u200b\\udb40\\udc41 next$/,
    );
    assert.match(lines[1] ?? "", /^\[alpha\] evil\\u001b/);
    assert.ok(!unsafe(out));
  });
});

describe("Audit", () => {
  test("JSON lines with time, event and the entry's fields; escaped, and parsing back to the same text", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backplane-audit-"));
    try {
      const path = join(dir, "audit.jsonl");
      const audit = new Audit(path, false, () => undefined);
      audit.call({
        server: "s",
        tool: `s__${HOSTILE}`,
        outcome: "refused",
        stage: "arguments",
        code: "arguments_invalid",
        durationMs: 0.25,
        arguments: { secret: 1 },
        result: { leaked: 2 },
      });
      audit.catalog({ server: "s", tool: "s__a", outcome: "held", code: "tool_changed", fields: ["/description"] });
      await audit.close();
      const text = readFileSync(path, "utf8");
      assert.ok(!unsafe(text));
      const [call, catalog] = text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(call?.["tool"], `s__${HOSTILE}`);
      assert.equal(call?.["event"], "call");
      assert.match(String(call?.["time"]), /^\d{4}-\d\d-\d\dT/);
      assert.ok(!Object.hasOwn(call ?? {}, "arguments") && !Object.hasOwn(call ?? {}, "result"), "no values");
      assert.deepEqual(catalog?.["fields"], ["/description"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("--audit-values adds arguments and result; - writes to stderr; without --audit nothing is written", async () => {
    let err = "";
    const audit = new Audit("-", true, (text) => (err += text));
    audit.call({ tool: "t", outcome: "dispatched", durationMs: 1, arguments: { a: 1 }, result: { content: [] } });
    await audit.close();
    assert.deepEqual(JSON.parse(err).arguments, { a: 1 });
    let silent = "";
    const off = new Audit(undefined, false, (text) => (silent += text));
    off.call({ tool: "t", outcome: "dispatched", durationMs: 1 });
    assert.equal(silent, "");
  });
});
