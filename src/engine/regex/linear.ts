/**
 * Linear-time matcher for programs without captures, backreferences or lookarounds: a lazily built
 * DFA over NFA state sets (Thompson construction), with a memory-bounded cache. When the cache
 * thrashes, the same step function runs uncached (Pike-VM style). Anchored
 * instances also decide lookaround bodies for the backtracker, forward or backward. Every input code point costs at
 * most O(program size); nothing backtracks.
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

const UNKNOWN = -1;
const MATCHED = -2;
/** Cache budget, in 32-bit words (seed lists plus ASCII transition tables), before a flush. */
const CACHE_WORDS = 1 << 21;
/** After this many flushes within one test() call the matcher stops caching for that call. */
const MAX_FLUSHES = 2;

interface DState {
  readonly seeds: Int32Array;
  readonly atStart: boolean;
  readonly prevWord: boolean;
  readonly ascii: Int32Array;
  readonly other: Map<number, number>;
  eof: number;
}

export class LinearMatcher {
  private readonly size: number;
  private readonly stamp: Uint32Array;
  private gen = 0;
  private readonly stack: Int32Array;
  private readonly cons: Int32Array;
  private nCons = 0;
  private readonly next: Int32Array;
  private states: DState[] = [];
  private index = new Map<string, number>();
  private words = 0;
  private flushes = 0;

  /** `backward` matchers read right to left (lookbehind bodies compiled in backward order). */
  constructor(
    private readonly prog: Program,
    private readonly anchored: boolean,
    private readonly backward = false,
  ) {
    this.size = prog.op.length;
    this.stamp = new Uint32Array(this.size);
    this.stack = new Int32Array(3 * this.size + 2);
    this.cons = new Int32Array(this.size);
    this.next = new Int32Array(this.size);
  }

  test(input: string): boolean {
    return this.scan(input, 0, Infinity) === 1;
  }

  /** The state to start from, cached per (atStart, prevWord) context. */
  private initial(atStart: boolean, prevWord: boolean): DState {
    const k = (atStart ? 2 : 0) + (prevWord ? 1 : 0);
    let id = this.initialIds[k]!;
    if (id < 0) {
      id = this.stateId(this.anchored ? Int32Array.of(0) : new Int32Array(0), atStart, prevWord);
      this.initialIds[k] = id;
    }
    return this.states[id]!;
  }

  private readonly initialIds = new Int32Array(4).fill(-1);

  /**
   * For an anchored matcher: is there a match starting at `pos` (ending at `pos` when backward)?
   * Returns 1 / 0, or -1 when more than `maxChars` code points would have to be read.
   * `scanned` then holds the number of code points read.
   */
  prefixMatch(input: string, pos: number, maxChars: number): number {
    return this.scan(input, pos, maxChars);
  }

  scanned = 0;

  private scan(input: string, pos: number, maxChars: number): number {
    this.flushes = 0;
    const back = this.backward;
    const len = input.length;
    const atStart = back ? pos === len : pos === 0;
    const prevWord = back
      ? pos < len && isWordChar(input.charCodeAt(pos))
      : pos > 0 && isWordChar(input.charCodeAt(pos - 1));
    let st = this.initial(atStart, prevWord);
    let i = pos;
    let read = 0;
    while (back ? i > 0 : i < len) {
      if (++read > maxChars) {
        this.scanned = read;
        return -1;
      }
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
      let t = cp < 128 ? st.ascii[cp]! : (st.other.get(cp) ?? UNKNOWN);
      if (t === UNKNOWN) {
        if (this.flushes >= MAX_FLUSHES) {
          const r = this.uncached(input, i, cp, st, read, maxChars);
          return r;
        }
        t = this.transition(st, cp);
      }
      if (t === MATCHED) {
        this.scanned = read;
        return 1;
      }
      st = this.states[t]!;
      if (this.anchored && st.seeds.length === 0) {
        this.scanned = read;
        return 0;
      }
    }
    this.scanned = read;
    if (st.eof === UNKNOWN) st.eof = this.closure(st.seeds, st.seeds.length, st.atStart, st.prevWord, -1) ? 1 : 0;
    return st.eof;
  }

  /** Continues without the cache: `cp` was just read (ending at index `i`) and is the next to consume from `st`. */
  private uncached(input: string, i: number, cp: number, st: DState, read: number, maxChars: number): number {
    let seeds = st.seeds;
    let n = seeds.length;
    let atStart = st.atStart;
    let prevWord = st.prevWord;
    const back = this.backward;
    for (;;) {
      if (this.closure(seeds, n, atStart, prevWord, cp)) {
        this.scanned = read;
        return 1;
      }
      if (cp < 0) {
        this.scanned = read;
        return 0;
      }
      n = this.step(cp);
      seeds = this.next; // closure() copies its seeds before step() overwrites `next`
      if (this.anchored && n === 0) {
        this.scanned = read;
        return 0;
      }
      atStart = false;
      prevWord = isWordChar(cp);
      if (back ? i <= 0 : i >= input.length) {
        cp = -1;
        continue;
      }
      if (++read > maxChars) {
        this.scanned = read;
        return -1;
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
    if (this.closure(st.seeds, st.seeds.length, st.atStart, st.prevWord, cp)) {
      t = MATCHED;
    } else {
      const n = this.step(cp);
      const seeds = this.next.slice(0, n).sort();
      const prevWord = isWordChar(cp);
      if (this.words + n + 160 > CACHE_WORDS) this.flush();
      t = this.stateId(seeds, false, prevWord);
    }
    if (cp < 128) st.ascii[cp] = t;
    else {
      st.other.set(cp, t);
      this.words += 4;
    }
    return t;
  }

  private flush(): void {
    this.states = [];
    this.index = new Map();
    this.words = 0;
    this.initialIds.fill(-1);
    this.flushes++;
  }

  private stateId(seeds: Int32Array, atStart: boolean, prevWord: boolean): number {
    const key = (atStart ? (prevWord ? "S" : "s") : prevWord ? "w" : "n") + seeds.join(",");
    const hit = this.index.get(key);
    if (hit !== undefined) return hit;
    const ascii = new Int32Array(128).fill(UNKNOWN);
    this.words += seeds.length + 160;
    const id = this.states.push({ seeds, atStart, prevWord, ascii, other: new Map(), eof: UNKNOWN }) - 1;
    this.index.set(key, id);
    return id;
  }

  /**
   * Follows epsilon edges from `seeds` (plus the start state when unanchored) at a position whose
   * context is (atStart, prevWord, next code point or -1 at the end). Collects the consuming
   * instructions in `cons`; returns true when MATCH is reachable.
   */
  private closure(seeds: Int32Array, n: number, atStart: boolean, prevWord: boolean, next: number): boolean {
    const { op, a, b } = this.prog;
    const stamp = this.stamp;
    const stack = this.stack;
    if (++this.gen === 0xffffffff) {
      stamp.fill(0);
      this.gen = 1;
    }
    const gen = this.gen;
    let sp = 0;
    for (let i = 0; i < n; i++) stack[sp++] = seeds[i]!;
    if (!this.anchored) stack[sp++] = 0;
    let nc = 0;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (stamp[pc] === gen) continue;
      stamp[pc] = gen;
      switch (op[pc]) {
        case OP_CHAR:
        case OP_SET:
          this.cons[nc++] = pc;
          break;
        case OP_SPLIT:
          stack[sp++] = b[pc]!;
          stack[sp++] = a[pc]!;
          break;
        case OP_JMP:
          stack[sp++] = a[pc]!;
          break;
        case OP_MATCH:
          this.nCons = nc;
          return true;
        case OP_ASSERT: {
          const k = a[pc]!;
          let ok: boolean;
          if (k === ASSERT_BEGIN) ok = this.backward ? next < 0 : atStart;
          else if (k === ASSERT_END) ok = this.backward ? atStart : next < 0;
          else ok = (prevWord !== (next >= 0 && isWordChar(next))) === (k === ASSERT_WORD);
          if (ok) stack[sp++] = pc + 1;
          break;
        }
      }
    }
    this.nCons = nc;
    return false;
  }

  /** Advances the collected consuming instructions over `cp` into `next`; returns the count. */
  private step(cp: number): number {
    const { op, a, sets } = this.prog;
    let n = 0;
    for (let i = 0; i < this.nCons; i++) {
      const pc = this.cons[i]!;
      if (op[pc] === OP_CHAR ? a[pc] === cp : sets[a[pc]!]!.has(cp)) this.next[n++] = pc + 1;
    }
    return n;
  }
}
