// Every workload the bench knows: the reference data it needs, the regimes it runs in, its kind (see prepare.mjs)
// and its cases [{ id, schema | meta, tests: [{ data, valid }] }].
import { corpusTools, catalogTools, openapiSchema, suiteCases } from "../data.mjs";
import { loadEngine } from "../peers.mjs";
import { micro, unevaluated } from "./keywords.mjs";
import { HOT_SET_TOOLS, TOOL_COUNTS, spreadTools } from "./hot.mjs";
import { boundaryCases, catalogCases, corpusCases } from "./mcp.mjs";
import { shapes } from "./shapes.mjs";
import { passingCases } from "./suite.mjs";

const ALL = ["steady", "rotating", "cold", "mixed"];

/** The corpus tools the boundary takes, as plain validate cases (the `boundary` mark dropped). */
const plainCases = (cases) => cases.map(({ boundary: _, ...c }) => c);

/** The tool-count workloads past the hot set: `count` corpus tools, spread over it, their calls rotating. */
const toolCount = (count) => ({
  name: `tools-${count}`,
  needs: ["corpus"],
  kind: "validate",
  toolCount: count,
  interleaved: true,
  regimes: ["steady", "long"],
  description: `${count} mcp-corpus tools spread over the corpus (copies past its size), their calls rotating`,
  cases: async (ctx) => spreadTools(plainCases(await ctx.boundary()), count),
});

/** The data several workloads share, built on first use. */
export function context(peers, log) {
  const once = (build) => {
    let value;
    return () => (value ??= build());
  };
  const upgrade = async () => (await loadEngine()).upgradeDraft07;
  const corpus = once(async () => corpusCases(corpusTools(), peers, await upgrade(), log));
  return {
    suite: once(() => passingCases(peers, suiteCases(), log)),
    corpus,
    boundary: once(async () => boundaryCases(await corpus(), await loadEngine(), log)),
    catalogs: once(async () => catalogCases(catalogTools(), await loadEngine(), log)),
  };
}

/** A copy of a schema document whose last $defs entry gains a subschema with `minimum: "zero"`. */
function withBadKeywordValue(schema) {
  const copy = JSON.parse(JSON.stringify(schema));
  const last = Object.keys(copy.$defs).at(-1);
  const bad = { type: "object", properties: { n: { type: "integer", minimum: "zero" } } };
  copy.$defs[last] = { ...copy.$defs[last], properties: { ...copy.$defs[last].properties, zz_bad: bad } };
  return copy;
}

/** The calls of the cases that are stated or generated to be valid; a case left without any is dropped. */
const validOnly = (cases) =>
  cases.map((c) => ({ ...c, tests: c.tests.filter((t) => t.valid) })).filter((c) => c.tests.length);

const keywordWorkload = ({ name, description, cases, declaredProperties }) => ({
  name,
  declaredProperties,
  needs: [],
  kind: "validate",
  regimes: ALL,
  description,
  cases: () => cases,
});

/** Cold runs make each schema's first `coldCalls` calls (100 unless a workload says otherwise). */
export const WORKLOADS = [
  {
    name: "suite",
    needs: ["suite"],
    kind: "validate",
    regimes: ALL,
    description: "every instance of the required 2020-12 suite cases that all libraries pass",
    cases: (ctx) => ctx.suite(),
  },
  {
    name: "compile",
    needs: ["suite"],
    kind: "compile",
    regimes: ["steady", "mixed"],
    description: "each of those suite schemas compiled from scratch (no cache reuse: see the library notes)",
    cases: (ctx) => ctx.suite(),
  },
  {
    name: "catalogs",
    needs: [],
    kind: "validate",
    regimes: [...ALL, "long"],
    description: "the project's hand-written MCP tools (fixtures/catalogs) with their stated calls",
    cases: (ctx) => ctx.catalogs(),
  },
  {
    name: "catalogs-valid",
    needs: [],
    kind: "validate",
    regimes: [...ALL, "long"],
    description: "the hand-written MCP tools (fixtures/catalogs) with only the calls their files state to be valid",
    cases: async (ctx) => validOnly(await ctx.catalogs()),
  },
  {
    name: "mcp-corpus",
    needs: ["corpus"],
    kind: "validate",
    regimes: [...ALL, "long"],
    description: "real MCP tool input schemas (draft-07 ones upgraded) with generated valid and invalid calls",
    cases: (ctx) => ctx.corpus(),
  },
  {
    name: "mcp-corpus-valid",
    needs: ["corpus"],
    kind: "validate",
    regimes: [...ALL, "long"],
    description:
      "real MCP tool input schemas (draft-07 ones upgraded) with only the generated calls that ajv, the oracle, " +
      "answers valid",
    cases: async (ctx) => validOnly(await ctx.corpus()),
  },
  {
    name: "admit-corpus",
    needs: ["corpus"],
    kind: "admit",
    coldCalls: 1,
    regimes: ALL,
    description: "compile every real MCP tool schema and make one valid call to each (a catalog update)",
    cases: async (ctx) => (await ctx.corpus()).map((c) => ({ ...c, tests: [c.tests[0]] })),
  },
  {
    name: "hot-set",
    needs: ["corpus"],
    kind: "validate",
    toolCount: HOT_SET_TOOLS,
    interleaved: true,
    regimes: [...ALL, "long"],
    description:
      `a host's hot set: ${HOT_SET_TOOLS} mcp-corpus tools spread over the corpus (those the tool-call boundary ` +
      "takes), each with its generated valid and invalid calls, the tools rotating (each one's first call, then each " +
      "one's second, …)",
    cases: async (ctx) => spreadTools(plainCases(await ctx.boundary()), HOT_SET_TOOLS),
  },
  {
    name: "hot-set-invoke",
    needs: ["corpus"],
    kind: "invoke",
    regimes: ["steady", "long"],
    description:
      "the hot set through the gateway's per-call path: Execution.invoke on the bundle ToolCatalog.admitBatch " +
      "admitted (a host of two stages allowing at once and a dispatch answering at once), beside the same host by " +
      "hand (compile, then per call a lookup, isValid, its two stages and its dispatch awaited) and isValid alone; " +
      "this library's builds only",
    cases: async (ctx) =>
      spreadTools(plainCases(await ctx.boundary()), HOT_SET_TOOLS).map((c) => ({ ...c, invoke: true })),
  },
  {
    name: "hot-set-invoke-valid",
    needs: ["corpus"],
    kind: "invoke",
    regimes: ["steady", "long"],
    description: "the same with only the calls the tools accept (no refusal's error to build)",
    cases: async (ctx) =>
      validOnly(spreadTools(plainCases(await ctx.boundary()), HOT_SET_TOOLS)).map((c) => ({ ...c, invoke: true })),
  },
  ...TOOL_COUNTS.map(toolCount),
  {
    name: "boundary-corpus",
    needs: ["corpus"],
    kind: "validate",
    regimes: ["steady", "rotating"],
    description:
      "the tool-call boundary, InputSchema.validate (arguments checked as JSON data within the instance limits, then " +
      "validated; a refusal's error built), on the mcp-corpus tools and calls; this library's builds only",
    cases: (ctx) => ctx.boundary(),
  },
  {
    name: "boundary-corpus-valid",
    needs: ["corpus"],
    kind: "validate",
    regimes: ["steady", "rotating"],
    description: "the tool-call boundary as above, with only the calls it accepts (each returned as it came)",
    cases: async (ctx) => validOnly(await ctx.boundary()),
  },
  {
    name: "openapi",
    needs: ["openapi"],
    kind: "validate",
    regimes: ALL,
    description:
      "the OpenAPI 3.1 schema document validated against the 2020-12 meta-schema, and a copy of it with one bad " +
      "keyword value in its last $defs entry (which the meta-schema reaches through $dynamicRef)",
    cases: () => {
      const schema = openapiSchema();
      const tests = [
        { data: schema, valid: true },
        { data: withBadKeywordValue(schema), valid: false },
      ];
      return [{ id: "openapi-3.1", meta: true, tests }];
    },
  },
  keywordWorkload(unevaluated()),
  ...micro().map(keywordWorkload),
  ...shapes().map(keywordWorkload),
].map((w) => ({ coldCalls: 100, ...w }));

/** Retained heap after compiling: one scenario per reference set, each a list of { schema, args }. */
export const MEMORY = {
  name: "memory",
  regimes: ["cold"],
  scenarios: [
    {
      name: "suite",
      needs: ["suite"],
      label: (n) => `required suite (${n} schemas)`,
      items: async (ctx) => (await ctx.suite()).map((c) => ({ schema: c.schema, args: c.tests[0].data })),
    },
    {
      name: "catalog",
      needs: ["corpus"],
      label: (n) => `MCP catalog (${n} tools, distinct $id)`,
      items: async (ctx, size) => {
        const tools = await ctx.corpus();
        return Array.from({ length: size }, (_, n) => {
          const t = tools[n % tools.length];
          return { schema: { ...t.schema, $id: `https://bench.invalid/tools/${n}/tool` }, args: t.tests[0].data };
        });
      },
    },
  ],
};

export const UNITS = {
  validate: "validation",
  compile: "schema compiled",
  admit: "tool (compile + 1 call)",
  invoke: "tool call",
};
