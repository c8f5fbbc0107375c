/**
 * Compiles the AST to a flat instruction program. Counted repetitions are expanded; the program
 * size is capped. Two modes: "linear" (no captures, for the automaton) and "backtrack" (captures,
 * per-iteration capture reset, the ECMA-262 empty-iteration check, lookarounds, backreferences,
 * and backward compilation of lookbehind bodies).
 */
import { LimitError } from "../errors.js";
import type { AssertKind, Node, ParsedPattern } from "./ast.js";
import type { CharSet } from "./charset.js";
import { nullable } from "./analysis.js";

export const OP_CHAR = 0,
  OP_SET = 1,
  OP_SPLIT = 2,
  OP_JMP = 3,
  OP_ASSERT = 4,
  OP_MATCH = 5,
  OP_SAVE = 6,
  OP_CLEAR = 7,
  OP_MARK = 8,
  OP_CHECK = 9,
  OP_BACKREF = 10,
  OP_LOOK = 11,
  OP_LOOKEND = 12,
  OP_CHAR_B = 13,
  OP_SET_B = 14,
  OP_BACKREF_B = 15;

export const ASSERT_BEGIN = 0;
export const ASSERT_END = 1;
export const ASSERT_WORD = 2;
/** The last assertion code: matchers treat every code not listed above as "not at a word boundary". */
const ASSERT_NOT_WORD = 3;
const ASSERT_CODES: Readonly<Record<AssertKind, number>> = {
  "^": ASSERT_BEGIN,
  $: ASSERT_END,
  b: ASSERT_WORD,
  B: ASSERT_NOT_WORD,
};

/**
 * Instruction i is (op[i], a[i], b[i]). SPLIT tries a first, then b. LOOK: a = bit 0 negate,
 * bit 1 behind; the body starts at i + 1 and ends with LOOKEND; b is the continuation.
 */
export interface Program {
  readonly op: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly sets: readonly CharSet[];
  /** Registers: 2 per capture group (group 0 unused) then one MARK register per repeat node. */
  readonly slots: number;
  /** The LOOK instructions and their nodes (backtrack mode). */
  readonly looks: readonly { readonly pc: number; readonly node: Extract<Node, { type: "look" }> }[];
}

class Compiler {
  private readonly op: number[] = [];
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  private readonly sets: CharSet[] = [];
  private readonly setIndex = new Map<CharSet, number>();
  private work = 0;
  private readonly looks: { pc: number; node: Extract<Node, { type: "look" }> }[] = [];

  constructor(
    private readonly parsed: ParsedPattern,
    private readonly backtrack: boolean,
    private readonly maxSize: number,
  ) {}

  build(backward: boolean): Program {
    this.node(this.parsed.root, backward);
    this.emit(OP_MATCH, 0, 0);
    return {
      op: Int32Array.from(this.op),
      a: Int32Array.from(this.a),
      b: Int32Array.from(this.b),
      sets: this.sets,
      slots: 2 * (this.parsed.groupCount + 1) + this.parsed.repeatCount,
      looks: this.looks,
    };
  }

  private emit(op: number, a: number, b: number): number {
    if (this.op.length >= this.maxSize) throw new LimitError("maxRegexProgramSize", this.maxSize);
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  private node(n: Node, back: boolean): void {
    if (++this.work > 4 * this.maxSize) throw new LimitError("maxRegexProgramSize", this.maxSize);
    switch (n.type) {
      case "empty":
        return;
      // In linear mode the matcher itself reads backward: only the order of a sequence is reversed.
      case "char":
        this.emit(back && this.backtrack ? OP_CHAR_B : OP_CHAR, n.cp, 0);
        return;
      case "set": {
        let idx = this.setIndex.get(n.set);
        if (idx === undefined) {
          idx = this.sets.push(n.set) - 1;
          this.setIndex.set(n.set, idx);
        }
        this.emit(back && this.backtrack ? OP_SET_B : OP_SET, idx, 0);
        return;
      }
      case "seq":
        if (back) for (let i = n.items.length - 1; i >= 0; i--) this.node(n.items[i]!, back);
        else for (const item of n.items) this.node(item, back);
        return;
      case "alt":
        return this.alt(n.alts, back);
      case "group": {
        if (!this.backtrack) return this.node(n.body, back);
        this.emit(OP_SAVE, 2 * n.index + (back ? 1 : 0), 0);
        this.node(n.body, back);
        this.emit(OP_SAVE, 2 * n.index + (back ? 0 : 1), 0);
        return;
      }
      case "assert":
        this.emit(OP_ASSERT, ASSERT_CODES[n.kind], 0);
        return;
      case "look": {
        const at = this.emit(OP_LOOK, (n.negate ? 1 : 0) | (n.behind ? 2 : 0), 0);
        this.looks.push({ pc: at, node: n });
        this.node(n.body, n.behind);
        this.emit(OP_LOOKEND, 0, 0);
        this.b[at] = this.op.length;
        return;
      }
      case "backref":
        this.emit(back ? OP_BACKREF_B : OP_BACKREF, n.group, 0);
        return;
      case "repeat":
        return this.repeat(n, back);
    }
  }

  private alt(alts: readonly Node[], back: boolean): void {
    const jumps: number[] = [];
    for (let i = 0; i < alts.length - 1; i++) {
      const split = this.emit(OP_SPLIT, 0, 0);
      this.a[split] = this.op.length;
      this.node(alts[i]!, back);
      jumps.push(this.emit(OP_JMP, 0, 0));
      this.b[split] = this.op.length;
    }
    this.node(alts[alts.length - 1]!, back);
    for (const j of jumps) this.a[j] = this.op.length;
  }

  /**
   * `X{min,}` for the automaton, which only asks whether a match exists (no captures, no empty check, no order of
   * choices): min − 1 copies of X, then `L: X; SPLIT L, end` (for min 0, a `SPLIT L, end` first). One copy of X
   * fewer than the backtracking form and no JMP, so a code point's closure reaches fewer instructions.
   */
  private loop(n: Extract<Node, { type: "repeat" }>, back: boolean): void {
    for (let i = 1; i < n.min; i++) {
      if (++this.work > 4 * this.maxSize) throw new LimitError("maxRegexProgramSize", this.maxSize);
      this.node(n.body, back);
    }
    const entry = n.min === 0 ? this.emit(OP_SPLIT, 0, 0) : -1;
    const body = this.op.length;
    this.node(n.body, back);
    const again = this.emit(OP_SPLIT, body, 0);
    const end = this.op.length;
    this.b[again] = end;
    if (entry >= 0) {
      this.a[entry] = body;
      this.b[entry] = end;
    }
  }

  private repeat(n: Extract<Node, { type: "repeat" }>, back: boolean): void {
    const clear = this.backtrack && n.lastGroup >= n.firstGroup;
    const check = this.backtrack && nullable(n.body);
    const reg = 2 * (this.parsed.groupCount + 1) + n.id;
    const once = (): void => {
      if (clear) this.emit(OP_CLEAR, 2 * n.firstGroup, 2 * n.lastGroup + 1);
      this.node(n.body, back);
    };
    /** One optional iteration: MARK, body, CHECK (the empty check applies once min is reached). */
    const optional = (): void => {
      if (check) this.emit(OP_MARK, reg, 0);
      once();
      if (check) this.emit(OP_CHECK, reg, 0);
    };
    if (n.min === Infinity) throw new LimitError("maxRegexProgramSize", this.maxSize);
    if (!this.backtrack && n.max === Infinity) return this.loop(n, back);
    for (let i = 0; i < n.min; i++) {
      if (++this.work > 4 * this.maxSize) throw new LimitError("maxRegexProgramSize", this.maxSize);
      once();
    }
    const splits: [number, number][] = [];
    if (n.max === Infinity) {
      const loop = this.emit(OP_SPLIT, 0, 0);
      const body = this.op.length;
      optional();
      this.emit(OP_JMP, loop, 0);
      splits.push([loop, body]);
    } else {
      for (let i = n.min; i < n.max; i++) {
        if (++this.work > 4 * this.maxSize) throw new LimitError("maxRegexProgramSize", this.maxSize);
        const split = this.emit(OP_SPLIT, 0, 0);
        splits.push([split, this.op.length]);
        optional();
      }
    }
    const end = this.op.length;
    for (const [split, body] of splits) {
      this.a[split] = n.greedy ? body : end;
      this.b[split] = n.greedy ? end : body;
    }
  }
}

/** `backward` compiles the root for right-to-left reading (a lookbehind body on its own). */
export function compileProgram(parsed: ParsedPattern, backtrack: boolean, maxSize: number, backward = false): Program {
  return new Compiler(parsed, backtrack, maxSize).build(backward);
}
