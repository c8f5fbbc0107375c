/**
 * Where it plugs in (docs/guide/integrations.md): the MCP SDK's `jsonSchemaValidator` provider (draft-07 schemas as
 * SDK 1.x servers publish them), a compiled validator used as a Standard Schema, and the `backplane-schema` CLI run on
 * files, as a CI job would run it.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compile } from "backplane-agent-runtime";
import { BackplaneJsonSchemaValidator } from "backplane-agent-runtime/mcp";

// The provider an MCP client or server is given: one validator per schema, never throwing.
const provider = new BackplaneJsonSchemaValidator(); // draft07: "upgrade" by default
const published = {
  $schema: "http://json-schema.org/draft-07/schema#", // what an SDK 1.x McpServer publishes
  type: "object",
  properties: { temperature: { type: "number" } },
  required: ["temperature"],
};
const check = provider.getValidator<{ temperature: number }>(published);
console.log(check({ temperature: 21.5 }).valid, check({ temperature: "warm" }).errorMessage);

// Every compiled validator is a Standard Schema (v1), for libraries that accept one.
const city = compile<string>({ type: "string", minLength: 2 });
console.log(city["~standard"].vendor, city["~standard"].validate("Oslo"), city["~standard"].validate("O"));

// The CLI: validate instance files against a schema file; exit 0 when all are valid, 1 when one is not.
const root = dirname(createRequire(import.meta.url).resolve("backplane-agent-runtime/package.json"));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
const dir = mkdtempSync(join(tmpdir(), "cli-"));
try {
  writeFileSync(join(dir, "person.json"), JSON.stringify({ type: "object", properties: { age: { minimum: 0 } } }));
  writeFileSync(join(dir, "ada.json"), JSON.stringify({ age: 36 }));
  writeFileSync(join(dir, "bad.json"), JSON.stringify({ age: -1 }));
  const cli = join(root, manifest.bin["backplane-schema"] ?? "");
  const run = spawnSync(process.execPath, [cli, "validate", "person.json", "ada.json", "bad.json"], {
    cwd: dir,
    encoding: "utf8",
  });
  console.log(`exit ${run.status}\n${run.stdout.trimEnd()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Output:
// true /temperature: must be number (expected by "type" at /properties/temperature/type)
// backplane-agent-runtime { value: 'Oslo' } {
//   issues: [
//     { message: 'must be at least 2 characters long, got 1', path: [] }
//   ]
// }
// exit 1
// bad.json: invalid
//   /age: must be at least 0, got -1 (at /properties/age/minimum)
