/**
 * Compiled `pattern`/`patternProperties` regular expressions, shared across compilations: catalogs repeat the same
 * few patterns. Written at compile time only and bounded (oldest out first); a compiled pattern is immutable to
 * its callers, so sharing it is safe.
 */

import { compilePattern, type CompiledPattern } from "./regex/index.js";

const shared = new Map<string, CompiledPattern>();
const SHARED_PATTERNS = 1_000;

/** Compiles an ECMA-262 `u` pattern, or returns the shared copy; throws `RegexSyntaxError` for a bad one. */
export function sharedPattern(source: string, maxRegexSteps: number): CompiledPattern {
  const key = `${maxRegexSteps}:${source}`;
  const cached = shared.get(key);
  if (cached !== undefined) return cached;
  const compiled = compilePattern(source, { maxSteps: maxRegexSteps });
  if (shared.size >= SHARED_PATTERNS) shared.delete(shared.keys().next().value as string);
  shared.set(key, compiled);
  return compiled;
}
