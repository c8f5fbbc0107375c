/** AST produced by the parser and consumed by the analysis and the program compiler. */
import type { CharSet } from "./charset.js";

/** Thrown by `compilePattern` for a pattern that `new RegExp(source, "u")` would reject. */
export class RegexSyntaxError extends Error {
  readonly pattern: string;
  readonly index: number;

  constructor(message: string, pattern: string, index: number) {
    super(`Invalid regular expression /${pattern}/u at ${index}: ${message}`);
    this.name = "RegexSyntaxError";
    this.pattern = pattern;
    this.index = index;
  }
}

export type AssertKind = "^" | "$" | "b" | "B";

export type Node =
  | { readonly type: "empty" }
  | { readonly type: "char"; readonly cp: number }
  | { readonly type: "set"; readonly set: CharSet }
  | { readonly type: "seq"; readonly items: readonly Node[] }
  | { readonly type: "alt"; readonly alts: readonly Node[] }
  /** A capturing group; `index` is 1-based. Non-capturing groups leave no node. */
  | { readonly type: "group"; readonly index: number; readonly body: Node }
  /**
   * `max` is Infinity for unbounded. Capture groups `firstGroup..lastGroup` (inclusive, 1-based;
   * lastGroup < firstGroup when none) are inside `body` and are reset on every iteration.
   */
  | {
      readonly type: "repeat";
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
      readonly body: Node;
      readonly firstGroup: number;
      readonly lastGroup: number;
      readonly id: number;
    }
  | { readonly type: "assert"; readonly kind: AssertKind }
  | { readonly type: "look"; readonly behind: boolean; readonly negate: boolean; readonly body: Node }
  | { readonly type: "backref"; readonly group: number };

export interface ParsedPattern {
  readonly root: Node;
  /** Number of capturing groups. */
  readonly groupCount: number;
  /** Number of repeat nodes (ids are 0..repeatCount-1). */
  readonly repeatCount: number;
  readonly hasBackref: boolean;
  readonly hasLook: boolean;
}
