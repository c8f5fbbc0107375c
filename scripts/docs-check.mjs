// `npm run docs:check` (CI): TypeDoc over the package entry points with warnings as errors (an undocumented export,
// a broken {@link} or a public type that refers to one the reference leaves out fails), written to a scratch
// directory and compared file by file with the committed docs/api/: any difference means the API reference no
// longer says what the code does, and the check fails saying to run `npm run docs`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const committed = join(root, "docs", "api");
const typedoc = join(root, "node_modules", "typedoc", "bin", "typedoc");

/** Every file below `dir`, as paths relative to it, sorted. */
function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

const scratch = mkdtempSync(join(tmpdir(), "backplane-api-"));
try {
  const run = spawnSync(process.execPath, [typedoc, "--treatWarningsAsErrors", "--out", scratch], {
    cwd: root,
    stdio: "inherit",
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const fresh = files(scratch);
  const kept = files(committed);
  const differ = [
    ...fresh.filter((f) => !kept.includes(f)).map((f) => `${f} (missing)`),
    ...kept.filter((f) => !fresh.includes(f)).map((f) => `${f} (no longer generated)`),
    ...fresh
      .filter((f) => kept.includes(f))
      .filter((f) => readFileSync(join(scratch, f), "utf8") !== readFileSync(join(committed, f), "utf8"))
      .map((f) => `${f} (changed)`),
  ];
  if (differ.length > 0) {
    console.error(`docs/api/ is stale: ${differ.length} file(s) differ from what the doc comments generate now:`);
    for (const line of differ.slice(0, 10)) console.error(`  docs/api/${line}`);
    if (differ.length > 10) console.error(`  … and ${differ.length - 10} more`);
    console.error("Run `npm run docs` and commit docs/api/.");
    process.exit(1);
  }
  console.log(`docs/api/ is up to date (${fresh.length} files)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
