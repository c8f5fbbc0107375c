// Regenerates src/vocabularies/metaschemas-2020-12.ts from the 2020-12 meta-schemas
// (../shared/spec/draft2020-12): they are embedded as data so nothing is read or fetched at run time.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "../shared/spec/draft2020-12";
const docs = [JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"))];
for (const f of readdirSync(join(dir, "meta")).sort()) docs.push(JSON.parse(readFileSync(join(dir, "meta", f), "utf8")));
const commit = readFileSync(join(dir, "COMMIT"), "utf8").trim();
const body = docs.map((d) => "  " + JSON.stringify(d) + ",").join("\n");
writeFileSync(
  "src/vocabularies/metaschemas-2020-12.ts",
  `/** The 2020-12 meta-schemas as data (json-schema-org/json-schema-spec ${commit}); regenerate with scripts/embed-metaschemas.mjs. */\n` +
    `export const metaSchemas2020_12: readonly unknown[] = [\n${body}\n];\n`,
);
console.log(`embedded ${docs.length} meta-schemas`);
