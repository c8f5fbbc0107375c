// Loading of the reference data the workloads use: the official suite, its remotes, the MCP corpus and catalogs.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SHARED = resolve(REPO, "..", "shared");
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/**
 * The suite directory: $JSON_SCHEMA_TEST_SUITE, fixtures/json-schema-test-suite, then ../shared (as the test runner).
 */
export function suiteDir() {
  const candidates = [
    process.env.JSON_SCHEMA_TEST_SUITE,
    join(REPO, "fixtures", "json-schema-test-suite"),
    join(SHARED, "json-schema-test-suite"),
  ];
  for (const c of candidates) if (c && existsSync(join(c, "tests", "draft2020-12"))) return c;
  throw new Error("official JSON-Schema-Test-Suite not found (run npm run suite:fetch)");
}

/** Every required (non-optional) 2020-12 test case: { id, schema, tests: [{ data, valid }] }. */
export function suiteCases() {
  const dir = join(suiteDir(), "tests", "draft2020-12");
  const cases = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    readJson(join(dir, file)).forEach((c, i) =>
      cases.push({ id: `${file.slice(0, -5)}#${i} ${c.description}`, schema: c.schema, tests: c.tests }),
    );
  }
  return cases;
}

/** The suite's remotes under http://localhost:1234/<relative path>. */
export function suiteRemotes() {
  const root = join(suiteDir(), "remotes");
  const out = new Map();
  const walk = (d, rel) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, rel + name + "/");
      else if (name.endsWith(".json")) out.set("http://localhost:1234/" + rel + name, readJson(p));
    }
  };
  walk(root, "");
  return out;
}

const is2020 = (s) => s === undefined || s === DRAFT_2020_12 || s === DRAFT_2020_12 + "#";

/**
 * MCP tools (name, inputSchema, optional calls) whose $schema is absent or 2020-12: the corpus plus fixtures/catalogs.
 */
export function mcpTools() {
  const tools = [];
  for (const t of readJson(join(SHARED, "mcp-corpus", "mcp-tools.json"))) {
    if (t.inputSchema && typeof t.inputSchema === "object" && is2020(t.inputSchema.$schema))
      tools.push({ name: t.id, inputSchema: t.inputSchema, calls: [] });
  }
  const catalogs = join(REPO, "fixtures", "catalogs");
  if (existsSync(catalogs)) {
    for (const file of readdirSync(catalogs)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const cat = readJson(join(catalogs, file));
      for (const t of cat.tools ?? []) {
        if (!t.inputSchema || typeof t.inputSchema !== "object" || !is2020(t.inputSchema.$schema) || t.expectedError)
          continue;
        const calls = (cat.calls ?? []).filter((c) => c.tool === t.name).map((c) => c.arguments);
        tools.push({ name: `${file.slice(0, -5)}/${t.name}`, inputSchema: t.inputSchema, calls });
      }
    }
  }
  return tools;
}

/** The OpenAPI 3.1 schema itself: the workload file is a Bowtie benchmark wrapper ({ name, schema, tests }). */
export function openapiSchema() {
  const file = readJson(join(SHARED, "workloads", "openapi_spec_schema.json"));
  return file !== null && typeof file === "object" && Object.hasOwn(file, "schema") ? file.schema : file;
}
