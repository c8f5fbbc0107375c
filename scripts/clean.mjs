// Removes output directories, given relative to the repository root, before they are rebuilt: tsc only
// adds to its outDir, so the output of a deleted or renamed source (a test included) would linger and run.
// Usage: node scripts/clean.mjs dir...
import { rmSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
for (const dir of process.argv.slice(2)) {
  const target = resolve(root, dir);
  const inside = relative(root, target);
  if (inside === "" || inside.startsWith("..")) throw new Error(`clean: ${dir} is not below the repository root`);
  rmSync(target, { recursive: true, force: true });
}
