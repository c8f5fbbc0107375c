/** Limits (docs/reference/limits.md): every one fails closed with `execution_failure` / `limit_exceeded`. */

import type { JsonBounds } from "./json/host-json.js";

/**
 * The resource limits of compiling and evaluating; `CompileOptions.limits` (and the runtime's `limits` option) take
 * any subset, each a non-negative integer, and the rest keep `defaultLimits`.
 */
export interface Limits {
  /** Size of the schema document(s) in bytes of their JSON text, counted while walking them (default 4 MiB). */
  maxSchemaBytes: number;
  /**
   * Nesting of one schema document below its root schema (default 128): each subschema is one level, and so is each
   * array or object inside any keyword's value (`const`, `enum`, `default`, `examples`, unknown keywords, every
   * value); the object or array that only holds subschemas (`properties`' object, `allOf`'s array) adds none.
   */
  maxSchemaDepth: number;
  /**
   * Values in the schema documents one compile reads (default 100,000): every JSON value counts, each object, array,
   * string, number, boolean and null, keyword values such as `const`, `enum`, `default` and `examples` included; an
   * object a host schema reuses in several places counts once per place.
   */
  maxSchemaNodes: number;
  /** `$ref` / `$dynamicRef` occurrences (default 10,000). */
  maxReferences: number;
  /** References followed in one evaluation chain (references currently being evaluated; default 128). */
  maxReferenceDepth: number;
  /** Nesting of the instance (default 128). */
  maxInstanceDepth: number;
  /**
   * Values of the instance visited by the evaluation (default 1,000,000); the check that every value is JSON data
   * (`Validator`) visits each value below the root once per path to it, within the same limit.
   */
  maxInstanceNodes: number;
  /** Code points of any one string checked (default 4 Mi). */
  maxStringLength: number;
  /** Items of one array that a keyword iterates (default 100,000). */
  maxArrayLength: number;
  /** Properties of one object that a keyword iterates (default 100,000). */
  maxObjectProperties: number;
  /** Units of work for one instance (docs/reference/limits.md "What one step is"; default 1,000,000). */
  maxEvaluationSteps: number;
  /**
   * Schema evaluations nested inside each other (the engine's own recursion bound, so no stack overflow can escape;
   * default 1,000).
   */
  maxEvaluationDepth: number;
  /** Steps of one regular-expression match that needs backtracking (backreferences, lookaround; default 1,000,000). */
  maxRegexSteps: number;
}

/** The limits in force when none are given (docs/reference/limits.md says why each default is what it is); frozen. */
export const defaultLimits: Readonly<Limits> = Object.freeze({
  maxSchemaBytes: 4 * 1024 * 1024,
  maxSchemaDepth: 128,
  maxSchemaNodes: 100_000,
  maxReferences: 10_000,
  maxReferenceDepth: 128,
  maxInstanceDepth: 128,
  maxInstanceNodes: 1_000_000,
  maxStringLength: 4 * 1024 * 1024,
  maxArrayLength: 100_000,
  maxObjectProperties: 100_000,
  maxEvaluationSteps: 1_000_000,
  maxEvaluationDepth: 1_000,
  maxRegexSteps: 1_000_000,
});

/** Completes a partial `limits` option that the options check (docs/reference/options.md "compile") has accepted. */
export function resolveLimits(partial: Partial<Limits> | undefined): Readonly<Limits> {
  if (partial === undefined) return defaultLimits;
  const out: Limits = { ...defaultLimits };
  for (const key of Object.keys(partial) as (keyof Limits)[]) {
    const value = partial[key];
    if (value !== undefined) out[key] = value;
  }
  return Object.freeze(out);
}

/**
 * The bounds a schema document is measured against (`checkJson` with the dialect's subschema positions): its bytes,
 * its values and its depth, as `maxSchemaBytes`, `maxSchemaNodes` and `maxSchemaDepth` count them.
 */
export function schemaBounds(limits: Readonly<Limits>): Required<Pick<JsonBounds, "bytes" | "nodes" | "depth">> {
  return { bytes: limits.maxSchemaBytes, nodes: limits.maxSchemaNodes, depth: limits.maxSchemaDepth };
}
