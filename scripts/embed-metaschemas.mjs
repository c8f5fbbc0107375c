// Regenerates src/vocabularies/metaschemas-2020-12.ts from a directory holding the 2020-12 meta-schemas
// (schema.json, meta/*.json and COMMIT, as in the json-schema-org/json-schema-spec repository): they are
// embedded as data so nothing is read or fetched at run time. Long strings are split so no line passes 120 columns.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (dir === undefined) {
  console.error("usage: node scripts/embed-metaschemas.mjs <dir with schema.json, meta/ and COMMIT>");
  process.exit(2);
}
const docs = [JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"))];
for (const f of readdirSync(join(dir, "meta")).sort())
  docs.push(JSON.parse(readFileSync(join(dir, "meta", f), "utf8")));
const commit = readFileSync(join(dir, "COMMIT"), "utf8").trim();

const WIDTH = 120;

/** A JSON string literal, split into `+`-joined pieces when it would pass the width at this indent. */
function stringLiteral(s, indent, lead) {
  const whole = JSON.stringify(s);
  if (indent.length + lead + whole.length + 2 <= WIDTH) return whole;
  const room = WIDTH - indent.length - lead - 8;
  const pieces = [];
  let piece = "";
  for (const ch of s) {
    if (JSON.stringify(piece + ch).length > room) {
      pieces.push(JSON.stringify(piece));
      piece = "";
    }
    piece += ch;
  }
  pieces.push(JSON.stringify(piece));
  return pieces.join(` +\n${indent}  `);
}

/** `lead`: characters already on the value's first line after the indent (an object key). */
function render(value, indent, lead = 0) {
  if (typeof value === "string") return stringLiteral(value, indent, lead);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  const flat = JSON.stringify(value);
  if (indent.length + lead + flat.length + 2 <= WIDTH) return flat;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + render(v, inner)).join(",\n")},\n${indent}]`;
  const entries = Object.keys(value).map((k) => {
    const key = `${JSON.stringify(k)}: `;
    return inner + key + render(value[k], inner, key.length);
  });
  return `{\n${entries.join(",\n")},\n${indent}}`;
}

writeFileSync(
  "src/vocabularies/metaschemas-2020-12.ts",
  `/**\n * The 2020-12 meta-schemas as data (json-schema-org/json-schema-spec ${commit});\n` +
    ` * regenerate with scripts/embed-metaschemas.mjs.\n */\n` +
    `export const metaSchemas2020_12: readonly unknown[] = [\n${docs.map((d) => "  " + render(d, "  ")).join(",\n")},\n];\n`,
);
console.log(`embedded ${docs.length} meta-schemas`);
