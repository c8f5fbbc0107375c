/**
 * The documentation runs as shown. Every fenced block labelled `ts` or `js` in `README.md` and in the pages of `docs/`
 * (the generated API reference aside) is a TypeScript program, and so is every file of `examples/`: each is written
 * to its own file in a scratch project where `backplane-agent-runtime` (and `/mcp`, `/vendor`) resolve to this
 * repository's built package (`dist/`, which `pretest` builds) and the development dependencies resolve as they do
 * here; all of them are compiled in one `tsc` run with the repository's TypeScript (`strict`,
 * `noUncheckedIndexedAccess`, module `nodenext`), and each compiled program is run with node. What a block prints on
 * standard output must be exactly the `text` block that follows it (nothing but blank lines between), or nothing when
 * no `text` block follows; what an example prints must be exactly the `// Output:` comment that ends its file, or
 * nothing when it has none. A block that is intentionally not a whole program says so in its info string
 * (```` ```ts fragment ````): it is counted and left out. Nothing is listed here: a block or an example added is
 * compiled and run by the next `npm test`.
 */

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { scratchDir } from "../package/scratch.js";
import { repoRoot } from "../suite/locate.js";
import { fencedBlocks, pages, type Block } from "./markdown.js";

/** A program of the documentation: its file in the scratch project, where its text is, and what it must print. */
interface Program {
  /** The file name, without extension, in the scratch project's `src/` (`docs-guide-engine-03`, `example-pins`). */
  readonly name: string;
  /** What the test is called: the page and its section, or the example's file. */
  readonly title: string;
  /** The repository file the program is in, and the line its first line is on there. */
  readonly file: string;
  readonly line: number;
  /** The program's text. */
  readonly text: string;
  /** What it must print. */
  readonly output: string;
}

/** What running a program gave. */
interface Run {
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The compiler's exit status and its diagnostics: each program's by name, and those about no program. */
interface Compiled {
  readonly status: number | null;
  readonly byProgram: ReadonlyMap<string, readonly string[]>;
  readonly other: readonly string[];
}

const CODE = new Set(["ts", "js"]);
const FRAGMENT = "fragment";
/** Code lines stay within the repository's width. */
const MAX_COLUMNS = 120;
/** No one program may run longer (the ones that start an MCP server take a second or two). */
const RUN_TIMEOUT_MS = 30_000;
/** The line that opens an example's expected output; each line after it is `// ` and an output line (`//`: empty). */
const OUTPUT_MARK = "// Output:";

const blocks = pages().flatMap(fencedBlocks);
const code = blocks.filter((b) => CODE.has(b.lang));
const fragments = code.filter((b) => b.flags.includes(FRAGMENT));

/** The name of a block's program: its page's path and its number on the page (`docs-guide-engine-03`). */
function blockName(block: Block, k: number): string {
  return `${block.page.replace(/\.md$/, "").replace(/[/.]/g, "-")}-${String(k + 1).padStart(2, "0")}`.toLowerCase();
}

function blockPrograms(): Program[] {
  const numbered = new Map<string, number>();
  return code
    .filter((b) => !b.flags.includes(FRAGMENT))
    .map((block) => {
      const k = numbered.get(block.page) ?? 0;
      numbered.set(block.page, k + 1);
      const next = blocks[blocks.indexOf(block) + 1];
      const output = next?.page === block.page && next.adjacent && next.lang === "text" ? next.text : "";
      const title = `${block.page} "${block.section}" (line ${block.line})`;
      return { name: blockName(block, k), title, file: block.page, line: block.line, text: block.text, output };
    });
}

/** An example's text up to its `// Output:` comment, and the output that comment states. */
function splitExample(source: string): { program: string; output: string } {
  const lines = source.split("\n");
  const mark = lines.indexOf(OUTPUT_MARK);
  if (mark === -1) return { program: source, output: "" };
  const stated = lines.slice(mark + 1).filter((l, i, all) => !(i === all.length - 1 && l === ""));
  const bad = stated.find((l) => l !== "//" && !l.startsWith("// "));
  if (bad !== undefined) throw new Error(`a line of the output comment is not "// …": ${bad}`);
  return { program: lines.slice(0, mark).join("\n") + "\n", output: stated.map((l) => l.slice(3) + "\n").join("") };
}

function examplePrograms(): Program[] {
  return readdirSync(join(repoRoot, "examples"))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => {
      const { program, output } = splitExample(readFileSync(join(repoRoot, "examples", f), "utf8"));
      const file = `examples/${f}`;
      return { name: `example-${f.replace(/\.ts$/, "")}`, title: file, file, line: 1, text: program, output };
    });
}

const programs = [...blockPrograms(), ...examplePrograms()];
const project = scratchDir("docs");
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");

/**
 * The scratch project: its `node_modules` holds this repository's installed packages and, under the package's own
 * name, the repository itself (so the package's `exports` lead to `dist/`); each program is `src/<name>.ts`.
 */
function writeProject(): void {
  const modules = join(project, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    symlinkSync(join(repoRoot, "node_modules", entry), join(modules, entry));
  }
  symlinkSync(repoRoot, join(modules, "backplane-agent-runtime"));
  const manifest = { name: "docs-examples", private: true, type: "module" };
  writeFileSync(join(project, "package.json"), JSON.stringify(manifest));
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
  for (const { name, text } of programs) writeFileSync(join(project, "src", `${name}.ts`), text);
}

/** Compiles every program in one run; each diagnostic's `src/<name>.ts(3,5)` becomes its file, line and column. */
function compileAll(): Compiled {
  const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: project, encoding: "utf8" });
  const byProgram = new Map<string, string[]>();
  const other: string[] = [];
  let current = other;
  for (const line of (result.stdout + result.stderr).split("\n").filter((l) => l.trim() !== "")) {
    const at = /^src\/([\w-]+)\.ts\((\d+),(\d+)\)/.exec(line);
    const program = programs.find((p) => p.name === at?.[1]);
    if (at === null || program === undefined) {
      // An indented line continues the diagnostic before it.
      (/^\s/.test(line) ? current : other).push(line);
      continue;
    }
    current = byProgram.get(program.name) ?? [];
    byProgram.set(program.name, current);
    current.push(`${program.file}:${program.line + Number(at[2]) - 1}:${at[3]}${line.slice(at[0].length)}`);
  }
  return { status: result.status, byProgram, other };
}

/** Runs one compiled program with node from the scratch project; never rejects. */
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

/** Every program run, a few at a time in order, by name. */
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

describe("the documentation's programs", () => {
  let compiled: Compiled | undefined;
  let runs = new Map<string, Promise<Run>>();

  before(
    () => {
      writeProject();
      // A program with type errors is still emitted, so each is run (and its own errors reported) on its own.
      compiled = compileAll();
      runs = runAll(
        programs.map((p) => p.name),
        Math.max(2, Math.min(4, availableParallelism())),
      );
    },
    { timeout: 120_000 },
  );

  test("its code blocks are found, each a program or marked as a fragment, and every example is found", (t) => {
    assert.ok(
      code.some((b) => b.page === "README.md"),
      "README.md has no ts/js block",
    );
    assert.ok(examplePrograms().length > 0, "examples/ has no program");
    const unmarked = blocks.filter((b) => /^(typescript|javascript|tsx|jsx|mjs|cjs)$/i.test(b.lang));
    assert.deepEqual(
      unmarked.map((b) => `${b.page}:${b.line} (${b.lang})`),
      [],
      "label code blocks ts or js, so that they are compiled and run",
    );
    const flags = code.flatMap((b) => b.flags.filter((f) => f !== FRAGMENT).map((f) => `${b.page}:${b.line} ${f}`));
    assert.deepEqual(flags, [], `the only flag a code block takes is "${FRAGMENT}"`);
    const shown = programs.filter((p) => p.output !== "").length;
    const pagesWithCode = new Set(code.map((b) => b.page)).size;
    t.diagnostic(
      `${code.length} ts/js blocks on ${pagesWithCode} pages and ${examplePrograms().length} examples: ` +
        `${programs.length} programs compiled with tsc --strict and run (${shown} compared with what they state ` +
        `they print, ${programs.length - shown} printing nothing), ${fragments.length} blocks marked as fragments`,
    );
  });

  test("no code line is wider than the repository's code", () => {
    const wide = programs.flatMap((p) =>
      p.text
        .split("\n")
        .map((line, i) => ({ line, at: p.line + i }))
        .filter(({ line }) => line.length > MAX_COLUMNS)
        .map(({ at, line }) => `${p.file}:${at} (${line.length} columns)`),
    );
    assert.deepEqual(wide, []);
  });

  test("its programs compile in one tsc --strict run", () => {
    assert.ok(compiled !== undefined);
    const all = [...compiled.other, ...[...compiled.byProgram.values()].flat()];
    assert.equal(compiled.status, 0, all.join("\n"));
  });

  for (const { name, title, output } of programs) {
    const what = output === "" ? "prints nothing" : "prints what the documentation shows";
    test(`${title} compiles, runs and ${what}`, async () => {
      assert.deepEqual(compiled?.byProgram.get(name) ?? [], [], "tsc --strict");
      const result = await runs.get(name);
      assert.ok(result !== undefined);
      assert.equal(result.signal, null, `killed by ${String(result.signal)} (limit: ${RUN_TIMEOUT_MS} ms)`);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, output);
    });
  }
});
