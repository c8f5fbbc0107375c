/**
 * `OutputSchema`: the boundary for tool results (docs/guide/boundary.md "Results: `OutputSchema`"; MCP 2026-07-28,
 * SEP-2106). The same dialect rules, registries, loaders, limits, errors and Result shape as `InputSchema`, without the
 * object-root rule: any schema (boolean schemas included) and any JSON value. A value the schema refuses is
 * `output_invalid`.
 */

import type { BoundaryError } from "../errors/boundary-error.js";
import { ok, type Result } from "../errors/result.js";
import {
  compileSchema,
  CompiledSchema,
  type BoundaryPolicy,
  type CompiledParts,
  type SchemaBoundaryOptions,
} from "./schema-boundary.js";

/** Options of `OutputSchema.validateSchema` / `validate`: the same as `InputSchema`'s. */
export type OutputSchemaOptions = SchemaBoundaryOptions;

const RESULT: BoundaryPolicy = Object.freeze({
  boundary: "OutputSchema",
  subject: "the result",
  schemaName: "output schema",
  code: "output_invalid",
  objectValue: false,
  rootProblem: () => undefined,
  modelSubject: "result",
});

/** A tool output schema that compiled; `validate` checks a result's structured content (`T`: its declared type). */
export class CompiledOutputSchema<T = unknown> extends CompiledSchema<T> {
  /** @internal */
  constructor(schema: unknown, parts: CompiledParts) {
    super(schema, parts, RESULT);
  }
}

/** The tool-call boundary for results: output schemas of any root, results of any JSON value. */
export const OutputSchema = Object.freeze({
  /** Compiles a tool output schema (any schema, boolean included), or says why it cannot be used. Never throws. */
  validateSchema<T = unknown>(
    schema: unknown,
    options: OutputSchemaOptions = {},
  ): Result<CompiledOutputSchema<T>, BoundaryError> {
    const compiled = compileSchema(schema, options, RESULT);
    return compiled.ok ? ok(new CompiledOutputSchema<T>(schema, compiled.value)) : compiled;
  },

  /**
   * Compiles the schema and checks any JSON value in one call; a refused value is `output_invalid`; `T` types a
   * valid value. Never throws.
   */
  validate<T = unknown>(schema: unknown, value: unknown, options: OutputSchemaOptions = {}): Result<T, BoundaryError> {
    const compiled = OutputSchema.validateSchema<T>(schema, options);
    return compiled.ok ? compiled.value.validate(value) : compiled;
  },
});
