/**
 * OpenAI strict mode for real servers (docs/guide/providers-openai-strict.md), without admission: a catalog checked
 * with `checkCatalog` and `narrow`/`encode`, what each option does alone, the refusals that remain and why, and the
 * request's call decoder on model calls (a renamed tool, an encoded null, a property that was nullable before, a tool
 * the request does not list).
 */

import { checkCatalog } from "backplane-agent-runtime";

const tools = [
  {
    name: "memory.create_entities",
    inputSchema: {
      type: "object",
      properties: {
        entities: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, observations: { type: "array", items: { type: "string" } } },
            required: ["name", "observations"],
          },
        },
      },
      required: ["entities"],
    },
  },
  {
    name: "search",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer", minimum: 1 },
        cursor: { type: ["string", "null"], default: null },
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  {
    name: "count",
    inputSchema: {
      type: "object",
      properties: { filter: { type: "string" } },
      minProperties: 1,
      additionalProperties: false,
    },
  },
];

for (const options of [{}, { narrow: true }, { encode: true }, { narrow: true, encode: true }]) {
  const request = checkCatalog(tools, "openai-strict", options);
  const outcomes = [...request.report].map(([name, check]) => `${name} ${check.outcome}`);
  console.log(JSON.stringify(options), outcomes.join(", "));
}

const request = checkCatalog(tools, "openai-strict", { narrow: true, encode: true });
for (const [name, check] of request.report) {
  const kinds = check.changes.filter((c) => c.kind !== "exact").map((c) => `${c.kind} ${c.change} ${c.pointer}`);
  console.log(name, kinds.length > 0 ? kinds : check.error?.message);
}

// The model calls the provider's names, with every property present; decoding gives the calls to run.
const calls = [
  { name: "memory_create_entities", arguments: { entities: [{ name: "ada", observations: [] }] } },
  { name: "search", arguments: { query: "mcp", limit: null, cursor: null } },
  { name: "count", arguments: {} },
];
for (const call of calls) {
  const decoded = request.decodeCall(call);
  console.log(decoded.ok ? JSON.stringify(decoded.value) : `${decoded.error.code}: ${decoded.error.message}`);
}

// Output:
// {} memory.create_entities refused, search refused, count refused
// {"narrow":true} memory.create_entities translated, search refused, count refused
// {"encode":true} memory.create_entities refused, search refused, count refused
// {"narrow":true,"encode":true} memory.create_entities translated, search translated, count refused
// memory.create_entities [
//   'narrowed object-closed /additionalProperties',
//   'narrowed object-closed /properties/entities/items/additionalProperties'
// ]
// search [
//   'encoded optional-encoded /properties/limit',
//   'narrowed nullable-required /properties/cursor'
// ]
// count "minProperties" is not accepted by openai-strict@2026-10 (widen: true would drop it for the model; the boundary enforces it)
// {"name":"memory.create_entities","arguments":{"entities":[{"name":"ada","observations":[]}]}}
// {"name":"search","arguments":{"query":"mcp","cursor":null}}
// tool_unknown: the model called "count", which is not a tool of this request
