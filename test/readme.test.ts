/**
 * The README's examples run as shown: in each section below, every `js` block followed directly by a `text` block is
 * an example, run against the built package (`backplane-agent-runtime` resolves to `dist/` here) from the repository
 * root, and what it prints must be that text block exactly. A later example of a section continues the earlier ones
 * (it may use what they defined), so example k runs the section's blocks 1..k and must print their outputs 1..k.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./suite/locate.js";

/** The sections whose examples must run, and how many each has (so an example cannot drop out unnoticed). */
const expected = new Map([
  ["The engine", 1],
  ["The MCP tool-call boundary: `InputSchema`", 1],
  ["Errors", 3],
  ["Batch admission and the gateways", 2],
  ["Pins, reviewed updates and hidden text", 1],
]);

interface Block {
  lang: string;
  text: string;
}

interface Example {
  code: string;
  output: string;
}

/** The fenced blocks of each section, by heading text (headings inside fences do not count). */
function sectionsOf(markdown: string): Map<string, Block[]> {
  const sections = new Map<string, Block[]>();
  let blocks: Block[] = [];
  let fence: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split("\n")) {
    if (fence !== undefined) {
      if (line.startsWith("```")) {
        blocks.push({ lang: fence.lang, text: fence.lines.join("\n") + "\n" });
        fence = undefined;
      } else fence.lines.push(line);
    } else if (line.startsWith("```")) {
      fence = { lang: line.slice(3).trim(), lines: [] };
    } else if (/^#+ /.test(line)) {
      blocks = [];
      sections.set(line.replace(/^#+ /, ""), blocks);
    } else if (line.trim() !== "") {
      blocks.push({ lang: "prose", text: line });
    }
  }
  return sections;
}

/** A `js` block with its output: the `text` block right after it, nothing but blank lines between. */
function examplesOf(blocks: readonly Block[]): Example[] {
  const examples: Example[] = [];
  for (let i = 0; i + 1 < blocks.length; i++) {
    const code = blocks[i] as Block;
    const output = blocks[i + 1] as Block;
    if (code.lang === "js" && output.lang === "text") examples.push({ code: code.text, output: output.text });
  }
  return examples;
}

function run(code: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ["--input-type=module"], {
    input: code,
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
}

const sections = sectionsOf(readFileSync(join(repoRoot, "README.md"), "utf8"));

for (const [heading, count] of expected) {
  const examples = examplesOf(sections.get(heading) ?? []);

  test(`README "${heading}" has its ${count} runnable example(s)`, () => {
    assert.ok(sections.has(heading), `no section "${heading}" in README.md`);
    assert.equal(examples.length, count, `a js block followed directly by its text output, in "${heading}"`);
  });

  examples.forEach((_, k) => {
    test(`README "${heading}", example ${k + 1}, prints what the README shows`, () => {
      const upTo = examples.slice(0, k + 1);
      const r = run(upTo.map((e) => e.code).join("\n"));
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, upTo.map((e) => e.output).join(""));
    });
  });
}
