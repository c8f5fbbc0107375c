/**
 * Compiled `pattern`/`patternProperties` regular expressions, shared across compilations: catalogs repeat the same
 * few patterns. Written at compile time only and bounded by count and by the memory the patterns' programs take
 * (oldest out first); a compiled pattern is immutable to its callers, so sharing it is safe. What a pattern's
 * automaton caches between calls is bounded separately (regex/linear.ts).
 */

import { compilePattern, type CompiledPattern } from "../regex/index.js";

const shared = new Map<string, CompiledPattern>();
const SHARED_PATTERNS = 1_000;
/** Program instructions the shared patterns may hold together (each takes about 36 bytes with its buffers). */
const SHARED_INSTRUCTIONS = 1 << 20;
let sharedInstructions = 0;

/** Compiles an ECMA-262 `u` pattern, or returns the shared copy; throws `RegexSyntaxError` for a bad one. */
export function sharedPattern(source: string): CompiledPattern {
  const cached = shared.get(source);
  if (cached !== undefined) return cached;
  const compiled = compilePattern(source);
  if (compiled.programSize > SHARED_INSTRUCTIONS / 16) return compiled;
  sharedInstructions += compiled.programSize;
  shared.set(source, compiled);
  while (shared.size > SHARED_PATTERNS || sharedInstructions > SHARED_INSTRUCTIONS) {
    const [oldest, pattern] = shared.entries().next().value as [string, CompiledPattern];
    shared.delete(oldest);
    sharedInstructions -= pattern.programSize;
  }
  return compiled;
}

/** @internal What the shared patterns hold: how many, and their program instructions together (for tests). */
export function sharedPatternLoad(): { patterns: number; instructions: number } {
  return { patterns: shared.size, instructions: sharedInstructions };
}
