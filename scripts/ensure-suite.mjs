// Before `npm test`: when no copy of the official suite can be found (the order in test/suite/locate.ts), fetch it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

const places = [
  process.env.JSON_SCHEMA_TEST_SUITE,
  "fixtures/json-schema-test-suite",
  "../shared/json-schema-test-suite",
]
  .filter((p) => p !== undefined && p !== "")
  .map((p) => resolve(p));
if (!places.some((p) => existsSync(resolve(p, "tests", "draft2020-12")))) {
  console.log("no copy of the JSON-Schema-Test-Suite found; fetching it");
  execFileSync(process.execPath, ["scripts/fetch-suite.mjs"], { stdio: "inherit" });
}
