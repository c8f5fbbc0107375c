// Before `npm test`: when no copy of the official suite can be found (the order in test/suite/locate.ts),
// fetch it. When that fails (offline, no git), one line says what to do instead, and the exit status is 1.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const places = [
  process.env.JSON_SCHEMA_TEST_SUITE,
  join(root, "fixtures", "json-schema-test-suite"),
  join(root, "..", "shared", "json-schema-test-suite"),
]
  .filter((p) => p !== undefined && p !== "")
  .map((p) => resolve(p));

if (!places.some((p) => existsSync(join(p, "tests", "draft2020-12")))) {
  const fetched = spawnSync(process.execPath, [join(root, "scripts", "fetch-suite.mjs")], {
    cwd: root,
    encoding: "utf8",
  });
  if (fetched.status !== 0) {
    const commit = readFileSync(join(root, "COMMIT"), "utf8").trim();
    const why = (fetched.stderr ?? "").trim().split("\n").at(-1) || "fetching it failed";
    console.error(
      `no copy of the JSON-Schema-Test-Suite found, and ${why}: run "npm run suite:fetch" when online, ` +
        `or set JSON_SCHEMA_TEST_SUITE to a copy of it at ${commit}`,
    );
    process.exit(1);
  }
  process.stdout.write(fetched.stdout);
}
