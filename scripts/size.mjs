// `npm run size`: the sizes docs/project/performance.md "Sizes" quotes. The browser bundle (esbuild: ESM, platform
// browser, minified, as test/browser bundles it) is written to build/browser/backplane.min.js; the vendored file is
// the one `npm run build` wrote to dist/vendor/. Usage: node scripts/size.mjs [browser-outfile]
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = resolve(process.argv[2] ?? join(root, "build", "browser", "backplane.min.js"));
const vendored = join(root, "dist", "vendor", "backplane-agent-runtime.js");
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

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const report = (file, kind) => {
  const code = readFileSync(file);
  const gzipped = gzipSync(code, { level: 9 }).length;
  console.log(
    `${relative(process.cwd(), file)}: ${code.length} bytes ${kind} (${kib(code.length)}), ${gzipped} bytes gzipped (${kib(gzipped)})`,
  );
};

report(outfile, "minified");
// The three largest inputs, so a size regression names its cause.
const inputs = Object.entries(result.metafile.outputs[relative(process.cwd(), outfile)]?.inputs ?? {})
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .slice(0, 3)
  .map(([name, info]) => `${name} ${info.bytesInOutput} B`);
if (inputs.length > 0) console.log(`largest inputs: ${inputs.join(", ")}`);

if (!existsSync(vendored)) {
  console.error(`${relative(process.cwd(), vendored)} is missing: run npm run build first`);
  process.exit(1);
}
report(vendored, "vendored, not minified, licences included");
