/**
 * Backtracking matcher for programs with backreferences or lookarounds. It follows the ECMA-262
 * matcher semantics exactly (ordered choice, per-iteration capture reset, the empty-iteration
 * check, atomic lookarounds, backward lookbehind) with an explicit stack and a step budget: the
 * answer is exact, or a LimitError("maxRegexSteps", budget) is thrown. Never recursive except
 * for lookaround nesting, which the parser bounds.
 */
import { LimitError } from "../errors.js";
import { codePointBefore, isWordChar } from "./charset.js";
import type { LinearMatcher } from "./linear.js";
import {
  ASSERT_BEGIN,
  ASSERT_END,
  ASSERT_WORD,
  OP_ASSERT,
  OP_BACKREF,
  OP_BACKREF_B,
  OP_CHAR,
  OP_CHAR_B,
  OP_CHECK,
  OP_CLEAR,
  OP_JMP,
  OP_LOOK,
  OP_LOOKEND,
  OP_MARK,
  OP_MATCH,
  OP_SAVE,
  OP_SET,
  OP_SET_B,
  OP_SPLIT,
  type Program,
} from "./program.js";

const TAG_BRANCH = 0;
const TAG_UNDO = 1;
/** The backtrack stack may hold at most this many 32-bit words. */
const MAX_STACK_WORDS = 1 << 23;

export class Backtracker {
  private readonly regs: Int32Array;
  private stack = new Int32Array(3 * 256);
  private sp = 0;
  private steps = 0;
  private input = "";

  /**
   * `looks` maps the pc of a LOOK instruction to an anchored linear matcher for its body, when the
   * body has no groups, backreferences or lookarounds (then it only needs a yes/no answer).
   */
  constructor(
    private readonly prog: Program,
    private readonly anchored: boolean,
    private readonly budget: number,
    private readonly looks: ReadonlyMap<number, LinearMatcher> = new Map(),
  ) {
    this.regs = new Int32Array(prog.slots);
  }

  test(input: string): boolean {
    this.input = input;
    this.steps = 0;
    try {
      for (let start = 0; start <= input.length;) {
        this.regs.fill(-1);
        this.sp = 0;
        if (this.run(0, start)) return true;
        if (this.anchored || start === input.length) break;
        start += codePointWidthAt(input, start);
      }
      return false;
    } finally {
      this.input = "";
    }
  }

  private push(tag: number, x: number, y: number): void {
    if (this.sp + 3 > this.stack.length) {
      if (this.stack.length * 2 > MAX_STACK_WORDS) throw new LimitError("maxRegexBacktrackStack", MAX_STACK_WORDS);
      const bigger = new Int32Array(this.stack.length * 2);
      bigger.set(this.stack);
      this.stack = bigger;
    }
    const s = this.stack;
    s[this.sp] = tag;
    s[this.sp + 1] = x;
    s[this.sp + 2] = y;
    this.sp += 3;
  }

  /** Pops undo entries down to `base`, restoring registers. */
  private unwind(base: number): void {
    const s = this.stack;
    while (this.sp > base) {
      this.sp -= 3;
      if (s[this.sp] === TAG_UNDO) this.regs[s[this.sp + 1]!] = s[this.sp + 2]!;
    }
  }

  /** Drops the branch entries above `base` (a lookaround succeeded: it is atomic) but keeps the undo entries. */
  private commit(base: number): void {
    const s = this.stack;
    let w = base;
    for (let r = base; r < this.sp; r += 3) {
      if (s[r] === TAG_UNDO) {
        s[w] = s[r]!;
        s[w + 1] = s[r + 1]!;
        s[w + 2] = s[r + 2]!;
        w += 3;
      }
    }
    this.sp = w;
  }

  /**
   * Runs from (pc, pos) until MATCH / LOOKEND (true) or until every choice above the current stack top failed (false).
   */
  private run(pc: number, pos: number): boolean {
    const { op, a, b, sets } = this.prog;
    const input = this.input;
    const len = input.length;
    const regs = this.regs;
    const base = this.sp;
    for (;;) {
      if (++this.steps > this.budget) throw new LimitError("maxRegexSteps", this.budget);
      let ok = true;
      switch (op[pc]) {
        case OP_CHAR:
        case OP_SET: {
          if (pos >= len) {
            ok = false;
            break;
          }
          const cp = input.codePointAt(pos)!;
          ok = op[pc] === OP_CHAR ? cp === a[pc] : sets[a[pc]!]!.has(cp);
          pos += cp > 0xffff ? 2 : 1;
          pc++;
          break;
        }
        case OP_CHAR_B:
        case OP_SET_B: {
          if (pos <= 0) {
            ok = false;
            break;
          }
          const cp = codePointBefore(input, pos);
          ok = op[pc] === OP_CHAR_B ? cp === a[pc] : sets[a[pc]!]!.has(cp);
          pos -= cp > 0xffff ? 2 : 1;
          pc++;
          break;
        }
        case OP_SPLIT:
          this.push(TAG_BRANCH, b[pc]!, pos);
          pc = a[pc]!;
          break;
        case OP_JMP:
          pc = a[pc]!;
          break;
        case OP_ASSERT:
          ok = assertAt(input, pos, a[pc]!);
          pc++;
          break;
        case OP_MATCH:
        case OP_LOOKEND:
          return true;
        case OP_SAVE:
        case OP_MARK:
          this.push(TAG_UNDO, a[pc]!, regs[a[pc]!]!);
          regs[a[pc]!] = pos;
          pc++;
          break;
        case OP_CLEAR:
          for (let r = a[pc]!; r <= b[pc]!; r++) {
            if (regs[r] !== -1) {
              this.push(TAG_UNDO, r, regs[r]!);
              regs[r] = -1;
            }
          }
          pc++;
          break;
        case OP_CHECK:
          ok = regs[a[pc]!] !== pos;
          pc++;
          break;
        case OP_BACKREF:
        case OP_BACKREF_B: {
          const next = this.backref(a[pc]!, pos, op[pc] === OP_BACKREF_B);
          ok = next >= 0;
          pos = next;
          pc++;
          break;
        }
        case OP_LOOK: {
          const negate = (a[pc]! & 1) === 1;
          const linear = this.looks.get(pc);
          if (linear !== undefined) {
            const r = linear.prefixMatch(input, pos, Math.max(0, this.budget - this.steps));
            this.steps += linear.scanned;
            if (r < 0) throw new LimitError("maxRegexSteps", this.budget);
            ok = (r === 1) !== negate;
            pc = b[pc]!;
            break;
          }
          const mark = this.sp;
          const found = this.run(pc + 1, pos);
          if (found && !negate) this.commit(mark);
          else if (found) this.unwind(mark);
          ok = found !== negate;
          pc = b[pc]!;
          break;
        }
      }
      if (ok) continue;
      // Backtrack to the most recent branch above `base`.
      const s = this.stack;
      for (;;) {
        if (this.sp <= base) return false;
        this.sp -= 3;
        if (s[this.sp] === TAG_UNDO) {
          regs[s[this.sp + 1]!] = s[this.sp + 2]!;
          continue;
        }
        pc = s[this.sp + 1]!;
        pos = s[this.sp + 2]!;
        break;
      }
    }
  }

  /** Matches the text of group `g` at `pos` (backward: ending at `pos`); returns the new position or -1. */
  private backref(g: number, pos: number, backward: boolean): number {
    const start = this.regs[2 * g]!;
    const end = this.regs[2 * g + 1]!;
    if (start < 0 || end < 0) return pos;
    const n = end - start;
    const input = this.input;
    const from = backward ? pos - n : pos;
    if (from < 0 || from + n > input.length) return -1;
    this.steps += n;
    for (let i = 0; i < n; i++) if (input.charCodeAt(from + i) !== input.charCodeAt(start + i)) return -1;
    // Compare code points, not code units: the matched window must not split a surrogate pair.
    if (n > 0 && (backward ? splitsPair(input, from) : splitsPair(input, from + n))) return -1;
    return backward ? from : from + n;
  }
}

/** True when index `i` falls between the two halves of a surrogate pair. */
function splitsPair(s: string, i: number): boolean {
  return i > 0 && i < s.length && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800 && (s.charCodeAt(i) & 0xfc00) === 0xdc00;
}

function codePointWidthAt(s: string, i: number): number {
  return s.codePointAt(i)! > 0xffff ? 2 : 1;
}

function assertAt(s: string, pos: number, kind: number): boolean {
  if (kind === ASSERT_BEGIN) return pos === 0;
  if (kind === ASSERT_END) return pos === s.length;
  const before = pos > 0 && isWordChar(s.charCodeAt(pos - 1));
  const after = pos < s.length && isWordChar(s.charCodeAt(pos));
  return (before !== after) === (kind === ASSERT_WORD);
}
