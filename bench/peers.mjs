// Adapters: one per library, all exposing the same small surface.
//   compile(schema) -> (instance) => boolean          (async when `async`; the library's own function where its API
//                                                        answers a boolean, so no shared wrapper sits in the timing)
//   compileFresh(schema) -> anything                    (timed; must not hit a cache; hyperjump's is async)
//   metaValidator() -> (instance) => boolean            (the 2020-12 meta-schema)
//   boundary(schema) -> (args) => boolean               (this library only: the tool-call boundary, InputSchema)
// Remotes of the official suite are registered with every library that has a registry.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { DRAFT_2020_12, REPO } from "./data.mjs";

const require = createRequire(import.meta.url);
const mentionsRemote = (schema) =>
  typeof schema === "object" && schema !== null && JSON.stringify(schema).includes("localhost:1234");
let fresh = 0;

/** The 2020-12 meta-schema documents, for the libraries without them built in (taken from ajv's package: same JSON). */
function metaSchemaDocuments() {
  const dir = "ajv/dist/refs/json-schema-2020-12/";
  return [
    require(dir + "schema.json"),
    ...["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content"].map((m) =>
      require(`${dir}meta/${m}.json`),
    ),
  ];
}

/** The library under test: dist/ (what `npm run bench` builds), or BENCH_ENGINE (the bench test uses build/). */
export const loadEngine = () => import(pathToFileURL(process.env.BENCH_ENGINE || join(REPO, "dist", "index.js")).href);

/** A validator's `isValid`, bound: its own where it has one, else the prototype's bound here. */
const isValidOf = (v) => (Object.hasOwn(v, "isValid") ? v.isValid : v.isValid.bind(v));

/**
 * A build of this library: `compile(schema)`, then `validator.isValid` (bound); for the boundary workloads,
 * `InputSchema.validateSchema(schema, { formatAssertion: false })`, then `validate(args).ok`.
 */
async function engine(remotes, name, note, module) {
  const { compile, InputSchema } = await module;
  const registry = new Map(remotes);
  const opts = (schema) => (mentionsRemote(schema) ? { schemaRegistry: registry } : {});
  return {
    name,
    note,
    // The build itself, for the gateway's per-call path (invoke.mjs).
    module,
    // isValid as the build gives it: an own bound function where the validator has one (its methods are bound since
    // issue 43), else the prototype's method bound here (the builds before).
    compile: (schema) => isValidOf(compile(schema, opts(schema))),
    boundary: (schema) => {
      const compiled = InputSchema.validateSchema(schema, { formatAssertion: false, ...opts(schema) });
      if (!compiled.ok) throw new Error(compiled.error.message);
      const tool = compiled.value;
      return (args) => tool.validate(args).ok;
    },
    compileFresh: (schema) => compile(schema, opts(schema)),
    metaValidator: () => isValidOf(compile({ $ref: DRAFT_2020_12 })),
  };
}

const ours = (remotes) =>
  engine(
    remotes,
    "ours",
    "backplane-agent-runtime from dist/: compile(schema), then validator.isValid (its own bound function)",
    loadEngine(),
  );

/**
 * Another build of this library beside ours, so that one run compares the two (an earlier commit's dist/, built in a
 * worktree of its own): BENCH_BASELINE is the path to its dist/index.js.
 */
const baseline = (remotes) =>
  engine(
    remotes,
    "baseline",
    `backplane-agent-runtime from ${process.env.BENCH_BASELINE}: compile(schema), then validator.isValid (its own, or bound)`,
    import(pathToFileURL(process.env.BENCH_BASELINE).href),
  );

async function ajv(remotes) {
  const { default: Ajv2020 } = await import("ajv/dist/2020.js");
  const ajv = new Ajv2020({ strict: false, logger: false });
  // Registered unchecked (the 4th argument), so loading ajv does not compile its meta-schema: a cold process pays
  // that on its first compile, as it would without remotes.
  for (const [uri, s] of remotes) {
    try {
      ajv.addSchema(s, uri, undefined, false);
    } catch {
      /* other drafts: not registrable in Ajv2020 */
    }
  }
  const compileOnce = (schema) => {
    try {
      return ajv.compile(schema);
    } finally {
      if (typeof schema === "object" && schema !== null) ajv.removeSchema(schema);
    }
  };
  return {
    name: "ajv",
    note:
      "Ajv2020 { strict: false }, no ajv-formats; one instance, compile() then removeSchema(schema) " +
      "so every compile starts from scratch; the generated function is called directly",
    compile: (schema) => compileOnce(schema),
    compileFresh: (schema) => compileOnce(schema),
    metaValidator: () => ajv.getSchema(DRAFT_2020_12),
  };
}

/**
 * ajv with this library's rule for values that are not JSON data (bench/json-rule.mjs) after its generated function:
 * what the rule costs generated code. BENCH_JSON_RULE=1 adds it; its ratios are to plain ajv as every library's are.
 */
async function ajvJson(remotes) {
  const { isJsonData } = await import("./json-rule.mjs");
  const plain = await ajv(remotes);
  const ruled = (validate) => (instance) => validate(instance) && isJsonData(instance);
  const compile = (schema) => ruled(plain.compile(schema));
  return {
    name: "ajv+json",
    note: "ajv as above, then bench/json-rule.mjs (every value JSON data, as this library requires) on what it accepts",
    compile,
    compileFresh: compile,
    metaValidator: () => ruled(plain.metaValidator()),
  };
}

async function schemasafe(remotes) {
  const { validator } = await import("@exodus/schemasafe");
  const base = { mode: "spec", $schemaDefault: DRAFT_2020_12, formatAssertion: false, contentValidation: false };
  const withRemotes = {
    ...base,
    schemas: new Map(
      [...remotes].filter(([, s]) => s && (s.$schema === undefined || String(s.$schema).includes("2020-12"))),
    ),
  };
  const make = (schema) => validator(schema, mentionsRemote(schema) ? withRemotes : base);
  return {
    name: "schemasafe",
    note:
      "validator(schema, { mode: 'spec', $schemaDefault: 2020-12, formatAssertion: false, " +
      "contentValidation: false }); the generated function is called directly",
    compile: make,
    compileFresh: make,
    // schemasafe has no built-in 2020-12 meta-schema: the documents are taken from ajv's package (same JSON)
    metaValidator: () => {
      return validator({ $ref: DRAFT_2020_12 }, { ...base, schemas: metaSchemaDocuments() });
    },
  };
}

async function hyperjump(remotes) {
  const hj = await import("@hyperjump/json-schema/draft-2020-12");
  for (const [uri, s] of remotes) {
    try {
      hj.registerSchema(s, uri, DRAFT_2020_12);
    } catch {
      /* other drafts */
    }
  }
  const compile = async (schema) => {
    const uri = `https://bench.invalid/schema/${++fresh}`;
    hj.registerSchema(schema, uri, DRAFT_2020_12);
    try {
      return await hj.validate(uri);
    } finally {
      hj.unregisterSchema(uri);
    }
  };
  return {
    name: "hyperjump",
    note:
      "@hyperjump/json-schema/draft-2020-12: registerSchema under a fresh URI, await validate(uri) -> validator, " +
      "FLAG output (.valid)",
    async: true,
    compile: async (schema) => {
      const f = await compile(schema);
      return (x) => f(x).valid;
    },
    compileFresh: compile,
    metaValidator: async () => {
      const f = await hj.validate(DRAFT_2020_12);
      return (x) => f(x).valid;
    },
  };
}

async function cfworker(remotes) {
  const { Validator } = await import("@cfworker/json-schema");
  const make = (schema) => {
    const v = new Validator(schema, "2020-12", false);
    if (mentionsRemote(schema)) for (const [uri, s] of remotes) v.addSchema(s, uri);
    return v;
  };
  return {
    name: "cfworker",
    note:
      "new Validator(schema, '2020-12', false) (shortCircuit false: it collects every error); " +
      "addSchema per validator",
    compile: (schema) => {
      const v = make(schema);
      return (x) => v.validate(x).valid;
    },
    compileFresh: make,
    // cfworker has no built-in 2020-12 meta-schema: its documents are added with addSchema (from ajv's package)
    metaValidator: () => {
      const v = new Validator({ $ref: DRAFT_2020_12 }, "2020-12", false);
      for (const m of metaSchemaDocuments()) v.addSchema(m);
      return (x) => v.validate(x).valid;
    },
  };
}

/**
 * ata-validator has no option to turn code generation off: it probes `new Function` once per realm and, when the
 * probe fails (CSP, Workers, --disallow-code-generation-from-strings), answers every schema with its interpreted
 * engine. We make that one probe fail by hiding the global Function constructor while it runs, then restore it, so
 * ata behaves exactly as in an eval-free realm while ajv and schemasafe keep code generation in the same process.
 * Every ata validator is then compiled through validate() (the verdict-only path would try codegen lazily) and
 * checked to report engine() === "interpreter".
 */
async function ata(remotes) {
  const { Validator } = require("ata-validator");
  const RealFunction = globalThis.Function;
  globalThis.Function = function Function() {
    throw new EvalError("code generation from strings disallowed (bench)");
  };
  try {
    new Validator({ type: "integer" }, { assertFormat: false }).validate(1);
  } finally {
    globalThis.Function = RealFunction;
  }
  const remoteList = [...remotes]
    .filter(([, s]) => s && typeof s === "object" && (s.$schema === undefined || String(s.$schema).includes("2020-12")))
    .map(([uri, s]) => (s.$id ? s : { ...s, $id: uri }));
  const make = (schema) => {
    const opts = { assertFormat: false, abortEarly: true };
    if (mentionsRemote(schema)) opts.schemas = remoteList;
    // a fresh root object with a unique $comment defeats ata's identity and schema-string caches
    const s = typeof schema === "object" && schema !== null ? { ...schema, $comment: `bench ${++fresh}` } : schema;
    const v = new Validator(s, opts);
    v._ensureCompiled();
    if (v.engine() !== "interpreter") throw new Error(`ata engine is ${v.engine()}, not interpreter`);
    return v;
  };
  return {
    name: "ata",
    note:
      "ata-validator, eval-free interpreted engine (the codegen probe is made to fail; engine() checked), " +
      "{ assertFormat: false, abortEarly: true }, its isValidObject function",
    // after _ensureCompiled, isValidObject is an own arrow function that does not use `this`
    compile: (schema) => make(schema).isValidObject,
    compileFresh: make,
    metaValidator: () => make({ $ref: DRAFT_2020_12 }).isValidObject,
  };
}

export const PEERS = {
  ours,
  ...(process.env.BENCH_BASELINE ? { baseline } : {}),
  ajv,
  ...(process.env.BENCH_JSON_RULE === "1" ? { "ajv+json": ajvJson } : {}),
  schemasafe,
  hyperjump,
  cfworker,
  ata,
};

/**
 * Loads every library (or the named ones); one that cannot load is left out with the reason logged. Each gets its
 * own copy of the remote documents: a library may write onto the schemas it is given (cfworker adds a
 * non-enumerable `__absolute_uri__` to subschemas), which another then sees.
 */
export async function loadPeers(remotes, log, names = Object.keys(PEERS)) {
  const out = [];
  for (const id of names) {
    const load = PEERS[id];
    try {
      out.push(await load(new Map([...remotes].map(([uri, doc]) => [uri, JSON.parse(JSON.stringify(doc))]))));
    } catch (e) {
      log(`- ${id}: left out, could not be loaded (${e.message})`);
    }
  }
  return out;
}
