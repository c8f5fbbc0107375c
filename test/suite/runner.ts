/**
 * Runs files in the official suite's format as Node tests: one `test` per suite test, through the
 * public `compile`, checking `isValid` and `validate(...).valid` agree with the expectation.
 * Deviations are listed by prefix with a reason; an expected failure that passes, or an unused
 * exception, fails the run. Refusals are listed the same way, and the schema of each must be refused by `compile` as
 * `unsupported_capability` (an older dialect's construct the upgrade cannot translate exactly).
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as source from "../../src/index.js";
import type { CompileOptions } from "../../src/index.js";

export interface SuiteTest {
  description: string;
  data?: unknown;
  valid?: boolean;
  error?: string;
  dataGenerator?: Record<string, unknown>;
}

export interface SuiteCase {
  description: string;
  schema?: unknown;
  schemaGenerator?: Record<string, unknown>;
  schemaError?: string;
  tests: SuiteTest[];
}

/** Prefix (`file`, `file::case`, or `file::case::test`) → one-line reason citing the spec or the docs. */
export type Exceptions = ReadonlyMap<string, string>;

/** What the runner needs of the library: the sources by default, or a build of them (the vendored file). */
export type Library = Pick<typeof source, "compile" | "SchemaError">;

export interface RunOptions {
  options: CompileOptions;
  library?: Library;
  exceptions?: Exceptions;
  /** Tests whose schema `compile` must refuse as `unsupported_capability`, by prefix, with the reason. */
  refusals?: Exceptions;
  /** Builds instances/schemas too large to store (fixtures/hostile). */
  generate?: (spec: Record<string, unknown>) => unknown;
  /** Rewrites each case's schema before it is compiled (the suite under a custom meta-schema). */
  prepare?: (schema: unknown) => unknown;
  /** Counts each test as it passes, for a run that prints what it came to (test/suite/legacy.ts). */
  tally?: Tally;
}

/** What a run's tests came to, each counted once it has passed: as expected, refused as listed, or a listed deviation. */
export interface Tally {
  passed: number;
  refused: number;
  deviations: number;
}

/** A tally of nothing yet. */
export function tally(): Tally {
  return { passed: 0, refused: 0, deviations: 0 };
}

/** Counts a passed test whose listed reason (a deviation) is `reason`, if any. */
function counted(run: RunOptions, reason: string | undefined): void {
  if (run.tally === undefined) return;
  if (reason === undefined) run.tally.passed++;
  else run.tally.deviations++;
}

/** Listed tests: `case: []` lists a whole case, `case: [test, …]` some of its tests; each with the reason. */
export function deviations(reason: string, file: string, cases: Record<string, string[]>): [string, string][] {
  return Object.entries(cases).flatMap(([c, ts]) =>
    ts.length === 0 ? [[`${file}::${c}`, reason]] : ts.map((t): [string, string] => [`${file}::${c}::${t}`, reason]),
  );
}

/**
 * The tests of optional/dependencies-compatibility (2019-09 and 2020-12 alike) that fail where `dependencies` is
 * only the unknown keyword the specification makes it.
 */
export const DEPENDENCIES_COMPATIBILITY: Record<string, string[]> = {
  "single dependency": ["missing dependency"],
  "multiple dependents required": ["missing dependency", "missing other dependency", "missing both dependencies"],
  "dependencies with escaped characters": ["CRLF missing dependent", "quoted quotes missing dependent"],
  "single schema dependency": ["wrong type", "wrong type other", "wrong type both"],
  "boolean subschemas": [
    "object with property having schema false is invalid",
    "object with both properties is invalid",
  ],
  "schema dependencies with escaped characters": [
    "quoted quote",
    "quoted tab invalid under dependent schema",
    "quoted quote invalid under dependent schema",
  ],
};

export function readCases(path: string): SuiteCase[] {
  return JSON.parse(readFileSync(path, "utf8")) as SuiteCase[];
}

export function runSuiteFiles(root: string, files: readonly string[], run: RunOptions): void {
  const exceptionFor = prefixLookup(run.exceptions, "exceptions");
  const refusalFor = prefixLookup(run.refusals, "refusals");
  for (const file of files) {
    const name = file.replace(/\.json$/, "");
    describe(name, () => {
      for (const suiteCase of readCases(join(root, file))) runCase(name, suiteCase, run, exceptionFor, refusalFor);
    });
  }
}

/** Finds the reason listed for a test key (`file`, `file::case` or `file::case::test` prefixes); unused is an error. */
function prefixLookup(listed: Exceptions | undefined, what: string): (key: string) => string | undefined {
  const entries = listed ?? new Map<string, string>();
  const used = new Set<string>();
  if (entries.size > 0) {
    after(() => {
      const unused = [...entries.keys()].filter((k) => !used.has(k));
      assert.deepEqual(unused, [], `${what} that match no test: ${unused.join(", ")}`);
    });
  }
  return (key) => {
    for (const [prefix, reason] of entries) {
      if (key === prefix || key.startsWith(prefix + "::")) {
        used.add(prefix);
        return reason;
      }
    }
    return undefined;
  };
}

function runCase(
  file: string,
  suiteCase: SuiteCase,
  run: RunOptions,
  exceptionFor: (key: string) => string | undefined,
  refusalFor: (key: string) => string | undefined,
): void {
  const { compile, SchemaError } = run.library ?? source;
  describe(suiteCase.description, () => {
    const given = suiteCase.schemaGenerator !== undefined ? run.generate!(suiteCase.schemaGenerator) : suiteCase.schema;
    const schema = run.prepare === undefined ? given : run.prepare(given);
    const caseKey = `${file}::${suiteCase.description}`;
    if (suiteCase.schemaError !== undefined) {
      test("schema is refused as " + suiteCase.schemaError, () => {
        expectOutcome(exceptionFor(caseKey), () => {
          assert.throws(
            () => compile(schema, run.options),
            (e: unknown) => e instanceof SchemaError && e.class === suiteCase.schemaError,
          );
        });
        counted(run, exceptionFor(caseKey));
      });
    }
    for (const t of suiteCase.tests) {
      const key = `${caseKey}::${t.description}`;
      const refusal = refusalFor(key);
      if (refusal !== undefined) {
        test(t.description, () => {
          const refused = (e: unknown): boolean => e instanceof SchemaError && e.class === "unsupported_capability";
          const message = `listed as refused (${refusal}) but compile does not refuse it as unsupported_capability`;
          assert.throws(() => compile(schema, run.options), refused, message);
          if (run.tally !== undefined) run.tally.refused++;
        });
        continue;
      }
      test(t.description, () => {
        expectOutcome(exceptionFor(key), () => {
          const validator = compile(schema, run.options);
          const data = t.dataGenerator !== undefined ? run.generate!(t.dataGenerator) : t.data;
          if (t.error !== undefined) {
            const refused = (e: unknown): boolean => e instanceof SchemaError && e.class === t.error;
            assert.throws(() => validator.isValid(data), refused);
            assert.throws(() => validator.validate(data), refused);
            return;
          }
          assert.equal(validator.isValid(data), t.valid, "isValid");
          const output = validator.validate(data);
          assert.equal(output.valid, t.valid, "validate().valid");
          if (!output.valid) assert.ok((output.errors ?? []).length > 0, "an invalid result carries errors");
        });
        counted(run, exceptionFor(key));
      });
    }
  });
}

/** Runs a check; when an exception is listed, the check must fail (and passing is reported). */
function expectOutcome(reason: string | undefined, check: () => void): void {
  if (reason === undefined) {
    check();
    return;
  }
  let failed = false;
  try {
    check();
  } catch {
    failed = true;
  }
  assert.ok(failed, `listed as an expected deviation (${reason}) but it passes: remove the exception`);
}
