// Clones the official JSON-Schema-Test-Suite at the commit pinned in COMMIT into the git-ignored
// fixtures/json-schema-test-suite/ (needs the network and git). Nothing from it is committed.
// On failure: one line on stderr, ending with git's own reason, and exit status 1.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const commit = readFileSync(join(root, "COMMIT"), "utf8").trim();
const target = join(root, "fixtures", "json-schema-test-suite");
const upstream =
  process.env.JSON_SCHEMA_TEST_SUITE_REPO ?? "https://github.com/json-schema-org/JSON-Schema-Test-Suite.git";

if (existsSync(join(target, "COMMIT")) && readFileSync(join(target, "COMMIT"), "utf8").trim() === commit) {
  console.log(`suite already at ${commit}`);
  process.exit(0);
}
rmSync(target, { recursive: true, force: true });
const git = (...args) => execFileSync("git", args, { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
try {
  git("init", "--quiet", target);
  git("-C", target, "remote", "add", "origin", upstream);
  git("-C", target, "fetch", "--quiet", "--depth", "1", "origin", commit);
  git("-C", target, "checkout", "--quiet", "FETCH_HEAD");
  writeFileSync(join(target, "COMMIT"), commit + "\n");
  console.log(`fetched the suite at ${commit} into fixtures/json-schema-test-suite`);
} catch (error) {
  rmSync(target, { recursive: true, force: true });
  // git's first "fatal:" line names the cause; what follows it is advice.
  const lines = String(error.stderr ?? "").split("\n");
  const reason = lines.find((l) => l.startsWith("fatal: ")) ?? lines.find((l) => l.trim() !== "") ?? error.message;
  console.error(`could not fetch the suite from ${upstream} (${reason})`);
  process.exit(1);
}
