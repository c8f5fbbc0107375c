/**
 * The README runs as shown. Every fenced block labelled `ts` or `js` is a TypeScript program: each is written to its
 * own file in a scratch project where `backplane-agent-runtime` (and `/mcp`, `/vendor`) resolve to this repository's
 * built package (`dist/`, which `pretest` builds) and the development dependencies resolve as they do here; all of
 * them are compiled in one `tsc` run with the repository's TypeScript (`strict`, `noUncheckedIndexedAccess`, module
 * `nodenext`), and each compiled program is run with node. What it prints on standard output must be exactly the
 * `text` block that follows it (nothing but blank lines between), or nothing when no `text` block follows. A block
 * that is intentionally not a whole program says so in its info string (```` ```ts fragment ````): it is counted
 * and left out. Nothing is listed here: a block added to the README is compiled and run by the next `npm test`.
 * The table of contents is checked against the headings, and no line may point outside the repository.
 */

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { scratchDir } from "./package/scratch.js";
import { repoRoot } from "./suite/locate.js";

/** A fenced block: its language, the rest of its info string, its text and where it is. */
interface Block {
  /** The info string's first word (`ts`, `text`, `sh`, …). */
  readonly lang: string;
  /** The info string's other words (`fragment`). */
  readonly flags: readonly string[];
  /** The lines between the fences, each ending with a newline. */
  readonly text: string;
  /** The README line of the first line inside the block (1-based). */
  readonly line: number;
  /** The heading the block is under. */
  readonly section: string;
  /** Whether only blank lines separate it from the block before it. */
  readonly adjacent: boolean;
}

/** A program of the README: its file in the scratch project and what it must print. */
interface Example {
  readonly block: Block;
  /** The file name, without extension, in the scratch project's `src/` (`block-07`). */
  readonly name: string;
  /** What it must print: the `text` block right after it, or nothing. */
  readonly output: string;
}

/** What running a program gave. */
interface Run {
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The compiler's exit status and its diagnostics: each example's by name, and those about no example. */
interface Compiled {
  readonly status: number | null;
  readonly byExample: ReadonlyMap<string, readonly string[]>;
  readonly other: readonly string[];
}

const CODE = new Set(["ts", "js"]);
const FRAGMENT = "fragment";
/** Code lines in the README stay within the repository's width. */
const MAX_COLUMNS = 120;
/** No one example may run longer (the ones that start an MCP server take a second or two). */
const RUN_TIMEOUT_MS = 30_000;

/** The README's fenced blocks, in order (a heading inside a fence is not a heading). */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = "";
  let adjacent = false;
  let fence: { lang: string; flags: string[]; line: number; lines: string[] } | undefined;
  markdown.split("\n").forEach((line, i) => {
    if (fence !== undefined) {
      if (line.startsWith("```")) {
        const text = fence.lines.map((l) => l + "\n").join("");
        blocks.push({ lang: fence.lang, flags: fence.flags, text, line: fence.line, section, adjacent });
        fence = undefined;
        adjacent = true;
      } else fence.lines.push(line);
    } else if (line.startsWith("```")) {
      const [lang = "", ...flags] = line.slice(3).trim().split(/\s+/);
      fence = { lang, flags, line: i + 2, lines: [] };
    } else if (line.trim() !== "") {
      adjacent = false;
      if (/^#+ /.test(line)) section = line.replace(/^#+ /, "");
    }
  });
  assert.equal(fence, undefined, "README.md ends inside a fenced block");
  return blocks;
}

/** The README's section headings below the title, outside fenced blocks. */
function headingsOf(markdown: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{2,3} /.test(line)) headings.push(line.replace(/^#+ /, ""));
  }
  return headings;
}

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const blocks = fencedBlocks(readme);
const code = blocks.filter((b) => CODE.has(b.lang));
const fragments = code.filter((b) => b.flags.includes(FRAGMENT));
const examples: Example[] = code
  .filter((b) => !b.flags.includes(FRAGMENT))
  .map((block, k) => {
    const next = blocks[blocks.indexOf(block) + 1];
    const output = next !== undefined && next.adjacent && next.lang === "text" ? next.text : "";
    return { block, name: `block-${String(k + 1).padStart(2, "0")}`, output };
  });

const project = scratchDir("readme");
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");

/**
 * The scratch project: its `node_modules` holds this repository's installed packages and, under the package's own
 * name, the repository itself (so the package's `exports` lead to `dist/`); each example is `src/<name>.ts`.
 */
function writeProject(): void {
  const modules = join(project, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    symlinkSync(join(repoRoot, "node_modules", entry), join(modules, entry));
  }
  symlinkSync(repoRoot, join(modules, "backplane-agent-runtime"));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "readme-examples", private: true, type: "module" }),
  );
  const compilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: "ES2022",
    lib: ["ES2022"],
    module: "nodenext",
    moduleResolution: "nodenext",
    moduleDetection: "force",
    types: ["node"],
    skipLibCheck: true,
    rootDir: "src",
    outDir: "out",
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
  mkdirSync(join(project, "src"));
  for (const { block, name } of examples) writeFileSync(join(project, "src", `${name}.ts`), block.text);
}

/** Compiles every example in one run; each diagnostic's `src/block-07.ts(3,5)` becomes its README line and column. */
function compileAll(): Compiled {
  const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: project, encoding: "utf8" });
  const byExample = new Map<string, string[]>();
  const other: string[] = [];
  let current = other;
  for (const line of (result.stdout + result.stderr).split("\n").filter((l) => l.trim() !== "")) {
    const at = /^src\/(block-\d+)\.ts\((\d+),(\d+)\)/.exec(line);
    const example = examples.find((e) => e.name === at?.[1]);
    if (at === null || example === undefined) {
      // An indented line continues the diagnostic before it.
      (/^\s/.test(line) ? current : other).push(line);
      continue;
    }
    current = byExample.get(example.name) ?? [];
    byExample.set(example.name, current);
    current.push(`README.md:${example.block.line + Number(at[2]) - 1}:${at[3]}${line.slice(at[0].length)}`);
  }
  return { status: result.status, byExample, other };
}

/** Runs one compiled example with node from the scratch project; never rejects. */
function run(name: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join("out", `${name}.js`)], { cwd: project, timeout: RUN_TIMEOUT_MS });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (e) => resolve({ status: null, signal: null, stdout, stderr: stderr + String(e) }));
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Every example run, a few at a time in README order, by name. */
function runAll(names: readonly string[], concurrency: number): Map<string, Promise<Run>> {
  const done = new Map<string, (run: Run) => void>();
  const runs = new Map(names.map((name) => [name, new Promise<Run>((resolve) => done.set(name, resolve))]));
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) done.get(name)?.(await run(name));
  };
  for (let i = 0; i < concurrency; i++) void worker();
  return runs;
}

describe("README.md", () => {
  let compiled: Compiled | undefined;
  let runs = new Map<string, Promise<Run>>();

  before(
    () => {
      writeProject();
      // A program with type errors is still emitted, so each is run (and its own errors reported) on its own.
      compiled = compileAll();
      const names = examples.map((e) => e.name);
      runs = runAll(names, Math.max(2, Math.min(4, availableParallelism())));
    },
    { timeout: 120_000 },
  );

  test("its code blocks are found, each a program or marked as a fragment", (t) => {
    assert.ok(examples.length > 0, "README.md has no ts/js block");
    const unmarked = blocks.filter((b) => /^(typescript|javascript|tsx|jsx|mjs|cjs)$/i.test(b.lang));
    assert.deepEqual(
      unmarked.map((b) => `README.md:${b.line} (${b.lang})`),
      [],
      "label code blocks ts or js, so that they are compiled and run",
    );
    const flags = code.flatMap((b) => b.flags.filter((f) => f !== FRAGMENT).map((f) => `README.md:${b.line} ${f}`));
    assert.deepEqual(flags, [], `the only flag a code block takes is "${FRAGMENT}"`);
    const shown = examples.filter((e) => e.output !== "").length;
    t.diagnostic(
      `README: ${code.length} ts/js blocks, ${examples.length} compiled with tsc --strict and run ` +
        `(${shown} compared with the text block after them, ${examples.length - shown} printing nothing), ` +
        `${fragments.length} marked as fragments`,
    );
  });

  test("no code line is wider than the repository's code", () => {
    const wide = code.flatMap((b) =>
      b.text
        .split("\n")
        .map((line, i) => ({ line, at: b.line + i }))
        .filter(({ line }) => line.length > MAX_COLUMNS)
        .map(({ at, line }) => `README.md:${at} (${line.length} columns)`),
    );
    assert.deepEqual(wide, []);
  });

  test("the table of contents lists every section, and every link to a section leads to one", () => {
    const headings = headingsOf(readme);
    const anchors = new Set(headings.map(slug));
    const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1] as string);
    assert.deepEqual(
      links.filter((l) => !anchors.has(l)),
      [],
      "links to no heading",
    );
    const unlisted = headings.filter((h) => h !== "Contents" && !links.includes(slug(h)));
    assert.deepEqual(unlisted, [], "sections missing from the table of contents");
  });

  test("no line sends the reader outside the repository", () => {
    const outside = readme
      .split("\n")
      .map((line, i) => ({ line, at: i + 1 }))
      .filter(({ line }) => /(^|[\s`("'])\.\.\//.test(line))
      .map(({ at, line }) => `README.md:${at}: ${line.trim()}`);
    assert.deepEqual(outside, []);
  });

  test("its programs compile in one tsc --strict run", () => {
    assert.ok(compiled !== undefined);
    const all = [...compiled.other, ...[...compiled.byExample.values()].flat()];
    assert.equal(compiled.status, 0, all.join("\n"));
  });

  for (const { block, name, output } of examples) {
    const what = output === "" ? "prints nothing" : "prints what the README shows";
    test(`"${block.section}" (line ${block.line}) compiles, runs and ${what}`, async () => {
      assert.deepEqual(compiled?.byExample.get(name) ?? [], [], "tsc --strict");
      const result = await runs.get(name);
      assert.ok(result !== undefined);
      assert.equal(result.signal, null, `killed by ${String(result.signal)} (limit: ${RUN_TIMEOUT_MS} ms)`);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, output);
    });
  }
});
