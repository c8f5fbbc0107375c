// Import rules for src/ (npm run lint): no cycles (type imports included), and layers that only import downwards.
//
// The engine's folders by job, lowest first: json (JSON values, pointers, URIs) → regex → output (results, messages)
// → evaluate (the keyword protocol, nodes, runs, marks) → compile (documents, dialects, references, the compiler) and
// verdict (the verdict fast path built over compiled nodes).
// `errors.ts` and `limits.ts` are shared by all of them; the files at the engine's top (`compile-with.ts`,
// `validator.ts`, `options.ts`) tie the folders together. Vocabularies sit on the engine, the runtime on both, the
// adapters and the CLI on top.
const ENGINE = "^src/engine/";
const SHARED = `${ENGINE}(errors|error-codes|limits)\\.ts$`;
const below = {
  json: [],
  regex: ["json"],
  output: ["json", "regex"],
  evaluate: ["json", "regex", "output"],
  compile: ["json", "regex", "output", "evaluate"],
  verdict: ["json", "regex", "output", "evaluate"],
};
const layerRules = Object.entries(below).map(([folder, allowed]) => ({
  name: `engine-${folder}-imports-downwards`,
  comment: `src/engine/${folder} may import only ${["itself", ...allowed].join(", ")} and the shared errors/limits.`,
  severity: "error",
  from: { path: `${ENGINE}${folder}/` },
  to: {
    path: "^src/",
    pathNot: [`${ENGINE}(${[folder, ...allowed].join("|")})/`, SHARED],
  },
}));

// The runtime's folders in the order data flows, lowest first: errors (Result and the error family) → boundary (the
// schema boundary: InputSchema, OutputSchema, options, cache, the dialect upgrades) → elicitation → descriptor (the
// tool descriptor read once, names and namespaces) → identity (canonical form, digests, pins, hidden text) →
// providers (profiles, rules, translation, checks) → admission (ToolCatalog.admitBatch and its bundle) → execution
// (Execution.invoke) → conversation. Each imports only the ones below it.
const RUNTIME = "^src/runtime/";
const flow = [
  "errors",
  "boundary",
  "elicitation",
  "descriptor",
  "identity",
  "providers",
  "admission",
  "execution",
  "conversation",
];
const runtimeRules = flow.map((folder, i) => ({
  name: `runtime-${folder}-imports-downwards`,
  comment: `src/runtime/${folder} may import only ${["itself", ...flow.slice(0, i)].join(", ")} (and the engine).`,
  severity: "error",
  from: { path: `${RUNTIME}${folder}/` },
  to: { path: RUNTIME, pathNot: `${RUNTIME}(${flow.slice(0, i + 1).join("|")})/` },
}));

// Inside providers/, its folders lowest first: profiles (the profiles as data) → translation (the drafts, keyword
// sets, merges and proofs a rewrite is made of) → rules (each rule finds one problem and its rewrites). The files at
// providers/' top (the rewriting walk that drives the rules, the checks, the report) use them; no folder imports a
// file at the top or a folder after it.
const PROVIDERS = `${RUNTIME}providers/`;
const providerFolders = ["profiles", "translation", "rules"];
const providerRules = providerFolders.map((folder, i) => ({
  name: `providers-${folder}-imports-downwards`,
  comment: `src/runtime/providers/${folder} may import only ${["itself", ...providerFolders.slice(0, i)].join(", ")} of providers/.`,
  severity: "error",
  from: { path: `${PROVIDERS}${folder}/` },
  to: { path: PROVIDERS, pathNot: `${PROVIDERS}(${providerFolders.slice(0, i + 1).join("|")})/` },
}));

// The gateway program (src/cli/gateway) by role, lowest first: transport (stdio framing, the HTTP front and its
// guards) → upstream (server processes and connections, listings) → policy (the catalog, the pin ledger) → routing
// (the clients, one handler per method, tool calls, resources and prompts, server-to-client carriage, admissions).
// Each room imports only the rooms before it and the files at the gateway's top that hold no policy: sdk.ts (the SDK's
// surface), config.ts (the configuration file), audit.ts (the reporter and the audit log), forward.ts (what a hop
// carries) and uri-template.ts. The coordinator and the commands at the top (gateway.ts, command.ts, review.ts,
// approve.ts) use them all; nothing below imports them.
const GATEWAY = "^src/cli/gateway/";
const gatewayRooms = ["transport", "upstream", "policy", "routing"];
const gatewayBase = `${GATEWAY}(sdk|config|audit|forward|uri-template)\\.ts$`;
const gatewayRules = gatewayRooms.map((room, i) => ({
  name: `cli-gateway-${room}-imports-downwards`,
  comment: `src/cli/gateway/${room} may import only ${["itself", ...gatewayRooms.slice(0, i)].join(", ")} and the gateway's base files.`,
  severity: "error",
  from: { path: `${GATEWAY}${room}/` },
  to: { path: GATEWAY, pathNot: [`${GATEWAY}(${gatewayRooms.slice(0, i + 1).join("|")})/`, gatewayBase] },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form layers; a cycle (type imports included) means a responsibility is in the wrong place.",
      severity: "error",
      from: { path: "^src" },
      to: { circular: true },
    },
    ...layerRules,
    ...runtimeRules,
    ...providerRules,
    ...gatewayRules,
    {
      name: "runtime-in-folders",
      comment: "Every runtime module belongs to the folder of its stage (runtimeRules): none sits at the top.",
      severity: "error",
      from: { path: "^src/runtime/[^/]+\\.ts$" },
      to: {},
    },
    {
      name: "engine-stands-alone",
      comment: "The engine imports no vocabulary, runtime, adapter or CLI: the dialect is handed to it as data.",
      severity: "error",
      from: { path: ENGINE },
      to: { path: "^src/(vocabularies|runtime|adapters|cli)/" },
    },
    {
      name: "vocabularies-on-the-engine",
      comment: "Vocabularies implement the keyword protocol; they know nothing of the runtime, adapters or CLI.",
      severity: "error",
      from: { path: "^src/vocabularies/" },
      to: { path: "^src/(runtime|adapters|cli)/" },
    },
    {
      name: "runtime-below-adapters-and-cli",
      comment: "The runtime boundary is a library layer; the MCP adapter and the CLI use it, never the reverse.",
      severity: "error",
      from: { path: "^src/runtime/" },
      to: { path: "^src/(adapters|cli)/" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
};
