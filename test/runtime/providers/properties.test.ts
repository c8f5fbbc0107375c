/**
 * Property tests of the provider checks (seeded, bounded), over generated tool schemas and instances generated near
 * each schema's edges: for every profile, a `fits` tool is sent as the very same schema; a `translated` one judges
 * every instance as the original does (exact); a `widened` one, only with `widen: true`, never refuses an instance
 * the original accepts (superset). Verdicts come from the engine's `compile`; Gemini `parameters` are read back into
 * 2020-12 by `fromOpenApi`. The output schema's report is held to the same promises.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkTool, compile, profiles, type ToolOutcome } from "../../../src/index.js";
import { closed, toolSchema, translatableSchema } from "./arbitraries.js";
import { asJsonSchema, disagreements, instancesFor, plain, sentSchema } from "./verdicts.js";

const SEED = 2026;

/** A schema (as JSON.parse would make it) and instances near its edges. */
const withInstances = (schemas: fc.Arbitrary<unknown>) =>
  schemas
    .map((s) => plain(s))
    .chain((schema) => fc.tuple(fc.constant(schema), fc.array(instancesFor(schema), { minLength: 12, maxLength: 12 })));
const RUNS = 250;

/** Outcome counts by `profile widen outcome`, so each run shows it exercised every outcome. */
type Counts = Map<string, number>;

function compiles(schema: unknown): boolean {
  try {
    compile(schema);
    return true;
  } catch {
    return false;
  }
}

function holds(
  outcome: ToolOutcome,
  original: unknown,
  sent: unknown,
  instances: readonly unknown[],
  input: boolean,
  widen: boolean,
) {
  if (outcome === "refused" || outcome === "fits") return;
  assert.ok(compiles(sent), `the sent schema does not compile: ${JSON.stringify(sent)}`);
  if (outcome === "widened") assert.ok(widen, "widened without widen: true");
  const mode = outcome === "translated" ? "exact" : "superset";
  const bad = disagreements(original, sent, instances, mode, input);
  assert.deepEqual(bad, [], `${outcome}: ${JSON.stringify(original)}\nsent: ${JSON.stringify(sent)}`);
}

/** Every profile, with and without widening, on one schema and its instances; `changes` counts exact rewrites. */
function checkAll(schema: unknown, instances: readonly unknown[], seen: Counts, changes?: Counts): void {
  for (const profile of profiles.values()) {
    for (const widen of [false, true]) {
      const check = checkTool({ name: "t", inputSchema: schema, outputSchema: schema }, profile, { widen });
      const key = `${profile.id} widen=${widen} ${check.outcome}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (check.outcome === "fits") assert.equal(sentSchema(check.tool), schema);
      if (check.outcome === "translated") {
        assert.ok(check.changes.every((c) => c.kind === "exact"));
        for (const c of check.changes) changes?.set(c.change, (changes.get(c.change) ?? 0) + 1);
      }
      if (check.outcome !== "refused") {
        const sent = asJsonSchema(sentSchema(check.tool), profile.format);
        holds(check.outcome, schema, sent, instances, true, widen);
      }
      const output = check.output;
      assert.ok(output !== undefined);
      if (output.outcome === "fits") assert.equal(output.schema, schema);
      if (output.outcome !== "refused" && output.outcome !== "fits")
        holds(output.outcome, schema, asJsonSchema(output.schema, profile.format), instances, false, widen);
    }
  }
}

/** Prints the counts and asserts enough of each outcome for the profiles the run is meant for. */
function report(t: { diagnostic(message: string): void }, seen: Counts, strict: boolean): void {
  for (const [key, n] of [...seen].sort(([a], [b]) => (a < b ? -1 : 1))) t.diagnostic(`${key}: ${n}`);
  for (const profile of profiles.values()) {
    if (profile.strict !== strict) continue;
    const n = (outcome: string, widen: boolean) => seen.get(`${profile.id} widen=${widen} ${outcome}`) ?? 0;
    assert.ok(n("translated", false) >= 10, `${profile.id}: too few translated schemas to mean anything`);
    if (profile.keywords !== "any") assert.ok(n("widened", true) >= 10, `${profile.id}: too few widened schemas`);
    assert.equal(n("widened", false), 0, `${profile.id}: widened without widen: true`);
  }
}

test("property: fits is the same object, translated is exact, widened is a superset (every profile)", (t) => {
  const seen: Counts = new Map();
  fc.assert(
    fc.property(withInstances(toolSchema), ([schema, instances]) => {
      if (compiles(schema)) checkAll(schema, plain(instances), seen);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  report(t, seen, false);
});

test("property: the same on schemas whose objects are all closed and required (what strict profiles take)", (t) => {
  const seen: Counts = new Map();
  fc.assert(
    fc.property(withInstances(toolSchema.map(closed)), ([schema, instances]) => {
      if (compiles(schema)) checkAll(schema, plain(instances), seen);
    }),
    { seed: SEED + 1, numRuns: RUNS },
  );
  report(t, seen, true);
});

/** The exact rewrites, each of which the next run must exercise in tools whose outcome is `translated`. */
const EXACT_CHANGES = [
  "const-to-enum",
  "exclusive-to-inclusive",
  "type-null-to-nullable",
  "null-type-unreachable",
  "type-array-to-anyof",
  "type-array-unwrapped",
  "anyof-null-to-nullable",
  "anyof-siblings-distributed",
  "ref-inlined",
  "ref-sibling-dropped",
  "oneof-to-anyof",
  "allof-merged",
  "format-dropped",
  "annotation-dropped",
  "unknown-keyword-dropped",
  "foreign-keyword-dropped",
  "inert-keyword-dropped",
  "additional-properties-dropped",
  "true-to-empty",
  "root-type-added",
  "root-type-unwrapped",
  "root-id-dropped",
  "definitions-dropped",
  "unused-definition-dropped",
];

test("property: every exact rewrite keeps every verdict, on schemas made of what can be rewritten exactly", (t) => {
  const seen: Counts = new Map();
  const changes: Counts = new Map();
  fc.assert(
    fc.property(withInstances(fc.oneof(translatableSchema, translatableSchema.map(closed))), ([schema, instances]) => {
      if (compiles(schema)) checkAll(schema, plain(instances), seen, changes);
    }),
    { seed: SEED + 2, numRuns: RUNS },
  );
  for (const [change, n] of [...changes].sort()) t.diagnostic(`${change}: ${n}`);
  for (const change of EXACT_CHANGES) assert.ok((changes.get(change) ?? 0) >= 3, `${change} exercised too rarely`);
});
