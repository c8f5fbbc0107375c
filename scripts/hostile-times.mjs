// The fixtures/hostile cases timed one by one, for the fuzz report: each must answer (the expected verdict, the
// expected refusal, or an execution_failure) in well under a second. `npm test` checks the answers; a test never
// asserts time, so the time is measured here.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { compile, SchemaError } from "../build/src/index.js";
import { generate } from "../build/test/suite/generators.js";
import { jsonFiles } from "../build/test/suite/locate.js";
import { readCases } from "../build/test/suite/runner.js";

/** What "well under a second" means in the report: a case at or above it fails the fuzz run. */
export const HOSTILE_BUDGET_MS = 250;

/**
 * Times compile + `isValid` + `validate` for every test of every case (values built by a generator are built before
 * the clock starts). Returns one row per test: { id, ms, answer, expected, ok }.
 */
export function timeHostileCases(dir) {
  const rows = [];
  for (const file of jsonFiles(dir, false)) {
    for (const c of readCases(join(dir, file))) {
      const schema = c.schemaGenerator !== undefined ? generate(c.schemaGenerator) : c.schema;
      for (const t of c.tests) {
        const data = t.dataGenerator !== undefined ? generate(t.dataGenerator) : t.data;
        const expected = t.error ?? c.schemaError ?? t.valid;
        const start = performance.now();
        const answer = answerOf(schema, data);
        const ms = performance.now() - start;
        const ok = answer === expected || answer === "execution_failure";
        rows.push({ id: `${file}::${c.description}::${t.description}`, ms, answer, expected, ok });
      }
    }
  }
  return rows;
}

/** The verdict (both paths must agree), or the class of the error that refused the schema or the instance. */
function answerOf(schema, data) {
  try {
    const validator = compile(schema, {});
    const verdict = validator.isValid(data);
    return validator.validate(data).valid === verdict ? verdict : "paths disagree";
  } catch (e) {
    if (e instanceof SchemaError) return e.class;
    throw e;
  }
}

/** The report's lines and whether every case answered as expected within the budget. */
export function hostileReport(dir) {
  const rows = timeHostileCases(dir);
  const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 3);
  const late = rows.filter((r) => r.ms >= HOSTILE_BUDGET_MS);
  const wrong = rows.filter((r) => !r.ok);
  const lines = [
    `hostile fixtures: ${rows.length} tests, each compiled and answered on both paths; slowest ` +
      slowest.map((r) => `${r.ms.toFixed(1)} ms (${r.id})`).join(", "),
    `hostile fixtures at or over ${HOSTILE_BUDGET_MS} ms: ${late.length}; answered otherwise than expected: ` +
      `${wrong.length}` +
      wrong.map((r) => `\n  ${r.id}: ${String(r.answer)}, expected ${String(r.expected)}`).join(""),
  ];
  return { lines, failed: late.length + wrong.length > 0 };
}
