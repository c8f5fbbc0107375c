/**
 * Property tests of the upgrade of draft-04, draft-06 and 2019-09 over generated schemas (seeded, bounded): every
 * `ok` result compiles, and judges generated instances as @hyperjump/json-schema's validator of that draft judges
 * the original (a differential oracle that implements each draft on its own). The generator is the draft-07 one,
 * turned into each draft: draft-04 spells `id` and bounds exclusively with booleans, 2019-09 names anchors with
 * `$anchor`; the keywords a draft does not define stay in, to check they are dropped.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as draft04 from "@hyperjump/json-schema/draft-04";
import * as draft06 from "@hyperjump/json-schema/draft-06";
import * as draft2019 from "@hyperjump/json-schema/draft-2019-09";
import { compile, LimitError, SchemaError, upgradeLegacySchema, type LegacyDialect } from "../../../../src/index.js";
import { draft07Schema, instance } from "./arbitraries.js";
import { deepFreeze } from "./helpers.js";

const SEED = 3304;

const DECLARED: Record<Exclude<LegacyDialect, "draft-07">, string> = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
};

const HYPERJUMP = { "draft-04": draft04, "draft-06": draft06, "2019-09": draft2019 } as const;

type Node = Record<string, unknown>;

/** Rewrites every object of a generated document (data values included: both validators see the same ones). */
function mapObjects(value: unknown, f: (node: Node) => Node): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, f));
  if (typeof value !== "object" || value === null) return value;
  const out: Node = {};
  for (const [key, child] of Object.entries(value)) out[key] = mapObjects(child, f);
  return f(out);
}

/** Keywords whose values (or members) are subschemas in the generated documents. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "items"]);
const SCHEMA_ONE = new Set(["items", "contains", "propertyNames", "not", "if", "then", "else"]);

/** Draft-04 has no boolean schemas (but under additionalItems / additionalProperties): `{}` and `{ not: {} }`. */
function objectSchemas(node: Node): Node {
  const schema = (v: unknown): unknown => (v === true ? {} : v === false ? { not: {} } : v);
  const out = { ...node };
  for (const [key, value] of Object.entries(out)) {
    if (SCHEMA_ONE.has(key)) out[key] = schema(value);
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(schema);
    if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : schema(v)]));
    }
  }
  return out;
}

/** The generated draft-07 document, as a document of `dialect`. */
function asDialect(dialect: keyof typeof DECLARED, generated: unknown): unknown {
  return mapObjects(generated, (node) => {
    const out = dialect === "draft-04" ? objectSchemas(node) : { ...node };
    if (out.$schema !== undefined) out.$schema = DECLARED[dialect];
    if (dialect === "draft-04") {
      if (out.$id !== undefined) {
        out.id = out.$id;
        delete out.$id;
      }
      // Draft-04 bounds exclusively with a boolean beside the bound (Validation draft-04 §5.1.2).
      for (const [exclusive, bound] of [
        ["exclusiveMaximum", "maximum"],
        ["exclusiveMinimum", "minimum"],
      ] as const) {
        if (typeof out[exclusive] !== "number") continue;
        if (out[bound] === undefined) {
          out[bound] = out[exclusive];
          out[exclusive] = true;
        } else delete out[exclusive];
      }
    }
    if (dialect === "2019-09" && typeof out.$id === "string" && /^#[^/]/.test(out.$id)) {
      out.$anchor = out.$id.slice(1);
      delete out.$id;
    }
    return out;
  });
}

let counter = 0;

/** Hyperjump's verdicts on the original, or undefined for a schema it refuses or a reference it cannot resolve. */
async function theirVerdicts(
  dialect: keyof typeof DECLARED,
  schema: unknown,
  instances: readonly unknown[],
  uri: string,
): Promise<boolean[] | undefined> {
  const hyperjump = HYPERJUMP[dialect];
  try {
    hyperjump.registerSchema(schema as never, uri);
    const run = await hyperjump.validate(uri);
    return instances.map((i) => run(i as never).valid);
  } catch {
    return undefined;
  } finally {
    try {
      hyperjump.unregisterSchema(uri);
    } catch {
      // never registered
    }
  }
}

/** What external references name: documents the host would register (all the same, accepting anything). */
const EXTERNAL = { definitions: { a: {} }, $defs: { a: {} } };

function ourVerdicts(schema: unknown, instances: readonly unknown[], baseUri: string): boolean[] | undefined {
  const validator = compile(schema, { baseUri, schemaLoader: () => EXTERNAL });
  try {
    return instances.map((i) => validator.isValid(i));
  } catch (error) {
    if (error instanceof LimitError) return undefined; // recursion without end
    throw error;
  }
}

for (const dialect of Object.keys(DECLARED) as (keyof typeof DECLARED)[]) {
  test(`property: an upgraded ${dialect} schema compiles and keeps hyperjump's ${dialect} verdicts`, async (t) => {
    let upgraded = 0;
    let compared = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(draft07Schema, fc.array(instance, { minLength: 4, maxLength: 8 }), async (generated, inst) => {
        runs++;
        const schema = deepFreeze(asDialect(dialect, generated));
        const result = upgradeLegacySchema(schema, { dialect });
        if (!result.ok) return;
        upgraded++;
        const uri = `https://legacy.test/hj${counter++}/root.json`;
        let ours: boolean[] | undefined;
        try {
          ours = ourVerdicts(result.value.schema, inst, uri);
        } catch (error) {
          // The upgrade checks what it translates; deeper values only the 2020-12 meta-schema checks. Such a schema
          // must be invalid in its own draft as well: hyperjump refuses it too.
          const invalid = error instanceof SchemaError && error.code === "schema_invalid";
          const refusedThere = invalid && (await theirVerdicts(dialect, schema, inst, uri)) === undefined;
          if (!refusedThere) {
            assert.fail(`${(error as Error).message}\nupgraded: ${JSON.stringify(result.value.schema)}`);
          }
          return;
        }
        // A reference loop without end: hyperjump's recursion would overflow the stack; nothing to compare.
        if (ours === undefined) return;
        const theirs = await theirVerdicts(dialect, schema, inst, uri);
        if (theirs === undefined) return;
        compared++;
        const context = `original: ${JSON.stringify(schema)}\nupgraded: ${JSON.stringify(result.value.schema)}`;
        assert.deepEqual(ours, theirs, `${context}\ninstances: ${JSON.stringify(inst)}`);
      }),
      { seed: SEED, numRuns: 250 },
    );
    t.diagnostic(`${upgraded} of ${runs} upgraded, ${compared} compared with hyperjump`);
    assert.ok(compared >= runs / 6, `too few comparisons to mean anything: ${compared} of ${runs}`);
  });
}
