/**
 * Runs files in the official suite's format as Node tests: one `test` per suite test, through the
 * public `compile`, checking `isValid` and `validate(...).valid` agree with the expectation.
 * Deviations are listed by prefix with a reason; an expected failure that passes, or an unused
 * exception, fails the run.
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
  /** Builds instances/schemas too large to store (fixtures/hostile). */
  generate?: (spec: Record<string, unknown>) => unknown;
  /** Rewrites each case's schema before it is compiled (the suite under a custom meta-schema). */
  prepare?: (schema: unknown) => unknown;
}

export function readCases(path: string): SuiteCase[] {
  return JSON.parse(readFileSync(path, "utf8")) as SuiteCase[];
}

export function runSuiteFiles(root: string, files: readonly string[], run: RunOptions): void {
  const exceptions = run.exceptions ?? new Map<string, string>();
  const used = new Set<string>();
  const exceptionFor = (key: string): string | undefined => {
    for (const [prefix, reason] of exceptions) {
      if (key === prefix || key.startsWith(prefix + "::")) {
        used.add(prefix);
        return reason;
      }
    }
    return undefined;
  };
  for (const file of files) {
    const name = file.replace(/\.json$/, "");
    describe(name, () => {
      for (const suiteCase of readCases(join(root, file))) runCase(name, suiteCase, run, exceptionFor);
    });
  }
  if (exceptions.size > 0) {
    after(() => {
      const unused = [...exceptions.keys()].filter((k) => !used.has(k));
      assert.deepEqual(unused, [], `exceptions that match no test: ${unused.join(", ")}`);
    });
  }
}

function runCase(
  file: string,
  suiteCase: SuiteCase,
  run: RunOptions,
  exceptionFor: (key: string) => string | undefined,
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
      });
    }
    for (const t of suiteCase.tests) {
      const key = `${caseKey}::${t.description}`;
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
