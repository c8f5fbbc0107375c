// Reference data the workloads read: the official suite and its remotes, the MCP corpus, the project's own catalogs
// and the OpenAPI 3.1 schema. Everything outside the repository is optional: `missing(need)` says why a workload
// needing it cannot run, and the bench skips that workload instead of failing.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The shared reference directory beside the repository; BENCH_SHARED overrides it (the bench test points it away). */
export const SHARED = resolve(process.env.BENCH_SHARED || join(REPO, "..", "shared"));
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

const FILES = {
  corpus: join(SHARED, "mcp-corpus", "mcp-tools.json"),
  openapi: join(SHARED, "workloads", "openapi_spec_schema.json"),
};

/** The suite directory, in the test runner's order: $JSON_SCHEMA_TEST_SUITE, the fetched copy, then SHARED. */
function suiteDir() {
  const candidates = [
    process.env.JSON_SCHEMA_TEST_SUITE,
    join(REPO, "fixtures", "json-schema-test-suite"),
    join(SHARED, "json-schema-test-suite"),
  ];
  return candidates.find((c) => c && existsSync(join(c, "tests", "draft2020-12")));
}

/** Why `need` ("suite" | "corpus" | "openapi") is unavailable, or undefined when it is there. */
export function missing(need) {
  if (need === "suite")
    return suiteDir() ? undefined : "no copy of the official suite (npm run suite:fetch, or ../shared)";
  return existsSync(FILES[need]) ? undefined : `${FILES[need]} not found`;
}

/** Every required (non-optional) 2020-12 test case: { id, schema, tests: [{ data, valid }] }. */
export function suiteCases() {
  const dir = join(suiteDir(), "tests", "draft2020-12");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  return files.flatMap((file) =>
    readJson(join(dir, file)).map((c, i) => ({
      id: `${file.slice(0, -5)}#${i} ${c.description}`,
      schema: c.schema,
      tests: c.tests.map((t) => ({ data: t.data, valid: t.valid })),
    })),
  );
}

/** The suite's remotes under http://localhost:1234/<relative path>; empty when there is no suite. */
export function suiteRemotes() {
  const out = new Map();
  const dir = suiteDir();
  if (!dir) return out;
  const walk = (d, rel) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, rel + name + "/");
      else if (name.endsWith(".json")) out.set("http://localhost:1234/" + rel + name, readJson(p));
    }
  };
  walk(join(dir, "remotes"), "");
  return out;
}

/** The 400 real MCP tool definitions: [{ id, inputSchema }]. */
export const corpusTools = () => readJson(FILES.corpus).map((t) => ({ id: t.id, inputSchema: t.inputSchema }));

/**
 * The project's hand-written catalogs (fixtures/catalogs) with their calls and stated verdicts. example.json is left
 * out (its tools are copies from the other files) and so are broken.json's tools that exist to fail admission.
 */
export function catalogTools() {
  const dir = join(REPO, "fixtures", "catalogs");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "example.json");
  return files.sort().flatMap((file) => {
    const catalog = readJson(join(dir, file));
    return catalog.tools
      .filter((t) => !t.expectedError)
      .map((t) => ({
        id: `${file.slice(0, -5)}/${t.name}`,
        inputSchema: t.inputSchema,
        calls: (catalog.calls ?? [])
          .filter((c) => c.tool === t.name)
          .map((c) => ({ data: c.arguments, valid: c.valid })),
      }));
  });
}

/** The OpenAPI 3.1 schema itself: the workload file is a Bowtie benchmark wrapper ({ name, schema, tests }). */
export function openapiSchema() {
  const file = readJson(FILES.openapi);
  return file !== null && typeof file === "object" && Object.hasOwn(file, "schema") ? file.schema : file;
}
