/**
 * The documentation as the tests read it: the hand-written Markdown pages (`README.md` and `docs/**` but the
 * generated API reference in `docs/api/`), their fenced blocks, headings, anchors and links, and the programs in
 * `examples/`. Parsing is line based and knows only what the pages use: fences of three backticks (a heading inside a
 * fence is not a heading), ATX headings, and inline links `[text](target)`.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "../suite/locate.js";

/** The generated API reference: TypeDoc's output, checked by `npm run docs:check`, not by these tests. */
export const API_DIR = "docs/api";

/** A Markdown page: its path from the repository root (`docs/guide/engine.md`) and its text. */
export interface Page {
  readonly path: string;
  readonly text: string;
}

/** A fenced block: its language, the rest of its info string, its text and where it is. */
export interface Block {
  /** The info string's first word (`ts`, `text`, `sh`, …). */
  readonly lang: string;
  /** The info string's other words (`fragment`). */
  readonly flags: readonly string[];
  /** The lines between the fences, each ending with a newline. */
  readonly text: string;
  /** The page the block is on. */
  readonly page: string;
  /** The page line of the first line inside the block (1-based). */
  readonly line: number;
  /** The heading the block is under. */
  readonly section: string;
  /** Whether only blank lines separate it from the block before it. */
  readonly adjacent: boolean;
}

/** A heading: its text as written (`Results: \`OutputSchema\``), its level and its line. */
export interface Heading {
  readonly text: string;
  readonly level: number;
  readonly line: number;
}

/** A link `[text](target)` outside fenced blocks and code spans: its target as written and its line. */
export interface Link {
  readonly target: string;
  readonly line: number;
}

/** Every Markdown file below `dir` (a path from the repository root), sorted, skipping `skip`. */
export function markdownFiles(dir: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(join(repoRoot, at), { withFileTypes: true })) {
      const path = `${at}/${entry.name}`;
      if (skip.includes(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

/** The hand-written pages: `README.md`, then every page of `docs/` but the generated API reference. */
export function pages(): Page[] {
  return ["README.md", ...markdownFiles("docs", [API_DIR])].map((path) => ({
    path,
    text: readFileSync(join(repoRoot, path), "utf8"),
  }));
}

/** The page's lines, each with whether it is inside a fenced block (the fences themselves count as inside). */
function linesOf(page: Page): { line: string; at: number; fenced: boolean }[] {
  let fenced = false;
  return page.text.split("\n").map((line, i) => {
    const fence = line.startsWith("```");
    if (fence) fenced = !fenced;
    return { line, at: i + 1, fenced: fenced || fence };
  });
}

/** The page's fenced blocks, in order; an unclosed fence is an error. */
export function fencedBlocks(page: Page): Block[] {
  const blocks: Block[] = [];
  let section = "";
  let adjacent = false;
  let fence: { lang: string; flags: string[]; line: number; lines: string[] } | undefined;
  page.text.split("\n").forEach((line, i) => {
    if (fence !== undefined) {
      if (line.startsWith("```")) {
        const text = fence.lines.map((l) => l + "\n").join("");
        blocks.push({ lang: fence.lang, flags: fence.flags, text, page: page.path, line: fence.line, section, adjacent });
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
  if (fence !== undefined) throw new Error(`${page.path} ends inside a fenced block`);
  return blocks;
}

/** The page's headings, outside fenced blocks. */
export function headings(page: Page): Heading[] {
  const found: Heading[] = [];
  for (const { line, at, fenced } of linesOf(page)) {
    const hashes = /^(#{1,6}) /.exec(line);
    if (!fenced && hashes !== null) {
      found.push({ text: line.slice(hashes[0].length).trim(), level: (hashes[1] as string).length, line: at });
    }
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a page has: one per heading, a repeated one suffixed `-1`, `-2`, … as GitHub does. */
export function anchors(page: Page): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of headings(page)) {
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The page's links, outside fenced blocks and code spans. */
export function links(page: Page): Link[] {
  const found: Link[] = [];
  for (const { line, at, fenced } of linesOf(page)) {
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, (span) => " ".repeat(span.length));
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) found.push({ target: m[1] as string, line: at });
  }
  return found;
}

/** A path from the repository root for `target` written on `page`, or undefined when it leaves the repository. */
export function resolveFrom(page: string, target: string): string | undefined {
  const parts = page.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/** A path relative to the repository root, with forward slashes. */
export function fromRoot(path: string): string {
  return relative(repoRoot, path).split("\\").join("/");
}
