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
 *   as steps.
 * - Native fast path (./native-safety.ts): when the pattern is in a class for which V8's
 *   backtracking RegExp provably agrees with ECMA-262 and needs at most NATIVE_STEP_BUDGET steps
 *   on inputs of up to some length L ≤ NATIVE_MAX_INPUT code units (computed per pattern), test()
 *   hands inputs of at most L units to `new RegExp(source, "u")` (built once at compile time);
 *   longer inputs take our own engine (the linear one; the backtracker for a pattern with a lookahead, which is
 *   native only when its step budget covers the native bound).
 *   No other user input is matched by the native RegExp.
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
import { NATIVE_STEP_BUDGET, nativeLimit } from "./native-safety.js";
import { parsePattern } from "./parser.js";
import { compileProgram } from "./program.js";

export { RegexSyntaxError };
export { NATIVE_MAX_INPUT, NATIVE_STEP_BUDGET, nativeCost, nativeLimit, nativeSafe } from "./native-safety.js";

export interface CompiledPattern {
  readonly source: string;
  test(input: string): boolean;
}

export interface CompileOptions {
  /** Step budget of the backtracking matcher per test() call (default 10,000,000). */
  maxSteps?: number;
  /** Maximum number of program instructions after expanding counted repetitions (default 100,000). */
  maxProgramSize?: number;
  /**
   * Let the runtime's RegExp decide short inputs for provably bounded patterns (default true;
   * false forces our own engines, e.g. to test them against the native one).
   */
  native?: boolean;
}

const DEFAULT_MAX_STEPS = 10_000_000;
/** Backtracker steps per unit of the native cost model, with room (the cost-model test checks 8). */
const NATIVE_BACKTRACK_FACTOR = 8;
const DEFAULT_MAX_PROGRAM_SIZE = 100_000;

class Compiled implements CompiledPattern {
  constructor(
    readonly source: string,
    private readonly matcher: (input: string) => boolean,
    /** Inputs up to this length go to the native RegExp (-1: never). */
    readonly nativeMaxLength = -1,
  ) {}

  test(input: string): boolean {
    return this.matcher(input);
  }
}

/**
 * A pattern with a proven native bound: short inputs go straight to the native RegExp; our own matcher (and its
 * buffers) is only built when a longer input first arrives.
 */
class NativeFirst implements CompiledPattern {
  private own: ((input: string) => boolean) | null = null;

  constructor(
    readonly source: string,
    private readonly native: RegExp,
    readonly nativeMaxLength: number,
    /** Builds our own matcher for longer inputs (the linear automaton, or the backtracker for lookaheads). */
    private readonly build: () => (input: string) => boolean,
  ) {}

  test(input: string): boolean {
    if (input.length <= this.nativeMaxLength) return this.native.test(input);
    return (this.own ??= this.build())(input);
  }
}

export function compilePattern(source: string, options: CompileOptions = {}): CompiledPattern {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxSize = options.maxProgramSize ?? DEFAULT_MAX_PROGRAM_SIZE;
  const parsed = parsePattern(source);
  const lit = literalShape(parsed.root);
  if (lit !== null) return new Compiled(source, literalMatcher(lit.text, lit.atStart, lit.atEnd));
  const anchored = startAnchored(parsed.root);
  const linear = !parsed.hasBackref && !parsed.hasLook;
  // Compiled now, so that a pattern too large for our engines is refused at compile time.
  const program = compileProgram(parsed, !linear, maxSize);
  // Our own matcher: built at once, or only when an input too long for the native RegExp arrives.
  const own = (): ((input: string) => boolean) => {
    if (linear) {
      const m = new LinearMatcher(program, anchored);
      return (input) => m.test(input);
    }
    const looks = new Map<number, LinearMatcher>();
    for (const { pc, node } of program.looks) {
      if (needsBacktracking(node.body)) continue;
      const sub = { ...parsed, root: node.body, groupCount: 0, hasBackref: false, hasLook: false };
      looks.set(pc, new LinearMatcher(compileProgram(sub, false, maxSize, node.behind), true, node.behind));
    }
    const m = new Backtracker(program, anchored, maxSteps, looks);
    return (input) => m.test(input);
  };
  // A pattern the backtracker would run goes native only when its step budget covers the native bound (a unit of
  // the cost model is a few backtracker steps), so the native path never answers where ours would refuse.
  const nativeAllowed =
    options.native !== false && (linear || maxSteps >= NATIVE_BACKTRACK_FACTOR * NATIVE_STEP_BUDGET);
  const limit = nativeAllowed ? nativeLimit(parsed) : -1;
  const re = limit >= 0 ? nativeRegExp(source) : null;
  return re !== null ? new NativeFirst(source, re, limit, own) : new Compiled(source, own());
}

/**
 * The longest input `pattern.test` hands to the native RegExp, or -1 when it never does (for tests and diagnostics).
 */
export function nativeMaxLength(pattern: CompiledPattern): number {
  return pattern instanceof Compiled || pattern instanceof NativeFirst ? pattern.nativeMaxLength : -1;
}

function nativeRegExp(source: string): RegExp | null {
  try {
    return new RegExp(source, "u");
  } catch {
    return null;
  }
}

function literalMatcher(text: string, atStart: boolean, atEnd: boolean): (input: string) => boolean {
  if (atStart && atEnd) return (input) => input === text;
  if (atStart) return (input) => input.startsWith(text);
  if (atEnd) return (input) => input.endsWith(text);
  if (text === "") return () => true;
  return (input) => input.includes(text);
}
