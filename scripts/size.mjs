// `npm run size`: the sizes docs/project/performance.md "Sizes" quotes. The browser bundle (esbuild: ESM, platform
// browser, minified, as test/browser bundles it) is written to build/browser/backplane.min.js; the vendored file is
// the one `npm run build` wrote to dist/vendor/. test/docs/figures.test.ts compares the page with what this measures.
// Usage: node scripts/size.mjs [--json | --write] [browser-outfile]
//   --json   prints the sizes as JSON (what the test reads)
//   --write  rewrites the two rows of the page's table with the sizes measured now
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const json = args.includes("--json");
const write = args.includes("--write");
const outfile = resolve(args.find((a) => !a.startsWith("--")) ?? join(root, "build", "browser", "backplane.min.js"));
const vendored = join(root, "dist", "vendor", "backplane-agent-runtime.js");
const page = join(root, "docs", "project", "performance.md");
mkdirSync(dirname(outfile), { recursive: true });

const result = await build({
  entryPoints: [join(root, "src", "index.ts")],
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

if (!existsSync(vendored)) {
  console.error(`${relative(process.cwd(), vendored)} is missing: run npm run build first`);
  process.exit(1);
}
const measure = (file) => {
  const code = readFileSync(file);
  return { bytes: code.length, gzipped: gzipSync(code, { level: 9 }).length };
};
const sizes = { browser: measure(outfile), vendored: measure(vendored) };

/** How the page's table writes a size: `147,845 bytes (47,744 gzipped)`. */
const cell = ({ bytes, gzipped }) =>
  `${bytes.toLocaleString("en-US")} bytes (${gzipped.toLocaleString("en-US")} gzipped)`;

if (json) {
  console.log(JSON.stringify(sizes));
} else if (write) {
  const text = readFileSync(page, "utf8");
  const rows = { "the browser bundle": sizes.browser, "`dist/vendor/backplane-agent-runtime.js`": sizes.vendored };
  let changed = text;
  for (const [start, size] of Object.entries(rows)) {
    changed = changed.replace(
      new RegExp(
        `^(\\| ${start.replace(/[.*+?^${}()|[\]\\`]/g, "\\$&")}.*\\| )[0-9,]+ bytes \\([0-9,]+ gzipped\\) \\|$`,
        "m",
      ),
      `$1${cell(size)} |`,
    );
  }
  writeFileSync(page, changed);
  console.log(`${relative(process.cwd(), page)}: ${changed === text ? "already up to date" : "sizes written"}`);
} else {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const report = (file, kind, { bytes, gzipped }) =>
    console.log(
      `${relative(process.cwd(), file)}: ${bytes} bytes ${kind} (${kib(bytes)}), ${gzipped} bytes gzipped (${kib(gzipped)})`,
    );
  report(outfile, "minified", sizes.browser);
  // The three largest inputs, so a size regression names its cause.
  const inputs = Object.entries(result.metafile.outputs[relative(process.cwd(), outfile)]?.inputs ?? {})
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 3)
    .map(([name, info]) => `${name} ${info.bytesInOutput} B`);
  if (inputs.length > 0) console.log(`largest inputs: ${inputs.join(", ")}`);
  report(vendored, "vendored, not minified, licences included", sizes.vendored);
}
