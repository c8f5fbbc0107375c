// The official JSON-Schema-Test-Suite format tests (draft2020-12/optional/format), run against the
// checkers directly: non-strings and unknown formats are valid, strings are valid iff the checker says so.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { formatCheckers } from "../../../src/vocabularies/format/index.js";

interface SuiteTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

interface SuiteGroup {
  readonly description: string;
  readonly schema: Record<string, unknown>;
  readonly tests: readonly SuiteTest[];
}

function suiteRoot(): string {
  const fromEnv = process.env["JSON_SCHEMA_TEST_SUITE"];
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  const fixture = resolve(process.cwd(), "fixtures", "json-schema-test-suite");
  if (existsSync(join(fixture, "tests"))) return fixture;
  return resolve(process.cwd(), "..", "shared", "json-schema-test-suite");
}

/** The format name of a schema that is exactly { "$schema"?, "format": NAME }, else undefined. */
function formatOnly(schema: Record<string, unknown>): string | undefined {
  const keys = Object.keys(schema).filter((key) => key !== "$schema");
  const format = schema["format"];
  return keys.length === 1 && typeof format === "string" ? format : undefined;
}

const directory = join(suiteRoot(), "tests", "draft2020-12", "optional", "format");
if (!existsSync(directory)) throw new Error(`JSON-Schema-Test-Suite format tests not found at ${directory}`);
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".json"))
  .sort();
if (files.length === 0) throw new Error(`no format test files in ${directory}`);

for (const file of files) {
  const groups = JSON.parse(readFileSync(join(directory, file), "utf8")) as SuiteGroup[];
  describe(file, () => {
    for (const group of groups) {
      const format = formatOnly(group.schema);
      if (format === undefined) continue;
      const check = formatCheckers.get(format)?.check;
      describe(group.description, () => {
        for (const t of group.tests) {
          test(t.description, () => {
            const valid = typeof t.data !== "string" || check === undefined || check(t.data);
            assert.equal(valid, t.valid);
          });
        }
      });
    }
  });
}
