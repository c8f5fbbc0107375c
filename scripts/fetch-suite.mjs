// Clones the official JSON-Schema-Test-Suite at the commit pinned in COMMIT into the git-ignored
// fixtures/json-schema-test-suite/ (needs the network and git). Nothing from it is committed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const commit = readFileSync("COMMIT", "utf8").trim();
const target = "fixtures/json-schema-test-suite";
const upstream =
  process.env.JSON_SCHEMA_TEST_SUITE_REPO ?? "https://github.com/json-schema-org/JSON-Schema-Test-Suite.git";

if (existsSync(`${target}/COMMIT`) && readFileSync(`${target}/COMMIT`, "utf8").trim() === commit) {
  console.log(`suite already at ${commit}`);
  process.exit(0);
}
rmSync(target, { recursive: true, force: true });
const git = (...args) => execFileSync("git", args, { stdio: "inherit" });
try {
  git("init", "--quiet", target);
  git("-C", target, "remote", "add", "origin", upstream);
  git("-C", target, "fetch", "--quiet", "--depth", "1", "origin", commit);
  git("-C", target, "checkout", "--quiet", "FETCH_HEAD");
  writeFileSync(`${target}/COMMIT`, commit + "\n");
  console.log(`fetched the suite at ${commit} into ${target}`);
} catch {
  rmSync(target, { recursive: true, force: true });
  console.error(`could not fetch the suite at ${commit} from ${upstream}`);
  process.exit(1);
}
