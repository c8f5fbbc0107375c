/**
 * Hidden text in what servers answer (issue 46): the parts of a tool result, a resource, a prompt and an elicitation
 * a model (or a person) reads are scanned with admission's one detector; well-formed text passes; `report` says where
 * and which code points and never the text, `refuse` withholds, `off` looks at nothing.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Audit, Reporter } from "../../../src/cli/gateway/audit.js";
import {
  HiddenTextScreen,
  WITHHELD_ANSWER,
  hiddenInAnswer,
  type HiddenTextMode,
} from "../../../src/cli/gateway/policy/hidden-text.js";
import { loadSdk } from "../../../src/cli/gateway/sdk.js";

/** A tag-character run spelling "hi", a right-to-left override, a zero-width space, ESC and a C1 CSI. */
const SMUGGLED = "Report done.\u{E0068}\u{E0069}";
const BIDI = "invoice\u202Etxt.exe";
const ZERO_WIDTH = "ignore\u200Bprevious";
const CONTROLS = "ok\u001b[2J\u009b31m";
/** Well-formed text that uses the same code points for their visible job. */
const BENIGN = [
  "Family: 👨‍👩‍👧, flag: 🏳️‍🌈, England: 🏴󠁧󠁢󠁥󠁮󠁧󠁿, warning: ⚠️",
  "فارسی: می‌خواهم",
  "hyphen\u00ADation",
  "tab\tnew line\ncarriage\r\n",
];

describe("hiddenInAnswer: what a model reads of each answer", () => {
  test("a tool result: text blocks, an embedded resource's text, structuredContent strings and names", () => {
    const result = {
      content: [
        { type: "text", text: SMUGGLED },
        { type: "image", data: "\u200B", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a", text: BIDI } },
      ],
      structuredContent: { note: ZERO_WIDTH, list: [CONTROLS], ["key\u2066"]: 1 },
    };
    assert.deepEqual(hiddenInAnswer("tools/call", result), [
      { pointer: "/content/0/text", codePoints: ["U+E0068", "U+E0069"] },
      { pointer: "/content/2/resource/text", codePoints: ["U+202E"] },
      { pointer: "/structuredContent/key\u2066", codePoints: ["U+2066"] },
      { pointer: "/structuredContent/list/0", codePoints: ["U+001B", "U+009B"] },
      { pointer: "/structuredContent/note", codePoints: ["U+200B"] },
    ]);
  });

  test("a resource's contents, a prompt's messages and description, an elicitation's message", () => {
    assert.deepEqual(
      hiddenInAnswer("resources/read", {
        contents: [
          { uri: "u", text: "a" },
          { uri: "v", text: BIDI },
        ],
      }),
      [{ pointer: "/contents/1/text", codePoints: ["U+202E"] }],
    );
    const prompt = {
      description: ZERO_WIDTH,
      messages: [
        { role: "user", content: { type: "text", text: "fine" } },
        { role: "assistant", content: { type: "text", text: SMUGGLED } },
      ],
    };
    assert.deepEqual(
      hiddenInAnswer("prompts/get", prompt).map((h) => h.pointer),
      ["/description", "/messages/1/content/text"],
    );
    assert.deepEqual(hiddenInAnswer("elicitation/create", { message: CONTROLS, requestedSchema: {} }), [
      { pointer: "/message", codePoints: ["U+001B", "U+009B"] },
    ]);
  });

  test("well-formed emoji, joiners in a script that shapes with them, soft hyphens, tab and line breaks pass", () => {
    const result = { content: BENIGN.map((text) => ({ type: "text", text })), structuredContent: { text: BENIGN } };
    assert.deepEqual(hiddenInAnswer("tools/call", result), []);
  });

  test("what is not an answer of that shape finds nothing, and throws nothing", () => {
    for (const answer of [null, "text", 1, [], { content: "x" }, { messages: [null, 1] }])
      for (const method of ["tools/call", "resources/read", "prompts/get", "elicitation/create"] as const)
        assert.deepEqual(hiddenInAnswer(method, answer), []);
  });
});

describe("HiddenTextScreen: off, report, refuse", () => {
  const answer = { contents: [{ uri: "u", text: SMUGGLED }] };
  async function screenWith(mode: HiddenTextMode) {
    let err = "";
    const audit = new Audit("-", false, (text) => (err += text));
    const screen = new HiddenTextScreen(mode, await loadSdk("test"), new Reporter((t) => (err += t)), audit);
    return { screen, err: () => err };
  }

  test("off: nothing is looked at, nothing said", async () => {
    const { screen, err } = await screenWith("off");
    assert.equal(screen.answer("s", "resources/read", "u", answer), answer);
    assert.equal(err(), "");
  });

  test("report: passed on as it came; stderr and the audit log name the pointer and code points, never the text", async () => {
    const { screen, err } = await screenWith("report");
    assert.equal(screen.answer("s", "resources/read", "u", answer), answer);
    const lines = err().trim().split("\n");
    assert.equal(lines.length, 2);
    assert.equal(
      lines[0],
      "backplane-schema gateway: s: hidden text in resources/read u: /contents/0/text U+E0068 U+E0069; " +
        "passed on (--hidden-text report)",
    );
    const entry = JSON.parse(lines[1] as string) as Record<string, unknown>;
    assert.deepEqual(
      { ...entry, time: undefined },
      {
        time: undefined,
        event: "answer",
        server: "s",
        method: "resources/read",
        name: "u",
        outcome: "reported",
        hiddenText: [{ pointer: "/contents/0/text", codePoints: ["U+E0068", "U+E0069"] }],
      },
    );
    assert.ok(!err().includes("Report done"), "the text is never written");
  });

  test("refuse: a prompt or resource is a JSON-RPC error with a fixed text; a tool result is marked withheld", async () => {
    const { screen, err } = await screenWith("refuse");
    assert.throws(
      () => screen.answer("s", "resources/read", "u", answer),
      (e: Error & { code?: number }) => e.code === -32603 && e.message.includes(WITHHELD_ANSWER),
    );
    const tool = screen.screen("s", "tools/call", "s__t", { content: [{ type: "text", text: BIDI }] });
    assert.equal(tool.withheld, true);
    assert.deepEqual(tool.hidden, [{ pointer: "/content/0/text", codePoints: ["U+202E"] }]);
    assert.match(err(), /s__t: \/content\/0\/text U\+202E; withheld/);
    assert.ok(!err().includes("\u202E") && !err().includes("txt.exe"));
    const clean = screen.screen("s", "tools/call", "s__t", { content: [{ type: "text", text: BENIGN[0] }] });
    assert.deepEqual(clean, { hidden: [], withheld: false });
  });
});
