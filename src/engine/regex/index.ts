/**
 * ECMA-262 `u`-mode regular expressions for JSON Schema `pattern` / `patternProperties`, with the
 * semantics of `new RegExp(source, "u").test(input)` (unanchored search, matching by code point),
 * that cannot stall the host on hostile patterns or inputs.
 *
 * Design:
 * - Our own parser (./parser.ts) accepts exactly the u-mode grammar (no Annex B) and throws
 *   RegexSyntaxError for anything `new RegExp(source, "u")` rejects. Property names in `\p{...}`
 *   are validated and decided by the runtime's RegExp on one-code-point strings.
 * - Plain literals (optionally `^` / `$` anchored) use includes / startsWith / endsWith / ===.
 * - Patterns without backreferences and lookarounds run on a linear-time automaton
 *   (./linear.ts: lazily built DFA over a Thompson NFA, O(program × input) worst case). Counted
 *   repetitions are expanded; the program size is capped (LimitError "maxRegexProgramSize").
 * - Patterns with backreferences or lookarounds run on our own backtracking matcher
 *   (./backtrack.ts), which implements the ECMA-262 matcher semantics exactly and counts steps:
 *   the result is the exact ECMA-262 answer or a LimitError("maxRegexSteps", budget) — never a
 *   hang. Lookaround bodies without groups, backreferences or nested lookarounds are decided by
 *   an anchored linear matcher (reading backward for lookbehind); the code points it reads count
 *   as steps. The native RegExp is never used to match user input.
 * - Group/lookaround nesting deeper than MAX_NESTING throws LimitError "maxRegexNesting".
 *
 * Where V8 departs from ECMA-262 we follow the specification: no match is tried between the two
 * halves of a surrogate pair (V8 says /\B/u.test("a😀b") is true; the spec says false).
 *
 * A compiled pattern owns reusable buffers; test() is synchronous, so sharing one compiled
 * pattern between concurrent async callers is safe.
 */
import { literalShape, needsBacktracking, startAnchored } from "./analysis.js";
import { RegexSyntaxError } from "./ast.js";
import { Backtracker } from "./backtrack.js";
import { LinearMatcher } from "./linear.js";
import { parsePattern } from "./parser.js";
import { compileProgram } from "./program.js";

export { RegexSyntaxError };
export { MAX_NESTING } from "./parser.js";

export interface CompiledPattern {
  readonly source: string;
  test(input: string): boolean;
}

export interface CompileOptions {
  /** Step budget of the backtracking matcher per test() call (default 10,000,000). */
  maxSteps?: number;
  /** Maximum number of program instructions after expanding counted repetitions (default 100,000). */
  maxProgramSize?: number;
}

export const DEFAULT_MAX_STEPS = 10_000_000;
export const DEFAULT_MAX_PROGRAM_SIZE = 100_000;

class Compiled implements CompiledPattern {
  constructor(readonly source: string, private readonly matcher: (input: string) => boolean) {}

  test(input: string): boolean {
    return this.matcher(input);
  }
}

export function compilePattern(source: string, options: CompileOptions = {}): CompiledPattern {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxSize = options.maxProgramSize ?? DEFAULT_MAX_PROGRAM_SIZE;
  const parsed = parsePattern(source);
  const lit = literalShape(parsed.root);
  if (lit !== null) return new Compiled(source, literalMatcher(lit.text, lit.atStart, lit.atEnd));
  const anchored = startAnchored(parsed.root);
  if (!parsed.hasBackref && !parsed.hasLook) {
    const m = new LinearMatcher(compileProgram(parsed, false, maxSize), anchored);
    return new Compiled(source, (input) => m.test(input));
  }
  const prog = compileProgram(parsed, true, maxSize);
  const looks = new Map<number, LinearMatcher>();
  for (const { pc, node } of prog.looks) {
    if (needsBacktracking(node.body)) continue;
    const sub = { ...parsed, root: node.body, groupCount: 0, hasBackref: false, hasLook: false };
    looks.set(pc, new LinearMatcher(compileProgram(sub, false, maxSize, node.behind), true, node.behind));
  }
  const m = new Backtracker(prog, anchored, maxSteps, looks);
  return new Compiled(source, (input) => m.test(input));
}

function literalMatcher(text: string, atStart: boolean, atEnd: boolean): (input: string) => boolean {
  if (atStart && atEnd) return (input) => input === text;
  if (atStart) return (input) => input.startsWith(text);
  if (atEnd) return (input) => input.endsWith(text);
  if (text === "") return () => true;
  return (input) => input.includes(text);
}
