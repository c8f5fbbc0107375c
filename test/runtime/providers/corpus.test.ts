/**
 * The 400-tool MCP corpus (`../shared/mcp-corpus/mcp-tools.json`, beside the repository) through every built-in
 * profile, with and without widening, with `format` an annotation (the default everywhere, and so what admission's
 * targets check) and asserted (what they check with `formatAssertion: true`), and the strict
 * profiles also with `narrow` and `encode` — as admission with `draft07: "upgrade"` hands it over (draft-07 schemas
 * upgraded first; a tool admission refuses is not checked). The counts per profile and outcome are printed and
 * asserted; every translated tool keeps every verdict and every widened one accepts a superset, on instances
 * generated near each schema's edges; a narrowed or encoded tool's model calls decode to calls the original accepts,
 * and the original's calls come back from their encoded shape; a tool that fits is sent as the very same schema object.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import {
  checkCatalog,
  checkTool,
  compile,
  InputSchema,
  OutputSchema,
  profiles,
  upgradeDraft07,
  type CatalogCheck,
  type ProviderProfile,
  type ToolCheck,
  type ToolOutcome,
} from "../../../src/index.js";
import { encodedPointers, encodeShape, stripEncoded } from "./encoding.js";
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
 * Outcomes measured with these profiles on this corpus (399 admitted tools), per `profile widen [narrow+encode]
 * [format]` (`format`: asserted, as admission's targets check by default): what a change to a profile or a rule
 * must re-measure and explain. The order is fits, translated, widened, refused.
 */
const EXPECTED: Record<string, [number, number, number, number]> = {
  "openai-strict@2026-10 widen=false": [0, 55, 0, 344],
  "openai-strict@2026-10 widen=true": [0, 55, 4, 340],
  "openai-strict@2026-10 widen=false format": [0, 52, 0, 347],
  "openai-strict@2026-10 widen=true format": [0, 52, 7, 340],
  "openai-strict@2026-10 widen=false narrow+encode": [0, 366, 0, 33],
  "openai-strict@2026-10 widen=true narrow+encode": [0, 366, 32, 1],
  "openai-strict@2026-10 widen=false narrow+encode format": [0, 357, 0, 42],
  "openai-strict@2026-10 widen=true narrow+encode format": [0, 357, 41, 1],
  "openai@2026-10 widen=false": [395, 4, 0, 0],
  "openai@2026-10 widen=true": [395, 4, 0, 0],
  "openai@2026-10 widen=false format": [395, 4, 0, 0],
  "openai@2026-10 widen=true format": [395, 4, 0, 0],
  "anthropic-strict@2026-10 widen=false": [0, 114, 0, 285],
  "anthropic-strict@2026-10 widen=true": [0, 114, 20, 265],
  "anthropic-strict@2026-10 widen=false format": [0, 114, 0, 285],
  "anthropic-strict@2026-10 widen=true format": [0, 114, 20, 265],
  "anthropic-strict@2026-10 widen=false narrow+encode": [0, 309, 0, 90],
  "anthropic-strict@2026-10 widen=true narrow+encode": [0, 309, 88, 2],
  "anthropic-strict@2026-10 widen=false narrow+encode format": [0, 307, 0, 92],
  "anthropic-strict@2026-10 widen=true narrow+encode format": [0, 307, 90, 2],
  "anthropic@2026-10 widen=false": [395, 4, 0, 0],
  "anthropic@2026-10 widen=true": [395, 4, 0, 0],
  "anthropic@2026-10 widen=false format": [395, 4, 0, 0],
  "anthropic@2026-10 widen=true format": [395, 4, 0, 0],
  "gemini-parameters@2026-10 widen=false": [164, 83, 0, 152],
  "gemini-parameters@2026-10 widen=true": [164, 83, 149, 3],
  "gemini-parameters@2026-10 widen=false format": [164, 74, 0, 161],
  "gemini-parameters@2026-10 widen=true format": [164, 74, 158, 3],
  "gemini-json-schema@2026-10 widen=false": [130, 224, 0, 45],
  "gemini-json-schema@2026-10 widen=true": [130, 224, 44, 1],
  "gemini-json-schema@2026-10 widen=false format": [130, 212, 0, 57],
  "gemini-json-schema@2026-10 widen=true format": [130, 212, 56, 1],
};

/** The same for the 72 output schemas (reported against each profile, never changing a tool's outcome). */
const EXPECTED_OUTPUT: Record<string, [number, number, number, number]> = {
  "openai-strict@2026-10 widen=false": [0, 28, 0, 44],
  "openai-strict@2026-10 widen=true": [0, 28, 0, 44],
  "openai-strict@2026-10 widen=false format": [0, 26, 0, 46],
  "openai-strict@2026-10 widen=true format": [0, 26, 2, 44],
  "openai-strict@2026-10 widen=false narrow+encode": [0, 69, 0, 3],
  "openai-strict@2026-10 widen=true narrow+encode": [0, 69, 1, 2],
  "openai-strict@2026-10 widen=false narrow+encode format": [0, 67, 0, 5],
  "openai-strict@2026-10 widen=true narrow+encode format": [0, 67, 3, 2],
  "openai@2026-10 widen=false": [71, 0, 0, 1],
  "openai@2026-10 widen=true": [71, 0, 0, 1],
  "openai@2026-10 widen=false format": [71, 0, 0, 1],
  "openai@2026-10 widen=true format": [71, 0, 0, 1],
  "anthropic-strict@2026-10 widen=false": [0, 27, 0, 45],
  "anthropic-strict@2026-10 widen=true": [0, 27, 1, 44],
  "anthropic-strict@2026-10 widen=false format": [0, 27, 0, 45],
  "anthropic-strict@2026-10 widen=true format": [0, 27, 1, 44],
  "anthropic-strict@2026-10 widen=false narrow+encode": [0, 68, 0, 4],
  "anthropic-strict@2026-10 widen=true narrow+encode": [0, 68, 4, 0],
  "anthropic-strict@2026-10 widen=false narrow+encode format": [0, 68, 0, 4],
  "anthropic-strict@2026-10 widen=true narrow+encode format": [0, 68, 4, 0],
  "anthropic@2026-10 widen=false": [72, 0, 0, 0],
  "anthropic@2026-10 widen=true": [72, 0, 0, 0],
  "anthropic@2026-10 widen=false format": [72, 0, 0, 0],
  "anthropic@2026-10 widen=true format": [72, 0, 0, 0],
  "gemini-parameters@2026-10 widen=false": [22, 18, 0, 32],
  "gemini-parameters@2026-10 widen=true": [22, 18, 31, 1],
  "gemini-parameters@2026-10 widen=false format": [22, 18, 0, 32],
  "gemini-parameters@2026-10 widen=true format": [22, 18, 31, 1],
  "gemini-json-schema@2026-10 widen=false": [37, 32, 0, 3],
  "gemini-json-schema@2026-10 widen=true": [37, 32, 3, 0],
  "gemini-json-schema@2026-10 widen=false format": [37, 30, 0, 5],
  "gemini-json-schema@2026-10 widen=true format": [37, 30, 5, 0],
};

const OUTCOMES: readonly ToolOutcome[] = ["fits", "translated", "widened", "refused"];

/** Instances near a schema's edges, the same for every run. */
function instancesOf(schema: unknown, seed: number): unknown[] {
  return plain(fc.sample(instancesFor(schema), { seed, numRuns: 24 }));
}

/** One way of checking the corpus: a profile and the options admission would pass. */
interface Config {
  readonly key: string;
  readonly profile: ProviderProfile;
  readonly options: { widen: boolean; formatAssertion: boolean; narrow: boolean; encode: boolean };
}

/**
 * Every profile, widened or not, `format` an annotation or asserted; the profiles that require closed objects also
 * narrowed and encoded (encoding changes what only `required-all` refuses; narrowing what `closed-objects` does).
 */
function configs(): Config[] {
  const out: Config[] = [];
  for (const profile of profiles.values())
    for (const reshape of profile.structure.closedObjects ? [false, true] : [false])
      for (const format of [false, true])
        for (const widen of [false, true]) {
          const key = `${profile.id} widen=${widen}${reshape ? " narrow+encode" : ""}${format ? " format" : ""}`;
          out.push({ key, profile, options: { widen, formatAssertion: format, narrow: reshape, encode: reshape } });
        }
  return out;
}

/**
 * A narrowed or encoded tool: what is sent fits the profile when checked again; on calls generated near the
 * original's edges, each decodes back from its encoded shape,
 * and (not widened) the sent schema accepts that shape only if the original accepts the call, and (not narrowed)
 * whenever it does; on calls generated near the sent schema's edges: each the sent schema accepts decodes, not
 * widened, to one the original accepts.
 */
function reshapedHolds(
  original: unknown,
  request: CatalogCheck,
  profile: ProviderProfile,
  name: string,
  index: number,
  formatAssertion: boolean,
): string[] {
  const check = request.report.get(name) as ToolCheck;
  const kinds = new Set(check.changes.map((c) => c.kind));
  const sent = sentSchema(request.tools[0]);
  const encoded = encodedPointers(check);
  const before = compile(original, { formatAssertion });
  const after = compile(sent, { formatAssertion });
  const accepts = (v: { isValid(i: unknown): boolean }, i: unknown) =>
    typeof i === "object" && i !== null && !Array.isArray(i) && v.isValid(i);
  const bad: string[] = [];
  // What is sent keeps the profile's own rules: checked again, it fits as it is.
  const again = checkTool({ name, inputSchema: sent }, profile, { formatAssertion });
  if (again.outcome !== "fits") bad.push(`sent schema ${again.outcome}: ${JSON.stringify(again.problems)}`);
  for (const call of instancesOf(original, index)) {
    const stripped = stripEncoded(original, call, encoded);
    const shaped = encodeShape(original, stripped, encoded);
    const decoded = request.decodeCall({ name: check.providerName, arguments: shaped });
    if (!decoded.ok || !isDeepStrictEqual(decoded.value.arguments, stripped))
      bad.push(`round trip ${JSON.stringify(shaped)}`);
    const verdict = accepts(before, stripped);
    if (!kinds.has("widened") && accepts(after, shaped) && !verdict) bad.push(`narrower ${JSON.stringify(shaped)}`);
    if (!kinds.has("narrowed") && verdict && !accepts(after, shaped)) bad.push(`encoded ${JSON.stringify(shaped)}`);
  }
  if (!kinds.has("widened"))
    for (const output of instancesOf(sent, index + 1)) {
      if (!accepts(after, output)) continue;
      const decoded = request.decodeCall({ name: check.providerName, arguments: output });
      if (!decoded.ok || !accepts(before, decoded.value.arguments)) bad.push(`model output ${JSON.stringify(output)}`);
    }
  return bad;
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
    let reshaped = 0;
    for (const { key, profile, options } of configs()) {
      for (const [index, { record, inputSchema, outputSchema }] of tools.entries()) {
        const descriptor = {
          name: record.name,
          ...(typeof record.description === "string" ? { description: record.description } : {}),
          inputSchema,
          ...(outputSchema === undefined ? {} : { outputSchema }),
        };
        const request = checkCatalog([descriptor], profile, options);
        const check = request.report.get(record.name) as ToolCheck;
        counts.set(`${key} ${check.outcome}`, (counts.get(`${key} ${check.outcome}`) ?? 0) + 1);
        if (check.error !== undefined) assert.equal(check.error.class, "unsupported_capability", check.error.message);
        if (check.outcome === "fits") assert.equal(sentSchema(check.tool), inputSchema, record.id);
        const kinds = new Set(check.changes.map((c) => c.kind));
        if (check.outcome === "translated" || check.outcome === "widened") {
          assert.equal(kinds.has("widened"), check.outcome === "widened", record.id);
          if (kinds.has("narrowed") || kinds.has("encoded")) {
            assert.deepEqual(
              reshapedHolds(inputSchema, request, profile, record.name, index, options.formatAssertion),
              [],
              `${key} ${record.id}`,
            );
            reshaped++;
          } else {
            const mode = check.outcome === "translated" ? "exact" : "superset";
            const sent = asJsonSchema(sentSchema(check.tool), profile.format);
            const bad = disagreements(inputSchema, sent, instancesOf(inputSchema, index), mode);
            assert.deepEqual(bad, [], `${key} ${record.id}: ${JSON.stringify(sent).slice(0, 400)}`);
            compared++;
          }
        }
        const output = check.output;
        if (output !== undefined) {
          outputCounts.set(`${key} ${output.outcome}`, (outputCounts.get(`${key} ${output.outcome}`) ?? 0) + 1);
          const outputKinds = new Set(output.changes.map((c) => c.kind));
          assert.ok(!outputKinds.has("encoded"), "an output schema is never encoded");
          if ((output.outcome === "translated" || output.outcome === "widened") && !outputKinds.has("narrowed")) {
            const sent = asJsonSchema(output.schema, profile.format);
            const mode = output.outcome === "translated" ? "exact" : "superset";
            const bad = disagreements(outputSchema, sent, instancesOf(outputSchema, index), mode, false);
            assert.deepEqual(bad, [], `${key} ${record.id} (output)`);
          }
        }
      }
    }
    const row = (map: Map<string, number>, key: string) => OUTCOMES.map((o) => map.get(`${key} ${o}`) ?? 0);
    t.diagnostic(`${tools.length} admitted tools (${notAdmitted.length} not admitted)`);
    t.diagnostic(`${compared} rewrites compared verdict by verdict; ${reshaped} narrowed or encoded ones decoded`);
    t.diagnostic(`profile widen: fits / translated / widened / refused (input) | the same for the output schemas`);
    for (const { key } of configs())
      t.diagnostic(`${key}: ${row(counts, key).join(" / ")} | ${row(outputCounts, key).join(" / ")}`);
    for (const [key, expected] of Object.entries(EXPECTED)) assert.deepEqual(row(counts, key), expected, key);
    for (const [key, expected] of Object.entries(EXPECTED_OUTPUT))
      assert.deepEqual(row(outputCounts, key), expected, `${key} (output)`);
    assert.deepEqual(
      Object.keys(EXPECTED).sort(),
      configs()
        .map((c) => c.key)
        .sort(),
      "every configuration counted",
    );
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
