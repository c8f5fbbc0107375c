/**
 * The package as a user gets it (docs/reference/package.md): `npm pack` in a fresh clone (the
 * repository's files without dist/, so `prepack` has to build), the tarball's file list, and the tarball
 * installed offline into a scratch consumer project that imports it (ESM), require()s it (CommonJS) and
 * compiles against it with TypeScript (module node16 from ESM and from CommonJS, bundler, commonjs;
 * declarations checked), then runs what each produced. Every consumer prints the same probe, compared
 * with the probe computed here from the sources. One more strict TypeScript consumer uses the extension points
 * (formats, a host vocabulary, strictSchema, typed results, messages) and must print exactly what is expected.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { before, test } from "node:test";
import * as mcpSource from "../../src/adapters/mcp.js";
import * as source from "../../src/index.js";
import { repoRoot } from "../suite/locate.js";
import { FEATURE_CONSUMER, FEATURE_LINES } from "./feature-consumer.js";
import { linkNodeModules, run, scratchDir } from "./scratch.js";

const NAME = "backplane-agent-runtime";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");

interface Probe {
  valid: boolean;
  invalid: boolean;
  refused: string;
  mcp: string[];
  vendored: boolean;
}

/** What every consumer prints, computed from the sources. */
function expectedProbe(): Probe {
  let refused = "compiled";
  try {
    source.compile({ type: 12 });
  } catch (e) {
    if (e instanceof source.SchemaError) refused = e.class;
  }
  return {
    valid: true,
    invalid: false,
    refused,
    mcp: Object.keys(mcpSource).sort(),
    vendored: source.compile({ minimum: 2 }).isValid(1),
  };
}

/** The probe's body, given `root`, `mcp` and `vendor` bound to the three entry points. */
const PROBE = `
let refused = "compiled";
try {
  root.compile({ type: 12 });
} catch (e) {
  if (e instanceof root.SchemaError) refused = e.class;
}
const validator = root.compile({ type: "string" });
const probe = {
  valid: validator.isValid("x"),
  invalid: validator.isValid(1),
  refused,
  mcp: Object.keys(mcp).filter((k) => k !== "default").sort(),
  vendored: vendor.compile({ minimum: 2 }).isValid(1),
};
`;

const ESM_CONSUMER = `import * as root from "${NAME}";
import * as mcp from "${NAME}/mcp";
import * as vendor from "${NAME}/vendor";
${PROBE}
console.log(JSON.stringify(probe));
`;

const CJS_CONSUMER = `"use strict";
const root = require("${NAME}");
const mcp = require("${NAME}/mcp");
const vendor = require("${NAME}/vendor");
${PROBE}
// import() and require() must hand out the same module: one SchemaError class, no dual-package hazard.
import("${NAME}").then((imported) => {
  probe.sameModuleAsImport = imported.SchemaError === root.SchemaError && imported.compile === root.compile;
  console.log(JSON.stringify(probe));
});
`;

/** Typed use of all three entries; the expect-error proves the declarations were found, not `any`. */
const TS_CONSUMER = `import * as root from "${NAME}";
import { compile, SchemaError, type Validator } from "${NAME}";
import * as mcp from "${NAME}/mcp";
import * as vendor from "${NAME}/vendor";

const typed: Validator = compile({ type: "string" });
// @ts-expect-error: the options are typed, so a misspelt option does not compile (nor run: it throws)
const misspelt = () => compile({}, { formatAsertion: true });
const error: SchemaError | undefined = undefined;
void [typed, error, misspelt];
declare const console: { log(line: string): void };
${PROBE}
console.log(JSON.stringify(probe));
`;

/** Consumer settings: package.json "type" and the compiler options that differ. */
const TYPESCRIPT_SETTINGS: [string, "module" | "commonjs", Record<string, string>][] = [
  ["module node16, from an ES module", "module", { module: "node16", moduleResolution: "node16" }],
  ["module node16, from a CommonJS module", "commonjs", { module: "node16", moduleResolution: "node16" }],
  ["moduleResolution bundler", "module", { module: "esnext", moduleResolution: "bundler" }],
  ["module commonjs", "commonjs", { module: "commonjs" }],
];

const root = scratchDir("package");
const consumer = join(root, "consumer");
let packed: { tarball: string; files: string[]; manifest: Record<string, unknown> };

/** The files a fresh clone has: tracked and untracked-but-not-ignored, as they are in the working tree. */
function cloneFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return listed.split("\0").filter((path) => path !== "" && existsSync(join(repoRoot, path)));
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function parseProbe(output: string): Record<string, unknown> {
  return JSON.parse(output.trim()) as Record<string, unknown>;
}

before(
  () => {
    const clone = join(root, "clone");
    for (const path of cloneFiles()) cpSync(join(repoRoot, path), join(clone, path));
    linkNodeModules(clone);
    assert.ok(!existsSync(join(clone, "dist")), "the clone starts without dist/");
    // With lifecycle scripts, as `npm publish` runs it: prepack builds dist/.
    const pack = run(npm, ["pack", "--json", "--pack-destination", root], { cwd: clone, timeout: 300_000 });
    assert.equal(pack.status, 0, pack.stderr);
    const [result] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
      filename: string;
      files: { path: string }[];
    }[];
    const manifest = JSON.parse(readFileSync(join(clone, "package.json"), "utf8")) as Record<string, unknown>;
    packed = { tarball: join(root, result!.filename), files: result!.files.map((f) => f.path).sort(), manifest };

    // The runtime dependencies come from this repository's node_modules (installed by `npm ci` at the
    // pinned versions), packed to tarballs, so the install needs no registry.
    const deps = join(root, "deps");
    mkdirSync(deps);
    const pinned = Object.entries(manifest["dependencies"] as Record<string, string>);
    const depsPack = run(
      npm,
      ["pack", "--json", "--ignore-scripts", "--pack-destination", deps, ...pinned.map(([n]) => `./node_modules/${n}`)],
      { cwd: repoRoot },
    );
    assert.equal(depsPack.status, 0, depsPack.stderr);
    const depTarballs = JSON.parse(depsPack.stdout) as { name: string; version: string; filename: string }[];
    assert.deepEqual(
      depTarballs.map((d) => [d.name, d.version]),
      pinned,
      "node_modules holds the pinned versions",
    );
    const tarballs = [packed.tarball, ...depTarballs.map((d) => join(deps, d.filename))];
    writeFiles(consumer, { "package.json": JSON.stringify({ name: "consumer", private: true }) });
    const install = run(npm, ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], {
      cwd: consumer,
    });
    assert.equal(install.status, 0, install.stderr);
  },
  { timeout: 600_000 },
);

test("npm pack in a fresh clone builds dist/ and ships it, without the demo, with the vendored file", () => {
  const { files, manifest } = packed;
  const allowed = /^(dist\/.+\.(js|d\.ts)|dist\/cjs\/package\.json|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
  assert.deepEqual(
    files.filter((f) => !allowed.test(f)),
    [],
  );
  assert.ok(!files.some((f) => f.startsWith("dist/main.")), "the demo (dist/main.*) is not part of the package");
  for (const required of [
    "dist/index.js",
    "dist/index.d.ts",
    "dist/cjs/index.js",
    "dist/cjs/index.d.ts",
    "dist/cjs/package.json",
    "dist/vendor/backplane-agent-runtime.js",
    "README.md",
    "LICENSE",
  ]) {
    assert.ok(files.includes(required), required);
  }
  // Every file package.json points at is in the tarball.
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") targets.push(value.replace(/^\.\//, ""));
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
  };
  for (const field of ["main", "types", "bin", "exports", "typesVersions"]) collect(manifest[field]);
  assert.ok(targets.length > 10);
  assert.deepEqual(
    targets.filter((t) => !files.includes(t)),
    [],
  );
});

test("an ES module consumer imports all three entry points", () => {
  writeFiles(consumer, { "esm.mjs": ESM_CONSUMER });
  const result = run(process.execPath, ["esm.mjs"], { cwd: consumer });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(parseProbe(result.stdout), expectedProbe());
});

test("a CommonJS consumer require()s all three entry points, with no warning, and shares import()'s module", () => {
  writeFiles(consumer, { "cjs.cjs": CJS_CONSUMER });
  const result = run(process.execPath, ["cjs.cjs"], { cwd: consumer });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, "");
  assert.deepEqual(parseProbe(result.stdout), { ...expectedProbe(), sameModuleAsImport: true });
});

/** Compiles `text` as `index.ts` of a scratch project with `strict` (declarations checked), then runs it. */
function compileAndRun(
  name: string,
  type: "module" | "commonjs",
  options: Record<string, string>,
  text: string,
): string {
  const dir = join(consumer, name.replace(/\W+/g, "-"));
  const compilerOptions = {
    ...options,
    target: "ES2022",
    lib: ["ES2022"],
    types: [],
    strict: true,
    skipLibCheck: false,
    outDir: "out",
  };
  writeFiles(dir, {
    "package.json": JSON.stringify({ type }),
    "tsconfig.json": JSON.stringify({ compilerOptions, files: ["index.ts"] }),
    "index.ts": text,
  });
  const compiled = run(process.execPath, [tsc, "-p", "."], { cwd: dir });
  assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
  const result = run(process.execPath, [join("out", "index.js")], { cwd: dir });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

for (const [name, type, options] of TYPESCRIPT_SETTINGS) {
  test(`a TypeScript consumer with ${name} type-checks against the declarations and runs`, () => {
    assert.deepEqual(parseProbe(compileAndRun(name, type, options, TS_CONSUMER)), expectedProbe());
  });
}

test("a strict TypeScript consumer uses formats, a vocabulary, strictSchema, typed results and messages", () => {
  const node16 = { module: "node16", moduleResolution: "node16" };
  const output = compileAndRun("features", "module", node16, FEATURE_CONSUMER);
  assert.deepEqual(output.trimEnd().split("\n"), FEATURE_LINES);
});
