// After tsc: the CommonJS face of the one ESM build (docs/reference/package.md). Node >= 20.19 can
// require() an ES module, so dist/cjs/ holds no second copy of the code: each entry is one line that
// require()s the ESM file, and `instanceof SchemaError` holds across import and require. dist/cjs/ is
// marked "type": "commonjs" so the copies of the declarations there read as CommonJS to TypeScript
// (module node16/nodenext in a CommonJS file) instead of TS1479 "cannot be imported with require".
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const dist = resolve(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const cjs = join(dist, "cjs");

/** Package entry (as in package.json "exports") → the ESM file its CommonJS twin require()s. */
const entries = new Map([
  ["index.js", "index.js"],
  ["adapters/mcp.js", "adapters/mcp.js"],
  ["vendor.js", "vendor/backplane-agent-runtime.js"],
]);

/** The CLI is a program, not an import entry: its declarations are not copied. */
const notImported = (path) => path === "cli";

function declarations(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const rel = relative(dist, path);
    if (path === cjs || notImported(rel)) return [];
    if (entry.isDirectory()) return declarations(path);
    return entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

rmSync(cjs, { recursive: true, force: true });
for (const rel of declarations(dist)) {
  mkdirSync(dirname(join(cjs, rel)), { recursive: true });
  copyFileSync(join(dist, rel), join(cjs, rel));
}
writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
for (const [entry, target] of entries) {
  const file = join(cjs, entry);
  const specifier = relative(dirname(file), join(dist, target)).split("\\").join("/");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `"use strict";\nmodule.exports = require("${specifier.startsWith(".") ? "" : "./"}${specifier}");\n`,
  );
}
