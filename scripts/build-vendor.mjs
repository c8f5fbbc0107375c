// The vendorable build (docs/reference/package.md): the package entry and its runtime dependency (punycode)
// in one ES module, dist/vendor/backplane-agent-runtime.js, for hosts that copy the engine into their tree.
// Not minified, so a vendored copy can be reviewed and diffed; the licences of everything inlined open
// the file. Usage: node scripts/build-vendor.mjs [outfile]
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = resolve(process.argv[2] ?? join(root, "dist", "vendor", "backplane-agent-runtime.js"));

const read = (...path) => readFileSync(join(root, ...path), "utf8");
const version = (...path) => JSON.parse(read(...path, "package.json")).version;

/** Every bundled package with its licence text; a dependency added to the bundle must be added here. */
const licences = [
  ["backplane-agent-runtime", version(), read("LICENSE")],
  ["punycode", version("node_modules", "punycode"), read("node_modules", "punycode", "LICENSE-MIT.txt")],
];
const bundled = new Set(licences.map(([name]) => name));

const banner = [
  "/*!",
  ` * backplane-agent-runtime ${version()}, single-file ES module build with its dependencies inlined.`,
  ...licences.flatMap(([name, v, text]) => [
    " *",
    ` * ${name} ${v}`,
    ...text
      .trim()
      .split("\n")
      .map((line) => ` * ${line}`.trimEnd()),
  ]),
  " */",
].join("\n");

const result = await build({
  entryPoints: [join(root, "src", "index.ts")],
  outfile,
  bundle: true,
  format: "esm",
  // Nothing Node-only: the same file runs in Node, browsers, Deno and edge workers.
  platform: "neutral",
  target: "es2022",
  minify: false,
  charset: "ascii",
  legalComments: "none",
  banner: { js: banner },
  metafile: true,
  logLevel: "warning",
});

// A dependency that slipped into the bundle without its licence in the banner fails the build.
const packages = new Set(
  Object.keys(result.metafile.inputs)
    .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
    .filter((name) => name !== undefined),
);
const unlicensed = [...packages].filter((name) => !bundled.has(name));
if (unlicensed.length > 0) {
  console.error(`build-vendor: bundled without a licence in the banner: ${unlicensed.join(", ")}`);
  process.exit(1);
}
