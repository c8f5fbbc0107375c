/**
 * The documentation holds together: every link between its pages leads to a page (and a heading) that exists, no
 * line points outside the repository, the README's map lists every page, and every place the code cites the
 * documentation — `docs/guide/pins.md "Reviewed updates"` (a page and, optionally, headings on it, each in quotes)
 * or `README "Quick start"` — names a page and headings that exist.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";
import { anchors, API_DIR, headings, links, markdownFiles, pages, resolveFrom, slug, type Page } from "./markdown.js";

/** The README stays a map: what it is, install, two quick starts, and links to the rest. */
const README_MAX_LINES = 400;

const all = pages();
const byPath = new Map(all.map((p) => [p.path, p]));

/** The page at `path` (a hand-written one, or one of the generated API reference read on demand). */
function pageAt(path: string): Page | undefined {
  const known = byPath.get(path);
  if (known !== undefined || !path.endsWith(".md") || !existsSync(join(repoRoot, path))) return known;
  return { path, text: readFileSync(join(repoRoot, path), "utf8") };
}

/** What is wrong with a link written on `page`, or undefined. Web addresses and `mailto:` are not checked. */
function linkProblem(page: Page, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? page.path : resolveFrom(page.path, decodeURIComponent(path));
  if (file === undefined) return "leads outside the repository";
  if (!existsSync(join(repoRoot, file))) return `${file} does not exist`;
  if (anchor === undefined) return undefined;
  if (file.startsWith(`${API_DIR}/`)) return "links to a heading of the generated API reference, which may move";
  const target_ = pageAt(file);
  if (target_ === undefined) return `${file} is not a Markdown page, so it has no #${anchor}`;
  return anchors(target_).has(anchor) ? undefined : `${file} has no heading whose anchor is #${anchor}`;
}

test("every link between pages leads to a page and a heading that exist", () => {
  const broken = all.flatMap((page) =>
    links(page)
      .map((link) => ({ link, problem: linkProblem(page, link.target) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ link, problem }) => `${page.path}:${link.line}: (${link.target}) ${problem}`),
  );
  assert.deepEqual(broken, []);
});

test("no line sends the reader outside the repository", () => {
  const outside = all.flatMap((page) =>
    page.text
      .split("\n")
      .map((line, i) => ({ line, at: i + 1 }))
      .filter(({ line }) =>
        [...line.matchAll(/(?:^|[\s`("'])((?:\.\.\/)+[^\s`)"']*)/g)].some(
          (m) => resolveFrom(page.path, m[1] as string) === undefined,
        ) || /\b(DESIGN|STYLE)\.md\b/.test(line),
      )
      .map(({ at, line }) => `${page.path}:${at}: ${line.trim()}`),
  );
  assert.deepEqual(outside, []);
});

test("every page has one title, and headings below it that step down one level at a time", () => {
  const problems = all.flatMap((page) => {
    const found = headings(page);
    const titles = found.filter((h) => h.level === 1);
    const out = titles.length === 1 && found[0]?.level === 1 ? [] : [`${page.path}: one "# " title, first`];
    found.forEach((h, i) => {
      const before = found[i - 1];
      if (before !== undefined && h.level > before.level + 1) out.push(`${page.path}:${h.line}: skips a level`);
    });
    return out;
  });
  assert.deepEqual(problems, []);
});

test("the README is a map: under 400 lines, and it links every page of docs/ and the API reference", () => {
  const readme = byPath.get("README.md");
  assert.ok(readme !== undefined);
  const lines = readme.text.split("\n").length - 1;
  assert.ok(lines < README_MAX_LINES, `README.md has ${lines} lines`);
  const linked = new Set(links(readme).map((l) => resolveFrom("README.md", l.target.split("#")[0] ?? "")));
  const unlisted = markdownFiles("docs", [API_DIR]).filter((path) => !linked.has(path));
  assert.deepEqual(unlisted, [], "pages missing from the README's map");
  assert.ok(
    [...linked].some((path) => path?.startsWith(`${API_DIR}/`)),
    "the map links the API reference",
  );
  const contents = links(readme).filter((l) => l.target.startsWith("#")).map((l) => l.target.slice(1));
  const sections = headings(readme).filter((h) => h.level === 2 && h.text !== "Contents");
  assert.deepEqual(
    sections.filter((h) => !contents.includes(slug(h.text))).map((h) => h.text),
    [],
    "sections missing from the README's contents",
  );
});

test("every program in examples/ is linked from a page of the documentation", () => {
  const linked = new Set(all.flatMap((page) => links(page).map((l) => resolveFrom(page.path, l.target.split("#")[0] ?? ""))));
  const orphans = readdirSync(join(repoRoot, "examples"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `examples/${f}`)
    .filter((f) => !linked.has(f));
  assert.deepEqual(orphans, []);
});

/** The files whose comments may cite the documentation. */
function citingFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mjs|cjs|js)$/.test(entry.name) || (dir.startsWith("fixtures") && entry.name.endsWith(".md")))
        found.push(path);
    }
  };
  for (const dir of ["src", "test", "scripts", "bench", "examples", "fixtures/catalogs", "fixtures/hostile"]) {
    if (existsSync(join(repoRoot, dir)) && statSync(join(repoRoot, dir)).isDirectory()) walk(dir);
  }
  return found;
}

/** A citation: the page, the headings quoted after it, and where it is. */
interface Citation {
  readonly file: string;
  readonly page: string;
  readonly headings: readonly string[];
}

/** The citations in a source file; comment continuations (`*`, `//`) between the parts of one are read through. */
function citations(file: string, text: string): Citation[] {
  const flat = text.replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, " ");
  const found: Citation[] = [];
  const quoted = /((?:,? "[^"]+")*)/.source;
  for (const m of flat.matchAll(new RegExp(`(?<![\\w/.-])(README|docs/[\\w./-]*\\w)(?:\\.md)?${quoted}`, "g"))) {
    const page = m[1] === "README" ? "README.md" : (m[1] as string);
    const headings = [...(m[2] ?? "").matchAll(/"([^"]+)"/g)].map((q) => q[1] as string);
    found.push({ file, page, headings });
  }
  return found;
}

test("every citation of the documentation in the code names a page and headings that exist", () => {
  const checked: Citation[] = [];
  const broken: string[] = [];
  for (const file of citingFiles()) {
    if (file === "test/docs/links.test.ts") continue;
    for (const c of citations(file, readFileSync(join(repoRoot, file), "utf8"))) {
      checked.push(c);
      const path = c.page.endsWith(".md") || c.page.endsWith("/") ? c.page : `${c.page}.md`;
      const page = pageAt(c.page) ?? pageAt(path);
      if (page === undefined) {
        if (!existsSync(join(repoRoot, c.page))) broken.push(`${c.file}: ${c.page} does not exist`);
        continue;
      }
      const texts = new Set(headings(page).map((h) => h.text));
      for (const h of c.headings) if (!texts.has(h)) broken.push(`${c.file}: ${page.path} has no heading "${h}"`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked.length > 50, `${checked.length} citations found`);
});

test("the library's source cites README sections only by name, and names sections the README has", () => {
  const loose: string[] = [];
  for (const file of citingFiles().filter((f) => f.startsWith("src/"))) {
    const text = readFileSync(join(repoRoot, file), "utf8").replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, " ");
    for (const m of text.matchAll(/(?<![\w/.-])README\b(?!\.md| ")/g)) loose.push(`${file}: ${text.slice(m.index, m.index + 60)}`);
  }
  assert.deepEqual(loose, [], 'cite a page and a heading: docs/guide/engine.md "Custom formats"');
});
