// Bundles the library for browsers (esbuild: ESM, platform browser, minified) to
// build/browser/backplane.min.js and prints its minified and gzipped sizes.
// Usage: node scripts/browser-bundle.mjs [outfile]
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = resolve(process.argv[2] ?? resolve(root, "build", "browser", "backplane.min.js"));
mkdirSync(dirname(outfile), { recursive: true });

const result = await build({
  entryPoints: [resolve(root, "src", "index.ts")],
  outfile,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

const code = readFileSync(outfile);
const gzipped = gzipSync(code, { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `${relative(process.cwd(), outfile)}: ${code.length} bytes minified (${kib(code.length)}), ${gzipped} bytes gzipped (${kib(gzipped)})`,
);

// The three largest inputs, so a size regression names its cause.
const inputs = Object.entries(result.metafile.outputs[relative(process.cwd(), outfile)]?.inputs ?? {})
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .slice(0, 3)
  .map(([name, info]) => `${name} ${info.bytesInOutput} B`);
if (inputs.length > 0) console.log(`largest inputs: ${inputs.join(", ")}`);
