// docs/reference/errors.md "Every code", written from the codes the library declares (src/runtime/errors/codes.ts
// and src/engine/error-codes.ts, as built in dist/): one table per layer, in the order data flows. The section
// between the markers is this script's; test/docs/figures.test.ts fails when it differs from what the code says.
// Usage: node scripts/error-reference.mjs [--write]   (prints the section, or writes it into the page)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const page = join(root, "docs", "reference", "errors.md");
const START = "<!-- every-code:start (written by scripts/error-reference.mjs from src/runtime/errors/codes.ts) -->";
const END = "<!-- every-code:end -->";

/** The section as the code declares it. */
export async function everyCode() {
  const { ERROR_LAYERS } = await import(pathToFileURL(join(root, "dist", "runtime", "errors", "codes.js")).href);
  const parts = [];
  for (const layer of ERROR_LAYERS) {
    parts.push(`### ${layer.title} (${layer.shapes.map((shape) => `\`${shape}\``).join(", ")})`);
    if (layer.intro !== "") parts.push(wrap(layer.intro));
    const rows = ["| code | class | stage | when |", "|---|---|---|---|"];
    for (const [code, info] of Object.entries(layer.codes)) {
      rows.push(`| \`${code}\` | ${info.class} | ${info.stage} | ${info.when} |`);
    }
    parts.push(rows.join("\n"));
  }
  return parts.join("\n\n");
}

/** Prose wrapped at 120 columns, as the pages are. */
function wrap(text) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 120) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

/** The page with the section between its markers replaced by `section`. */
export function withSection(text, section) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end < start) throw new Error(`${page} has no "${START}" … "${END}" markers`);
  return `${text.slice(0, start + START.length)}\n\n${section}\n\n${text.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const section = await everyCode();
  if (process.argv.includes("--write")) {
    const text = readFileSync(page, "utf8");
    const changed = withSection(text, section);
    writeFileSync(page, changed);
    console.log(`docs/reference/errors.md: ${changed === text ? "already up to date" : "Every code written"}`);
  } else {
    console.log(section);
  }
}
