/** Limits (README "Limits"): every one fails closed with `execution_failure` / `limit_exceeded`. */

export interface Limits {
  /** Size of the schema document(s) in bytes of their JSON text, counted while walking them. */
  maxSchemaBytes: number;
  /** Nesting of subschemas within one document. */
  maxSchemaDepth: number;
  /** Number of subschemas. */
  maxSchemaNodes: number;
  /** `$ref` / `$dynamicRef` occurrences. */
  maxReferences: number;
  /** References followed in one evaluation chain (references currently being evaluated). */
  maxReferenceDepth: number;
  /** Nesting of the instance. */
  maxInstanceDepth: number;
  /** Values of the instance visited by the evaluation. */
  maxInstanceNodes: number;
  /** Code points of any one string checked. */
  maxStringLength: number;
  maxArrayLength: number;
  maxObjectProperties: number;
  /** Keyword evaluations for one instance. */
  maxEvaluationSteps: number;
  /**
   * Schema evaluations nested inside each other (the engine's own recursion bound, so no stack overflow can escape).
   */
  maxEvaluationDepth: number;
  /** Steps of one regular-expression match that needs backtracking (backreferences or lookaround). */
  maxRegexSteps: number;
}

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

/** Completes a partial `limits` option that the options check (README "The engine") has accepted. */
export function resolveLimits(partial: Partial<Limits> | undefined): Readonly<Limits> {
  if (partial === undefined) return defaultLimits;
  const out: Limits = { ...defaultLimits };
  for (const key of Object.keys(partial) as (keyof Limits)[]) {
    const value = partial[key];
    if (value !== undefined) out[key] = value;
  }
  return Object.freeze(out);
}
