/**
 * The 400-tool MCP corpus (`../shared/mcp-corpus/mcp-tools.json`, beside the repository) through every built-in
 * profile, with and without widening, as admission with `draft07: "upgrade"` hands it over (draft-07 schemas
 * upgraded first; a tool admission refuses is not checked). The counts per profile and outcome are printed and
 * asserted; every translated tool keeps every verdict and every widened one accepts a superset, on instances
 * generated near each schema's edges; a tool that fits is sent as the very same schema object.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import {
  checkCatalog,
  checkTool,
  InputSchema,
  OutputSchema,
  profiles,
  upgradeDraft07,
  type ToolOutcome,
} from "../../../src/index.js";
import { repoRoot } from "../../suite/locate.js";
import { asJsonSchema, disagreements, instancesFor, plain, sentSchema } from "./verdicts.js";

interface CorpusRecord {
  id: string;
  server: string;
  name: string;
  description?: unknown;
  inputSchema: Record<string, unknown>;
  outputSchema?: unknown;
}

const corpusPath = resolve(repoRoot, "..", "shared", "mcp-corpus", "mcp-tools.json");

function readCorpus(): CorpusRecord[] {
  if (!existsSync(corpusPath))
    throw new Error(`the MCP corpus is missing: expected ${corpusPath} (the shared folder beside the repository)`);
  return JSON.parse(readFileSync(corpusPath, "utf8")) as CorpusRecord[];
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The schema admission with `draft07: "upgrade"` compiles: draft-07 upgraded exactly, others as published. */
function admitted(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || (schema as Record<string, unknown>)["$schema"] !== DRAFT_07)
    return schema;
  const upgraded = upgradeDraft07(schema);
  assert.ok(upgraded.ok, "every draft-07 tool of the corpus upgrades");
  return upgraded.value.schema;
}

/**
 * Outcomes measured with these profiles on this corpus (399 admitted tools), per `profile widen`: what a change
 * to a profile or a rule must re-measure and explain. The order is fits, translated, widened, refused.
 */
const EXPECTED: Record<string, [number, number, number, number]> = {
  "openai-strict@2026-10 widen=false": [0, 55, 0, 344],
  "openai-strict@2026-10 widen=true": [0, 55, 4, 340],
  "openai@2026-10 widen=false": [395, 4, 0, 0],
  "openai@2026-10 widen=true": [395, 4, 0, 0],
  "anthropic-strict@2026-10 widen=false": [0, 114, 0, 285],
  "anthropic-strict@2026-10 widen=true": [0, 114, 20, 265],
  "anthropic@2026-10 widen=false": [395, 4, 0, 0],
  "anthropic@2026-10 widen=true": [395, 4, 0, 0],
  "gemini-parameters@2026-10 widen=false": [164, 83, 0, 152],
  "gemini-parameters@2026-10 widen=true": [164, 83, 149, 3],
  "gemini-json-schema@2026-10 widen=false": [130, 224, 0, 45],
  "gemini-json-schema@2026-10 widen=true": [130, 224, 44, 1],
};

/** The same for the 72 output schemas (reported against each profile, never changing a tool's outcome). */
const EXPECTED_OUTPUT: Record<string, [number, number, number, number]> = {
  "openai-strict@2026-10 widen=false": [0, 28, 0, 44],
  "openai-strict@2026-10 widen=true": [0, 28, 0, 44],
  "openai@2026-10 widen=false": [71, 0, 0, 1],
  "openai@2026-10 widen=true": [71, 0, 0, 1],
  "anthropic-strict@2026-10 widen=false": [0, 27, 0, 45],
  "anthropic-strict@2026-10 widen=true": [0, 27, 1, 44],
  "anthropic@2026-10 widen=false": [72, 0, 0, 0],
  "anthropic@2026-10 widen=true": [72, 0, 0, 0],
  "gemini-parameters@2026-10 widen=false": [22, 18, 0, 32],
  "gemini-parameters@2026-10 widen=true": [22, 18, 31, 1],
  "gemini-json-schema@2026-10 widen=false": [37, 32, 0, 3],
  "gemini-json-schema@2026-10 widen=true": [37, 32, 3, 0],
};

const OUTCOMES: readonly ToolOutcome[] = ["fits", "translated", "widened", "refused"];

/** Instances near a schema's edges, the same for every run. */
function instancesOf(schema: unknown, seed: number): unknown[] {
  return plain(fc.sample(instancesFor(schema), { seed, numRuns: 24 }));
}

// In a suite, so that `npm test`'s reporter prints the counts.
describe("the MCP corpus through the provider profiles", () => {
  test("the corpus through every profile: counts per outcome, exact translations, superset widenings", (t) => {
    const records = readCorpus();
    assert.equal(records.length, 400);
    const tools: { record: CorpusRecord; inputSchema: unknown; outputSchema?: unknown }[] = [];
    const notAdmitted: string[] = [];
    for (const record of records) {
      const inputSchema = admitted(record.inputSchema);
      const outputSchema = record.outputSchema === undefined ? undefined : admitted(record.outputSchema);
      const input = InputSchema.validateSchema(inputSchema);
      const output = outputSchema === undefined ? undefined : OutputSchema.validateSchema(outputSchema);
      if (!input.ok || (output !== undefined && !output.ok)) notAdmitted.push(record.id);
      else tools.push({ record, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) });
    }
    // draft-04's `exclusiveMinimum: true` is invalid under 2020-12 (the corpus README names it).
    assert.deepEqual(notAdmitted, ["livemcp-pdf-reader-mcp/read_pdf"]);
    const counts = new Map<string, number>();
    const outputCounts = new Map<string, number>();
    let compared = 0;
    for (const profile of profiles.values()) {
      for (const widen of [false, true]) {
        const key = `${profile.id} widen=${widen}`;
        for (const [index, { record, inputSchema, outputSchema }] of tools.entries()) {
          const descriptor = {
            name: record.name,
            ...(typeof record.description === "string" ? { description: record.description } : {}),
            inputSchema,
            ...(outputSchema === undefined ? {} : { outputSchema }),
          };
          const check = checkTool(descriptor, profile, { widen });
          counts.set(`${key} ${check.outcome}`, (counts.get(`${key} ${check.outcome}`) ?? 0) + 1);
          if (check.error !== undefined) assert.equal(check.error.class, "unsupported_capability", check.error.message);
          if (check.outcome === "fits") assert.equal(sentSchema(check.tool), inputSchema, record.id);
          if (check.outcome === "translated" || check.outcome === "widened") {
            const mode = check.outcome === "translated" ? "exact" : "superset";
            assert.equal(
              check.changes.some((c) => c.kind === "widened"),
              mode === "superset",
              record.id,
            );
            const sent = asJsonSchema(sentSchema(check.tool), profile.format);
            const bad = disagreements(inputSchema, sent, instancesOf(inputSchema, index), mode);
            assert.deepEqual(bad, [], `${key} ${record.id}: ${JSON.stringify(sent).slice(0, 400)}`);
            compared++;
          }
          const output = check.output;
          if (output !== undefined) {
            outputCounts.set(`${key} ${output.outcome}`, (outputCounts.get(`${key} ${output.outcome}`) ?? 0) + 1);
            if (output.outcome === "translated" || output.outcome === "widened") {
              const sent = asJsonSchema(output.schema, profile.format);
              const mode = output.outcome === "translated" ? "exact" : "superset";
              const bad = disagreements(outputSchema, sent, instancesOf(outputSchema, index), mode, false);
              assert.deepEqual(bad, [], `${key} ${record.id} (output)`);
            }
          }
        }
      }
    }
    const row = (map: Map<string, number>, key: string) => OUTCOMES.map((o) => map.get(`${key} ${o}`) ?? 0);
    t.diagnostic(`${tools.length} admitted tools (${notAdmitted.length} not admitted); ${compared} rewrites compared`);
    t.diagnostic(`profile widen: fits / translated / widened / refused (input) | the same for the output schemas`);
    for (const key of Object.keys(EXPECTED))
      t.diagnostic(`${key}: ${row(counts, key).join(" / ")} | ${row(outputCounts, key).join(" / ")}`);
    for (const [key, expected] of Object.entries(EXPECTED)) assert.deepEqual(row(counts, key), expected, key);
    for (const [key, expected] of Object.entries(EXPECTED_OUTPUT))
      assert.deepEqual(row(outputCounts, key), expected, `${key} (output)`);
  });

  test("corpus facts the profiles must see, counted independently of the checker", () => {
    const tools = readCorpus().filter((r) => r.id !== "livemcp-pdf-reader-mcp/read_pdf");
    const gemini = profiles.get("gemini-parameters@2026-10");
    assert.ok(gemini !== undefined);
    const hasTypeArray = (s: unknown): boolean =>
      JSON.stringify(s).includes('"type":[') || JSON.stringify(s).includes('"type": [');
    const typeArrays = tools.filter((r) => hasTypeArray(admitted(r.inputSchema)));
    assert.ok(typeArrays.length > 0);
    for (const r of typeArrays) {
      const check = checkTool({ name: r.name, inputSchema: admitted(r.inputSchema) }, gemini);
      assert.notEqual(check.outcome, "fits", `${r.id} has a type array, which Gemini parameters cannot take`);
    }
    const open = tools.filter((r) => !JSON.stringify(admitted(r.inputSchema)).includes('"additionalProperties":false'));
    for (const r of open) {
      const check = checkTool({ name: r.name, inputSchema: admitted(r.inputSchema) }, "openai-strict", { widen: true });
      assert.equal(check.outcome, "refused", `${r.id} has no closed object, which OpenAI strict requires`);
    }
  });

  test("each server's tools as one request: no collisions, and every budget error names its rule", (t) => {
    const servers = new Map<string, CorpusRecord[]>();
    for (const r of readCorpus()) servers.set(r.server, [...(servers.get(r.server) ?? []), r]);
    const errors = new Map<string, number>();
    for (const profile of profiles.values()) {
      for (const list of servers.values()) {
        const tools = list
          .filter((r) => r.id !== "livemcp-pdf-reader-mcp/read_pdf")
          .map((r) => ({ name: r.name, inputSchema: admitted(r.inputSchema) }));
        const catalog = checkCatalog(tools, profile, { widen: true });
        for (const report of catalog.report.values()) assert.notEqual(report.error?.rule, "tool-name-collision");
        for (const e of catalog.errors)
          errors.set(`${profile.id} ${e.rule}`, (errors.get(`${profile.id} ${e.rule}`) ?? 0) + 1);
        assert.equal(catalog.tools.length, [...catalog.report.values()].filter((r) => r.outcome !== "refused").length);
      }
    }
    t.diagnostic(`${servers.size} servers; requests over a budget: ${JSON.stringify(Object.fromEntries(errors))}`);
    assert.ok([...errors.keys()].every((k) => k.startsWith("anthropic-strict") || k.endsWith("max-tools")));
  });
});
