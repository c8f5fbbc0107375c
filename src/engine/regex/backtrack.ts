/**
 * Backtracking matcher for programs with backreferences or lookarounds. It follows the ECMA-262
 * matcher semantics exactly (ordered choice, per-iteration capture reset, the empty-iteration
 * check, atomic lookarounds, backward lookbehind) with an explicit stack and a budget of work: the
 * answer is exact, or the budget runs out first (OVER_BUDGET). Every instruction executed costs
 * UNITS_PER_INSTRUCTION units (an instruction here costs about twice a cached automaton transition), a
 * lookaround decided by a linear matcher LOOK_CALL_UNITS more besides what that matcher spends, and every
 * capture register a reset visits, every code unit a backreference compares and every stack entry an atomic
 * lookaround keeps one unit. Never recursive except for lookaround nesting, which the
 * parser bounds. The stack is shrunk back after a call that grew it.
 */
import { LimitError } from "../errors.js";
import { codePointBefore, isWordChar } from "./charset.js";
import { MATCH, NO_MATCH, OVER_BUDGET, type LinearMatcher } from "./linear.js";
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
/** The stack a matcher starts with, and keeps between calls. */
const INITIAL_STACK_WORDS = 3 * 256;

/** Units of work per instruction executed, and per lookaround handed to a linear matcher (docs/reference/limits.md). */
const UNITS_PER_INSTRUCTION = 2;
const LOOK_CALL_UNITS = 4;

/** Thrown inside a match when its budget runs out; `run` turns it into OVER_BUDGET. */
const OUT_OF_BUDGET: unique symbol = Symbol("out of budget");

export class Backtracker {
  private readonly regs: Int32Array;
  private stack = new Int32Array(INITIAL_STACK_WORDS);
  private sp = 0;
  private steps = 0;
  private budget = 0;
  private input = "";
  /** Units of work the last call spent (docs/reference/limits.md "What one step is"). */
  spent = 0;

  /**
   * `looks` maps the pc of a LOOK instruction to an anchored linear matcher for its body, when the
   * body has no groups, backreferences or lookarounds (then it only needs a yes/no answer).
   */
  constructor(
    private readonly prog: Program,
    private readonly anchored: boolean,
    private readonly looks: ReadonlyMap<number, LinearMatcher> = new Map(),
  ) {
    this.regs = new Int32Array(prog.slots);
    this.lookAt = Array.from(prog.op, (_, pc) => looks.get(pc));
  }

  /** `looks` by pc, read on every LOOK instruction. */
  private readonly lookAt: readonly (LinearMatcher | undefined)[];

  /** Whether `input` has a match (MATCH / NO_MATCH), or OVER_BUDGET; `spent` says what it cost. */
  run(input: string, budget: number): number {
    this.input = input;
    this.budget = budget;
    // Resetting the registers once is charged; a failed attempt restores them itself, through its undo entries.
    this.steps = this.regs.length;
    try {
      if (this.steps > budget) return OVER_BUDGET;
      this.regs.fill(-1);
      for (let start = 0; start <= input.length;) {
        this.sp = 0;
        if (this.search(0, start)) return MATCH;
        if (this.anchored || start === input.length) break;
        start += codePointWidthAt(input, start);
      }
      return NO_MATCH;
    } catch (e) {
      if (e === OUT_OF_BUDGET) return OVER_BUDGET;
      throw e;
    } finally {
      this.spent = this.steps;
      this.input = "";
      if (this.stack.length > INITIAL_STACK_WORDS) this.stack = new Int32Array(INITIAL_STACK_WORDS);
      for (const look of this.looks.values()) look.release();
    }
  }

  /** @internal The words of backtrack stack it keeps between calls (for tests). */
  stackWords(): number {
    return this.stack.length;
  }

  /** Charges `units` of work; throws OUT_OF_BUDGET past the budget. */
  private charge(units: number): void {
    if ((this.steps += units) > this.budget) throw OUT_OF_BUDGET;
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
    this.charge((this.sp - base) / 3);
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
  private search(pc: number, pos: number): boolean {
    const { op, a, b, sets } = this.prog;
    const input = this.input;
    const len = input.length;
    const regs = this.regs;
    const base = this.sp;
    for (;;) {
      if ((this.steps += UNITS_PER_INSTRUCTION) > this.budget) throw OUT_OF_BUDGET;
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
          this.charge(b[pc]! - a[pc]! + 1);
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
          const linear = this.lookAt[pc];
          if (linear !== undefined) {
            const r = linear.prefixMatch(input, pos, this.budget - this.steps);
            this.charge(linear.spent + LOOK_CALL_UNITS);
            if (r === OVER_BUDGET) throw OUT_OF_BUDGET;
            ok = (r === MATCH) !== negate;
            pc = b[pc]!;
            break;
          }
          const mark = this.sp;
          const found = this.search(pc + 1, pos);
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
    this.charge(n);
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
