/**
 * Linear-time matcher for programs without captures, backreferences or lookarounds: a lazily built DFA over NFA
 * state sets (Thompson construction), with a memory-bounded cache. When the cache thrashes, the same step function
 * runs uncached (Pike-VM style). Anchored instances also decide lookaround bodies for the backtracker, forward or
 * backward. Nothing backtracks.
 *
 * Work is charged by what the state reading a code point can reach, not by what the cache saved: one unit per code
 * point, or a unit per INSTRUCTIONS_PER_UNIT program instructions its epsilon closure reaches when that is more (the
 * state's width, counted with every assertion taken as passing, so it depends on the state alone). A cached
 * transition costs about one unit; the uncached step visits the width, which costs about a unit per
 * INSTRUCTIONS_PER_UNIT instructions. Building a state costs STATE_UNITS more: that part depends on what earlier
 * calls left in the cache (a state found there is not built again), everything else on the pattern and input alone.
 *
 * Memory: the cache may grow to CACHE_WORDS during one call; after the call a matcher keeps at most RETAIN_WORDS of
 * it, and all matchers together at most RETAIN_TOTAL (a matcher over the budget drops its cache; a collected matcher
 * gives its share back).
 */
import { codePointBefore, isWordChar } from "./charset.js";
import {
  ASSERT_BEGIN,
  ASSERT_END,
  ASSERT_WORD,
  OP_ASSERT,
  OP_CHAR,
  OP_JMP,
  OP_MATCH,
  OP_SET,
  OP_SPLIT,
  type Program,
} from "./program.js";

/** Not computed yet (a state's `eof`, `charge`, an initial state id). */
const UNKNOWN = -1;
/** Transition codes: 0 unknown (a fresh table is all zeros), 1 to a match, and state k as k + FIRST_STATE. */
const NO_TRANSITION = 0;
const TO_MATCH = 1;
const FIRST_STATE = 2;
/** What a scan answers: a match, no match, or the budget ran out first. */
export const NO_MATCH = 0;
export const MATCH = 1;
export const OVER_BUDGET = -1;
/** Cache budget of one call, in 32-bit words (seed lists plus ASCII transition tables), before a flush. */
const CACHE_WORDS = 1 << 20;
/** After this many flushes within one call the matcher stops caching for that call. */
const MAX_FLUSHES = 2;
/** What one matcher may keep of its cache between calls. */
const RETAIN_WORDS = 1 << 16;
/** What all matchers together may keep between calls. */
const RETAIN_TOTAL = 1 << 22;
/** Words a state costs besides its seeds: the ASCII table and the object. */
const STATE_WORDS = 160;
/** What building a DFA state costs besides its closure and its seeds (the row of its table, the object). */
const STATE_UNITS = 64;
/** Closure instructions per unit of work: an instruction visit costs about a quarter of a cached transition. */
const INSTRUCTIONS_PER_UNIT = 4;

/** What reading one code point costs from a state whose closure reaches `width` instructions. */
function chargeOf(width: number): number {
  return width <= INSTRUCTIONS_PER_UNIT ? 1 : Math.ceil(width / INSTRUCTIONS_PER_UNIT);
}

/**
 * Words kept between calls by every live matcher (docs/reference/limits.md "Fixed bounds of the regular-expression
 * engine").
 */
let retainedTotal = 0;

/** One matcher's share of `retainedTotal`, given back when the matcher is collected. */
interface Share {
  words: number;
}

const shares =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<Share>((share) => {
        retainedTotal -= share.words;
      })
    : undefined;

/** @internal What the DFA caches of every matcher keep between calls, in 32-bit words (for tests). */
export function retainedCacheWords(): number {
  return retainedTotal;
}

/**
 * A DFA state: a sorted set of NFA program counters (its seeds, kept in the matcher's seed pool) in a context. Its
 * transitions for code points below 128 are a row of the matcher's transition table; states are found by a hash of
 * their seeds, so that building one allocates nothing but this object.
 */
interface DState {
  readonly seedAt: number;
  readonly seedCount: number;
  readonly atStart: boolean;
  readonly prevWord: boolean;
  /** Where its row of transition codes starts in the table (128 of them). */
  readonly row: number;
  /** Transition codes for code points from 128 on, made when the first is known. */
  other: Map<number, number> | null;
  eof: number;
  /** What reading a code point from this state costs (`chargeOf` its width; UNKNOWN until first computed). */
  charge: number;
  /** The next state whose seeds hash alike (its id), or -1. */
  sameHash: number;
}

/** What a matcher holds before it first runs (shared: nothing is ever written to an empty array). */
const NO_WORDS = new Int32Array(0);

/**
 * The work buffers of closures over programs of up to `size` instructions: a matcher's own, or shared by the
 * lookaround matchers of one backtracker, which run one at a time (so that thousands of lookarounds do not each
 * allocate theirs).
 */
export class Scratch {
  readonly visited: Uint32Array;
  readonly alive: Uint32Array;
  readonly stack: Int32Array;
  readonly cons: Int32Array;
  readonly next: Int32Array;
  gen = 0;

  constructor(readonly size: number) {
    this.visited = new Uint32Array(size);
    this.alive = new Uint32Array(size);
    // A closure visits each instruction at most twice (behind a failing assertion, then alive), pushing two each.
    this.stack = new Int32Array(5 * size + 2);
    this.cons = new Int32Array(size);
    this.next = new Int32Array(size);
  }
}

export class LinearMatcher {
  private readonly size: number;
  /** Work buffers, allocated when the matcher first runs. */
  private scratch: Scratch | null;
  private nCons = 0;
  /** Instructions the last closure reached. */
  private reached = 0;
  private states: DState[] = [];
  /** Seed hash → the first state id with it (the rest chained by `sameHash`). */
  private index = new Map<number, number>();
  private table = NO_WORDS;
  private pool = NO_WORDS;
  private pooled = 0;
  private words = 0;
  private flushes = 0;
  private readonly initialIds = new Int32Array(4).fill(UNKNOWN);
  private share: Share | undefined;
  /** Units of work the last scan spent (docs/reference/limits.md "What one step is"). */
  spent = 0;

  /**
   * `backward` matchers read right to left (lookbehind bodies compiled in backward order). `scratch`, when given,
   * holds the work buffers (at least the program's size), shared with matchers that never run at the same time.
   */
  constructor(
    private readonly prog: Program,
    private readonly anchored: boolean,
    private readonly backward = false,
    scratch?: Scratch,
  ) {
    this.size = prog.op.length;
    this.scratch = scratch ?? null;
  }

  /** Whether `input` has a match (MATCH / NO_MATCH), or OVER_BUDGET; `spent` says what it cost. */
  run(input: string, budget: number): number {
    const answer = this.scan(input, 0, budget);
    this.release();
    return answer;
  }

  /**
   * For an anchored matcher: is there a match starting at `pos` (ending at `pos` when backward)? MATCH, NO_MATCH or
   * OVER_BUDGET; `spent` says what it cost. The caller releases the cache (`release`) when its own call ends.
   */
  prefixMatch(input: string, pos: number, budget: number): number {
    return this.scan(input, pos, budget);
  }

  /**
   * The words this matcher's cache holds: its transition table and seed pool (their capacity), the state objects
   * and their other transitions. Before the first call and after a release that dropped the cache, it is 0.
   */
  cacheWords(): number {
    if (this.states.length === 0) return 0;
    return this.table.length + this.pool.length + (this.words - this.pooled - this.states.length * 128);
  }

  /** Ends a call: keeps the cache only within this matcher's and every matcher's retention budget. */
  release(): void {
    if (this.share === undefined && this.states.length === 0) return;
    const share = this.share ?? (this.share = this.register());
    const others = retainedTotal - share.words;
    let kept = this.cacheWords();
    if (kept > RETAIN_WORDS || others + kept > RETAIN_TOTAL) {
      this.flush();
      this.table = NO_WORDS;
      this.pool = NO_WORDS;
      kept = 0;
    }
    retainedTotal = others + kept;
    share.words = kept;
  }

  private register(): Share {
    const share = { words: 0 };
    shares?.register(this, share);
    return share;
  }

  /** The work buffers, made when the matcher first runs (unless it shares some). */
  private buffers(): Scratch {
    return (this.scratch ??= new Scratch(this.size));
  }

  /** The state to start from, cached per (atStart, prevWord) context. */
  private initial(atStart: boolean, prevWord: boolean): DState {
    const k = (atStart ? 2 : 0) + (prevWord ? 1 : 0);
    let id = this.initialIds[k]!;
    if (id < 0) {
      // The start seeds: program counter 0 when anchored (unanchored closures add it themselves).
      this.buffers().next[0] = 0;
      id = this.stateId(this.anchored ? 1 : 0, atStart, prevWord);
      this.initialIds[k] = id;
    }
    return this.states[id]!;
  }

  private scan(input: string, pos: number, budget: number): number {
    this.flushes = 0;
    const back = this.backward;
    const len = input.length;
    const atStart = back ? pos === len : pos === 0;
    const prevWord = back
      ? pos < len && isWordChar(input.charCodeAt(pos))
      : pos > 0 && isWordChar(input.charCodeAt(pos - 1));
    let st = this.initial(atStart, prevWord);
    let i = pos;
    let spent = 0;
    while (back ? i > 0 : i < len) {
      let cp: number;
      if (back) {
        cp = input.charCodeAt(--i);
        if ((cp & 0xfc00) === 0xdc00 && i > 0) {
          const hi = input.charCodeAt(i - 1);
          if ((hi & 0xfc00) === 0xd800) {
            cp = (hi - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
            i--;
          }
        }
      } else {
        cp = input.charCodeAt(i++);
        if ((cp & 0xfc00) === 0xd800 && i < len) {
          const lo = input.charCodeAt(i);
          if ((lo & 0xfc00) === 0xdc00) {
            cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
            i++;
          }
        }
      }
      let t = cp < 128 ? this.table[st.row + cp]! : (st.other?.get(cp) ?? NO_TRANSITION);
      if (t === NO_TRANSITION) {
        if (this.flushes >= MAX_FLUSHES) return this.uncached(input, i, cp, st, spent, budget);
        const built = this.states.length;
        t = this.transition(st, cp);
        // A state built costs its closure (charged below) and its seeds' hashing, sorting and copying besides.
        if (this.states.length !== built) spent += STATE_UNITS + 2 * this.states[this.states.length - 1]!.seedCount;
      }
      if ((spent += st.charge) > budget) return this.over(spent);
      if (t === TO_MATCH) return this.answer(spent, MATCH);
      st = this.states[t - FIRST_STATE]!;
      if (this.anchored && st.seedCount === 0) return this.answer(spent, NO_MATCH);
    }
    if (st.eof === UNKNOWN) {
      st.eof = this.closure(this.pool, st.seedAt, st.seedCount, st.atStart, st.prevWord, -1) ? MATCH : NO_MATCH;
      st.charge = chargeOf(this.reached);
    }
    if ((spent += st.charge) > budget) return this.over(spent);
    return this.answer(spent, st.eof);
  }

  private answer(spent: number, answer: number): number {
    this.spent = spent;
    return answer;
  }

  private over(spent: number): number {
    this.spent = spent;
    return OVER_BUDGET;
  }

  /** Continues without the cache: `cp` was just read (ending at index `i`) and is the next to consume from `st`. */
  private uncached(input: string, i: number, cp: number, st: DState, spent: number, budget: number): number {
    let seeds: Int32Array = this.pool;
    let at = st.seedAt;
    let n = st.seedCount;
    let atStart = st.atStart;
    let prevWord = st.prevWord;
    const back = this.backward;
    for (;;) {
      const matched = this.closure(seeds, at, n, atStart, prevWord, cp);
      if ((spent += chargeOf(this.reached)) > budget) return this.over(spent);
      if (matched) return this.answer(spent, MATCH);
      if (cp < 0) return this.answer(spent, NO_MATCH);
      n = this.step(cp);
      seeds = this.buffers().next; // closure() copies its seeds before step() overwrites `next`
      at = 0;
      if (this.anchored && n === 0) return this.answer(spent, NO_MATCH);
      atStart = false;
      prevWord = isWordChar(cp);
      if (back ? i <= 0 : i >= input.length) {
        cp = -1;
        continue;
      }
      if (back) {
        cp = codePointBefore(input, i);
        i -= cp > 0xffff ? 2 : 1;
      } else {
        cp = input.codePointAt(i)!;
        i += cp > 0xffff ? 2 : 1;
      }
    }
  }

  private transition(st: DState, cp: number): number {
    let t: number;
    const matched = this.closure(this.pool, st.seedAt, st.seedCount, st.atStart, st.prevWord, cp);
    st.charge = chargeOf(this.reached);
    if (matched) {
      t = TO_MATCH;
    } else {
      const n = this.step(cp);
      sortPrefix(this.buffers().next, n);
      const prevWord = isWordChar(cp);
      if (this.words + n + STATE_WORDS > CACHE_WORDS) {
        this.flush();
        // `st` is gone from the cache: it must not learn a transition into the new one.
        return this.stateId(n, false, prevWord) + FIRST_STATE;
      }
      t = this.stateId(n, false, prevWord) + FIRST_STATE;
    }
    if (cp < 128) this.table[st.row + cp] = t;
    else {
      (st.other ??= new Map()).set(cp, t);
      this.words += 4;
    }
    return t;
  }

  /** Drops every state (keeping the buffers for the rest of the call; `release` shrinks them). */
  private flush(): void {
    this.states = [];
    this.index = new Map();
    this.pooled = 0;
    this.words = 0;
    this.initialIds.fill(UNKNOWN);
    this.flushes++;
  }

  /** The id of the state whose seeds are `next[0..n)` (sorted) in this context, built when there is none. */
  private stateId(n: number, atStart: boolean, prevWord: boolean): number {
    const seeds = this.buffers().next;
    let h = (atStart ? 0x9e3779b9 : 0x7f4a7c15) ^ (prevWord ? 0x85ebca6b : 0) ^ n;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ seeds[i]!, 0x01000193);
    const first = this.index.get(h);
    for (let id = first ?? -1; id >= 0; id = this.states[id]!.sameHash) {
      const st = this.states[id]!;
      if (st.seedCount !== n || st.atStart !== atStart || st.prevWord !== prevWord) continue;
      let same = true;
      for (let i = 0; i < n && same; i++) same = this.pool[st.seedAt + i] === seeds[i];
      if (same) return id;
    }
    const id = this.states.length;
    const row = id * 128;
    if (row + 128 > this.table.length) this.table = grown(this.table, row + 128);
    else this.table.fill(NO_TRANSITION, row, row + 128);
    if (this.pooled + n > this.pool.length) this.pool = grown(this.pool, this.pooled + n);
    const seedAt = this.pooled;
    for (let i = 0; i < n; i++) this.pool[seedAt + i] = seeds[i]!;
    this.pooled += n;
    this.words += n + STATE_WORDS;
    this.states.push({
      seedAt,
      seedCount: n,
      atStart,
      prevWord,
      row,
      other: null,
      eof: UNKNOWN,
      charge: UNKNOWN,
      sameHash: first ?? -1,
    });
    this.index.set(h, id);
    return id;
  }

  /**
   * Follows epsilon edges from `seeds` (plus the start state when unanchored) at a position whose context is
   * (atStart, prevWord, next code point or -1 at the end). Collects the consuming instructions that are alive in
   * `cons` and returns true when MATCH is alive. Instructions behind a failing assertion are still visited (but not
   * alive), so `reached` counts every instruction the closure can reach, whatever the context: the state's width.
   */
  private closure(
    seeds: Int32Array,
    at: number,
    n: number,
    atStart: boolean,
    prevWord: boolean,
    next: number,
  ): boolean {
    const { op, a, b } = this.prog;
    const scratch = this.buffers();
    const { visited, alive, stack, cons } = scratch;
    if (++scratch.gen === 0xffffffff) {
      visited.fill(0);
      alive.fill(0);
      scratch.gen = 1;
    }
    const gen = scratch.gen;
    let sp = 0;
    // Entries are pc * 2 + 1 for a path on which every assertion held, pc * 2 for one behind a failing assertion.
    for (let i = 0; i < n; i++) stack[sp++] = seeds[at + i]! * 2 + 1;
    if (!this.anchored) stack[sp++] = 1;
    let nc = 0;
    let reached = 0;
    let matched = false;
    while (sp > 0) {
      const entry = stack[--sp]!;
      const pc = entry >> 1;
      const live = entry & 1;
      if (live === 1) {
        if (alive[pc] === gen) continue;
        alive[pc] = gen;
      }
      if (visited[pc] !== gen) {
        visited[pc] = gen;
        reached++;
      } else if (live === 0) continue;
      switch (op[pc]) {
        case OP_CHAR:
        case OP_SET:
          if (live === 1) cons[nc++] = pc;
          break;
        case OP_SPLIT:
          stack[sp++] = b[pc]! * 2 + live;
          stack[sp++] = a[pc]! * 2 + live;
          break;
        case OP_JMP:
          stack[sp++] = a[pc]! * 2 + live;
          break;
        case OP_MATCH:
          if (live === 1) matched = true;
          break;
        case OP_ASSERT: {
          const k = a[pc]!;
          let ok: boolean;
          if (k === ASSERT_BEGIN) ok = this.backward ? next < 0 : atStart;
          else if (k === ASSERT_END) ok = this.backward ? atStart : next < 0;
          else ok = (prevWord !== (next >= 0 && isWordChar(next))) === (k === ASSERT_WORD);
          stack[sp++] = (pc + 1) * 2 + (ok ? live : 0);
          break;
        }
      }
    }
    this.nCons = nc;
    this.reached = reached;
    return matched;
  }

  /** Advances the collected consuming instructions over `cp` into `next`; returns the count. */
  private step(cp: number): number {
    const { op, a, sets } = this.prog;
    const { cons, next } = this.buffers();
    let n = 0;
    for (let i = 0; i < this.nCons; i++) {
      const pc = cons[i]!;
      if (op[pc] === OP_CHAR ? a[pc] === cp : sets[a[pc]!]!.has(cp)) next[n++] = pc + 1;
    }
    return n;
  }
}

/** A copy of `array`, at least `size` long (doubling), the rest zeros. */
function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  let length = Math.max(array.length * 2, 64);
  while (length < size) length *= 2;
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}

/** Sorts `array[0..n)` in place: by insertion when short (nothing allocated), else by the typed array's own sort. */
function sortPrefix(array: Int32Array, n: number): void {
  if (n > 16) {
    array.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const v = array[i]!;
    let j = i - 1;
    while (j >= 0 && array[j]! > v) {
      array[j + 1] = array[j]!;
      j--;
    }
    array[j + 1] = v;
  }
}
