// Shared shape of the per-format tests: hand-picked verdicts, then 1 MB hostile strings (verdict only).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

export interface FormatCases {
  readonly valid: readonly string[];
  readonly invalid: readonly string[];
  readonly hostile: readonly (readonly [string, boolean])[];
}

export const MB = 1_000_000;

export function describeFormat(name: string, check: (value: string) => boolean, cases: FormatCases): void {
  describe(name, () => {
    test("accepts the RFC examples and grammar corners", () => {
      for (const value of cases.valid) assert.equal(check(value), true, JSON.stringify(value));
    });
    test("rejects strings outside the grammar", () => {
      for (const value of cases.invalid) assert.equal(check(value), false, JSON.stringify(value));
    });
    test("answers 1 MB hostile strings", () => {
      for (const [value, expected] of cases.hostile) {
        assert.equal(check(value), expected, `${JSON.stringify(value.slice(0, 24))}… (${value.length})`);
      }
    });
  });
}
