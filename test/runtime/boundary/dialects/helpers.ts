/** Shared helpers of the draft-07 upgrade tests: run on frozen input, unwrap results, list rules. */
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { compile, type CompileOptions } from "../../../../src/index.js";
import {
  upgradeDraft07,
  type UpgradeChange,
  type UpgradeResult,
} from "../../../../src/runtime/boundary/dialects/upgrade.js";

export const D07 = "http://json-schema.org/draft-07/schema#";
export const D2020 = "https://json-schema.org/draft/2020-12/schema";

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** Upgrades a deep-frozen copy and checks the input is unchanged afterwards. */
export function run(schema: unknown): UpgradeResult {
  const before = JSON.stringify(schema);
  const result = upgradeDraft07(deepFreeze(schema));
  assert.equal(JSON.stringify(schema), before, "input changed");
  return result;
}

export function upgraded(schema: unknown): { schema: unknown; changes: UpgradeChange[] } {
  const result = run(schema);
  if (!result.ok) assert.fail(`refused at "${result.error.schemaPointer}": ${result.error.message}`);
  return result.value;
}

export function refused(schema: unknown, pointer: string, pattern?: RegExp): string {
  const result = run(schema);
  if (result.ok) assert.fail(`expected a refusal, got ${JSON.stringify(result.value.schema)}`);
  assert.equal(result.error.class, "unsupported_capability");
  assert.equal(result.error.code, "upgrade_blocked");
  assert.equal(result.error.schemaPointer, pointer, result.error.message);
  if (pattern) assert.match(result.error.message, pattern);
  return result.error.message;
}

export const rules = (changes: readonly UpgradeChange[]): string[] => changes.map((c) => `${c.rule} ${c.pointer}`);

/** Our verdicts, on the upgraded schema, for each instance (compiling it is part of the check). */
export function verdicts(schema: unknown, instances: readonly unknown[], options: CompileOptions = {}): boolean[] {
  const validator = compile(schema, options);
  return instances.map((instance) => validator.isValid(instance));
}

/**
 * Draft-07 verdicts from ajv 8 (`Ajv` is its draft-07 class). ajv departs from draft-07 where the spec
 * says keywords beside `$ref` are ignored (Core draft-07 §8.3) and where it reads `$anchor`: callers
 * compare only schemas without those.
 */
export function draft07Verdicts(
  schema: unknown,
  instances: readonly unknown[],
  documents: { uri?: string; others?: [string, unknown][] } = {},
): boolean[] {
  const ajv = new Ajv({ strict: false, logger: false });
  for (const [uri, doc] of documents.others ?? []) ajv.addSchema(doc as object, uri);
  if (documents.uri !== undefined) ajv.addSchema(schema as object, documents.uri);
  const validate = documents.uri !== undefined ? ajv.getSchema(documents.uri) : ajv.compile(schema as object);
  if (validate === undefined) throw new Error(`ajv lost ${documents.uri}`);
  return instances.map((instance) => validate(instance) as boolean);
}
