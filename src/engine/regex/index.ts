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
 *   (./backtrack.ts), which implements the ECMA-262 matcher semantics exactly. Lookaround bodies
 *   without groups, backreferences or nested lookarounds are decided by an anchored linear matcher
 *   (reading backward for lookbehind).
 * - Native fast path (./native-safety.ts): when the pattern is in a class for which V8's
 *   backtracking RegExp provably agrees with ECMA-262 and its work is provably small on inputs of
 *   at most L ≤ NATIVE_MAX_INPUT code units (computed per pattern), test() hands inputs of at most
 *   L units to `new RegExp(source, "u")` (built and run once at compile time). Longer inputs take our
 *   own engine; so does every input once the RegExp has thrown (the runtime compiles a RegExp lazily
 *   and may fail there), and an input whose native charge exceeds what the call may still spend.
 * - Group/lookaround nesting deeper than MAX_NESTING throws LimitError "maxRegexNesting".
 *
 * Work (docs/reference/limits.md): every test() is charged its work to a `RegexMeter`, the evaluation's step
 * counter: the automaton's instructions reached per code point, the backtracker's instructions and
 * register resets, the native cost model's bound for the input's length, a literal's length. One
 * call may spend at most `maxRegexSteps` and no more than the evaluation has left; past either it
 * throws that limit's LimitError. The answer is otherwise always the exact ECMA-262 answer.
 *
 * Where V8 departs from ECMA-262 we follow the specification: no match is tried between the two
 * halves of a surrogate pair (V8 says /\B/u.test("a😀b") is true; the spec says false).
 *
 * A compiled pattern owns reusable buffers; test() is synchronous, so sharing one compiled
 * pattern between concurrent async callers is safe.
 */
import { LimitError } from "../errors.js";
import { literalShape, needsBacktracking, startAnchored } from "./analysis.js";
import { RegexSyntaxError, type ParsedPattern } from "./ast.js";
import { Backtracker } from "./backtrack.js";
import { LinearMatcher, MATCH, OVER_BUDGET, Scratch } from "./linear.js";
import { nativeCharge, nativeCharges, nativeLimit } from "./native-safety.js";
import { parsePattern } from "./parser.js";
import { compileProgram, type Program } from "./program.js";

export { RegexSyntaxError };
export {
  adversarialInputs,
  NATIVE_MAX_INPUT,
  NATIVE_STEP_BUDGET,
  nativeCost,
  nativeLimit,
  nativeSafe,
} from "./native-safety.js";

/**
 * Where a match's work is charged and what it may spend: the evaluation's `Run` is one. A match adds its work to
 * `steps`; it may spend at most `maxRegexSteps`, and at most what is left of `maxSteps`. A match knows nothing of
 * locations: the limits it hits (these two, and the backtracker's `maxRegexBacktrackStack`) are thrown without one,
 * and the evaluation's output path locates them at the keyword that ran the match (evaluate/run.ts `located`).
 */
export interface RegexMeter {
  /** @internal */
  steps: number;
  /** @internal */
  readonly maxSteps: number;
  /** @internal */
  readonly maxRegexSteps: number;
  /** @internal Throws the LimitError of the limit that was hit. */
  limit(name: "maxEvaluationSteps" | "maxRegexSteps"): never;
}

/** A compiled ECMA-262 pattern (`u` flag), matched in linear time where it can be (docs/project/security.md). */
export interface CompiledPattern {
  /** The pattern's source text. */
  readonly source: string;
  /** @internal Instructions of our own program (0 for a literal): what the pattern holds in memory, by the word. */
  readonly programSize: number;
  /** Whether the input has a match; its work is charged to `meter`, and a limit hit throws. */
  test(input: string, meter: RegexMeter): boolean;
}

export interface CompileOptions {
  /** Maximum number of program instructions after expanding counted repetitions (default 100,000). */
  maxProgramSize?: number;
  /**
   * Let the runtime's RegExp decide short inputs for provably bounded patterns (default true;
   * false forces our own engines, e.g. to test them against the native one).
   */
  native?: boolean;
}

const DEFAULT_MAX_PROGRAM_SIZE = 100_000;
/** Literals longer than this run on the automaton: a code-unit search may be quadratic for long needles. */
const MAX_LITERAL_SEARCH = 64;

/** One of our own engines: MATCH / NO_MATCH / OVER_BUDGET, with the work of the last call in `spent`. */
interface Engine {
  readonly spent: number;
  run(input: string, budget: number): number;
}

/** What one call may spend: `maxRegexSteps`, or less when the evaluation has less left. */
function budgetOf(meter: RegexMeter): number {
  const left = meter.maxSteps - meter.steps;
  return meter.maxRegexSteps < left ? meter.maxRegexSteps : left;
}

/** Charges a finished match, or throws the limit that bound it. */
function charge(meter: RegexMeter, answer: number, spent: number): boolean {
  if (answer === OVER_BUDGET) {
    meter.limit(meter.maxRegexSteps < meter.maxSteps - meter.steps ? "maxRegexSteps" : "maxEvaluationSteps");
  }
  meter.steps += spent;
  return answer === MATCH;
}

/** A pattern our own engine decides, built when it first runs. */
class Own implements CompiledPattern {
  private engine: Engine | null = null;

  constructor(
    readonly source: string,
    private readonly build: () => Engine,
    readonly programSize: number,
  ) {}

  test(input: string, meter: RegexMeter): boolean {
    const engine = (this.engine ??= this.build());
    return charge(meter, engine.run(input, budgetOf(meter)), engine.spent);
  }

  /** @internal The cache words its automaton keeps between calls (for tests). */
  cacheWords(): number {
    const engine = this.engine;
    return engine instanceof LinearEngine ? engine.matcher.cacheWords() : 0;
  }

  /** @internal The backtrack stack words its backtracker keeps between calls (for tests). */
  stackWords(): number {
    const engine = this.engine;
    return engine instanceof Backtracker ? engine.stackWords() : 0;
  }
}

/**
 * A pattern with a proven native bound: short inputs go to the native RegExp, charged the cost model's bound for
 * their length; our own engine decides the rest (and everything, once the RegExp has thrown).
 */
class NativeFirst extends Own {
  constructor(
    source: string,
    build: () => Engine,
    programSize: number,
    private readonly native: RegExp,
    private nativeMax: number,
    private readonly charges: Float64Array,
  ) {
    super(source, build, programSize);
  }

  /** The longest input the native RegExp decides (-1 once it has failed). */
  get nativeMaxLength(): number {
    return this.nativeMax;
  }

  override test(input: string, meter: RegexMeter): boolean {
    if (input.length <= this.nativeMax) {
      const cost = nativeCharge(this.charges, input.length);
      if (cost <= budgetOf(meter)) {
        let found: boolean;
        try {
          found = this.native.test(input);
        } catch {
          // The runtime could not run it (its own compilation can overflow): our engine decides from now on.
          this.nativeMax = -1;
          return super.test(input, meter);
        }
        meter.steps += cost;
        return found;
      }
    }
    return super.test(input, meter);
  }
}

/** `^?literal$?`: a string comparison, charged the characters it may compare. */
class Literal implements CompiledPattern {
  readonly programSize = 0;

  constructor(
    readonly source: string,
    private readonly text: string,
    private readonly atStart: boolean,
    private readonly atEnd: boolean,
  ) {}

  test(input: string, meter: RegexMeter): boolean {
    const { text, atStart, atEnd } = this;
    const cost = 1 + (atStart || atEnd ? text.length : input.length);
    const found =
      atStart && atEnd
        ? input === text
        : atStart
          ? input.startsWith(text)
          : atEnd
            ? input.endsWith(text)
            : input.includes(text);
    return charge(meter, cost <= budgetOf(meter) ? (found ? MATCH : 0) : OVER_BUDGET, cost);
  }
}

class LinearEngine implements Engine {
  constructor(readonly matcher: LinearMatcher) {}

  get spent(): number {
    return this.matcher.spent;
  }

  run(input: string, budget: number): number {
    return this.matcher.run(input, budget);
  }
}

export function compilePattern(source: string, options: CompileOptions = {}): CompiledPattern {
  const maxSize = options.maxProgramSize ?? DEFAULT_MAX_PROGRAM_SIZE;
  const parsed = parsePattern(source);
  const lit = literalShape(parsed.root);
  if (lit !== null && (lit.atStart || lit.atEnd || lit.text.length <= MAX_LITERAL_SEARCH))
    return new Literal(source, lit.text, lit.atStart, lit.atEnd);
  const anchored = startAnchored(parsed.root);
  const linear = !parsed.hasBackref && !parsed.hasLook;
  // Compiled now, so that a pattern too large for our engines is refused at compile time.
  const program = compileProgram(parsed, !linear, maxSize);
  const build = linear
    ? () => new LinearEngine(new LinearMatcher(program, anchored))
    : () => backtracker(parsed, program, anchored, maxSize);
  const limit = options.native === false ? -1 : nativeLimit(parsed);
  const re = limit >= 0 ? nativeRegExp(source) : null;
  if (re === null) return new Own(source, build, program.op.length);
  return new NativeFirst(source, build, program.op.length, re, limit, nativeCharges(parsed));
}

function backtracker(parsed: ParsedPattern, program: Program, anchored: boolean, maxSize: number): Backtracker {
  const bodies: [number, Program, boolean][] = [];
  for (const { pc, node } of program.looks) {
    if (needsBacktracking(node.body)) continue;
    const sub = { ...parsed, root: node.body, groupCount: 0, hasBackref: false, hasLook: false };
    bodies.push([pc, compileProgram(sub, false, maxSize, node.behind), node.behind]);
  }
  // The lookaround matchers run one at a time: they share one set of work buffers.
  const scratch = new Scratch(Math.max(0, ...bodies.map(([, body]) => body.op.length)));
  const looks = new Map<number, LinearMatcher>();
  for (const [pc, body, behind] of bodies) looks.set(pc, new LinearMatcher(body, true, behind, scratch));
  return new Backtracker(program, anchored, looks);
}

/**
 * The longest input `pattern.test` hands to the native RegExp, or -1 when it never does (for tests and diagnostics).
 */
export function nativeMaxLength(pattern: CompiledPattern): number {
  return pattern instanceof NativeFirst ? pattern.nativeMaxLength : -1;
}

/** @internal The cache words a pattern's automaton keeps between calls (for tests). */
export function patternCacheWords(pattern: CompiledPattern): number {
  return pattern instanceof Own ? pattern.cacheWords() : 0;
}

/** @internal The backtrack stack words a pattern's backtracker keeps between calls (for tests). */
export function patternStackWords(pattern: CompiledPattern): number {
  return pattern instanceof Own ? pattern.stackWords() : 0;
}

/**
 * The native RegExp, or null when the runtime refuses it or cannot run it: it is run once here on a one-byte and a
 * two-byte string (the runtime compiles a RegExp for each kind of string when it first meets one).
 */
function nativeRegExp(source: string): RegExp | null {
  try {
    const re = new RegExp(source, "u");
    re.test("");
    re.test("\u0100");
    return re;
  } catch {
    return null;
  }
}

/** A meter of its own for one match outside an evaluation (tests, tools): `maxRegexSteps` is the only budget. */
export function standaloneMeter(maxRegexSteps: number): RegexMeter {
  return {
    steps: 0,
    maxSteps: Number.MAX_SAFE_INTEGER,
    maxRegexSteps,
    limit(name) {
      throw new LimitError(name, name === "maxRegexSteps" ? maxRegexSteps : Number.MAX_SAFE_INTEGER);
    },
  };
}
