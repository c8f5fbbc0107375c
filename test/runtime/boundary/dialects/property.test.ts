/**
 * Property tests of the draft-07 upgrade over generated schemas (seeded, bounded): every `ok` result compiles,
 * and judges generated instances as ajv's draft-07 validator judges them on the original.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import fc from "fast-check";
import { compile, LimitError, upgradeDraft07Documents, type CompileOptions } from "../../../../src/index.js";
import { asDraft07ForAjv, draft07Pair, draft07Schema, instance, PAIR } from "./arbitraries.js";
import { run } from "./helpers.js";

const SEED = 1402;
/** What external references name: documents the host would register (all the same, accepting anything). */
const EXTERNAL = { definitions: { a: {} } };
const options = { schemaLoader: () => EXTERNAL };

test("property: every `ok` upgrade of a generated draft-07 schema compiles", (t) => {
  let ok = 0;
  let runs = 0;
  fc.assert(
    fc.property(draft07Schema, (schema) => {
      runs++;
      const result = run(schema);
      if (!result.ok) return;
      ok++;
      try {
        compile(result.value.schema, options);
      } catch (error) {
        assert.fail(`${(error as Error).message}\nupgraded: ${JSON.stringify(result.value.schema)}`);
      }
    }),
    { seed: SEED, numRuns: 400 },
  );
  t.diagnostic(`${ok} of ${runs} generated schemas upgraded`);
  assert.ok(ok >= runs / 4, `too few upgrades to mean anything: ${ok} of ${runs}`);
});

const ajv = new Ajv({ strict: false, logger: false, validateFormats: false });

/**
 * Ajv's verdicts on `schema` (or on the document of `documents` it names), or undefined where ajv cannot
 * judge (a schema it rejects, recursion without end).
 */
function ajvVerdicts(schema: unknown, instances: readonly unknown[], documents: Record<string, unknown> = {}) {
  try {
    ajv.removeSchema(); // forget the previous case's documents
    ajv.addSchema(EXTERNAL, "other.json");
    ajv.addSchema(EXTERNAL, "https://example.com/emb.json");
    for (const [uri, document] of Object.entries(documents)) ajv.addSchema(asDraft07ForAjv(document) as object, uri);
    const validate =
      typeof schema === "string" ? ajv.getSchema(schema) : ajv.compile(asDraft07ForAjv(schema) as object);
    if (validate === undefined) return undefined;
    return instances.map((i) => validate(i) as boolean);
  } catch {
    return undefined;
  }
}

function ourVerdicts(schema: unknown, instances: readonly unknown[], more: CompileOptions = {}) {
  const validator = compile(schema, { ...options, ...more });
  try {
    return instances.map((i) => validator.isValid(i));
  } catch (error) {
    if (error instanceof LimitError) return undefined; // e.g. `allOf: [{ $ref: "#" }]` recurses without end
    throw error;
  }
}

test("property: an upgraded schema keeps ajv's draft-07 verdict on generated instances (differential)", (t) => {
  let compared = 0;
  let runs = 0;
  fc.assert(
    fc.property(draft07Schema, fc.array(instance, { minLength: 4, maxLength: 8 }), (schema, instances) => {
      runs++;
      const result = run(schema);
      if (!result.ok) return;
      const expected = ajvVerdicts(schema, instances);
      const actual = ourVerdicts(result.value.schema, instances);
      if (expected === undefined || actual === undefined) return;
      compared++;
      assert.deepEqual(actual, expected, `upgraded: ${JSON.stringify(result.value.schema)}`);
    }),
    { seed: SEED, numRuns: 300 },
  );
  t.diagnostic(`${compared} of ${runs} generated schemas compared with ajv`);
  assert.ok(compared >= runs / 5, `too few comparisons to mean anything: ${compared} of ${runs}`);
});

test("property: documents upgraded together keep ajv's verdicts across their references (differential)", (t) => {
  let compared = 0;
  let runs = 0;
  fc.assert(
    fc.property(draft07Pair, fc.array(instance, { minLength: 4, maxLength: 8 }), ({ a, b }, instances) => {
      runs++;
      const result = upgradeDraft07Documents({ [PAIR.a]: a, [PAIR.b]: b });
      if (!result.ok) return;
      const upgradedA = result.value.get(PAIR.a)?.schema;
      const upgradedB = result.value.get(PAIR.b)?.schema;
      const registry = { schemaRegistry: { [PAIR.a]: upgradedA }, baseUri: PAIR.b };
      const expected = ajvVerdicts(PAIR.b, instances, { [PAIR.a]: a, [PAIR.b]: b });
      const actual = ourVerdicts(upgradedB, instances, registry);
      if (expected === undefined || actual === undefined) return;
      compared++;
      assert.deepEqual(actual, expected, `upgraded: ${JSON.stringify([...result.value])}`);
    }),
    { seed: SEED, numRuns: 150 },
  );
  t.diagnostic(`${compared} of ${runs} generated document pairs compared with ajv`);
  assert.ok(compared >= runs / 5, `too few comparisons to mean anything: ${compared} of ${runs}`);
});
