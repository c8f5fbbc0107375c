/**
 * When may the runtime's own backtracking `new RegExp(source, "u")` decide `test(input)`?
 *
 * Only when the answer is the ECMA-262 answer AND the work is provably small. `nativeSafe`
 * decides this at compile time from the AST, for inputs of at most NATIVE_MAX_INPUT code units;
 * longer inputs, and every pattern it rejects, stay on our own linear engine.
 *
 * Agreement with the specification. Only these node kinds are admitted: the empty pattern,
 * characters (not lone surrogates), character sets, `^`, `$` (no `m` flag), groups (capturing or
 * not), alternation, and quantifiers. Everything where V8 is known to differ from ECMA-262, or
 * where matching needs more than the backtracking described below, is refused: `\b` / `\B` (V8
 * also tries positions between the halves of a surrogate pair, so `/\B/u.test("a😀b")` is true
 * there and false in the spec), backreferences (V8 mis-matches an astral literal after a
 * backreference) and lookbehinds; lone surrogate characters are refused as well, to stay clear of
 * V8's special handling of surrogate halves. None of the admitted atoms can match at a position
 * inside a surrogate pair (a character or set consumes whole code points, `^` / `$` only hold at
 * the ends, empty matches are found at index 0 anyway), so V8 trying such start positions cannot
 * change an answer. Lookaheads are admitted only in a pattern that begins with `^` outside any alternation (a
 * negative lookahead could hold between the halves of a pair; with `^` only index 0 is a start, and every position
 * reached from it is a code point boundary). The differential tests check the admitted class against the
 * specification.
 *
 * Work bound. ECMA-262 matching (and V8's irregexp, which compiles exactly that search; its
 * optimisations only prune it) is a depth-first search over choice points: an alternation tries
 * its alternatives in order, a quantifier tries one more iteration or the continuation (greedy or
 * lazy order). For a node X started at a fixed input position with some continuation K, let
 * `paths(X)` bound how many times X calls K (over the whole search of X, backtracking included)
 * and `steps(X)` bound the work X does itself, excluding the time spent inside K. Then the whole
 * search costs at most steps(X) + paths(X) × cost(K), and:
 *
 * - character, `^`, `$`, empty: steps 1, paths 1 (deterministic, no choice).
 * - set: steps = its UTF-16 pieces (`CharSet.utf16Pieces`: its BMP ranges and its runs of surrogate pairs, which the
 *   runtime tries one after another), paths 1. A set with a property escape, or with more than MAX_SET_PIECES
 *   pieces, is refused: the runtime expands it into ranges we do not see.
 * - group: steps(body) + 1, paths(body) (saving / restoring a capture is constant work).
 * - sequence A·B with continuation K runs A with continuation B·K:
 *     steps = steps(A) + paths(A) × steps(B),  paths = paths(A) × paths(B)  (folded left).
 * - alternation: each alternative is tried once with the same continuation:
 *     steps = 1 + Σ steps(alt),  paths = Σ paths(alt).
 *   Inside a quantifier body only a deterministic alternation is admitted: every alternative without a choice point
 *   (paths 1), none nullable, and the code points each can begin with pairwise disjoint. At any position at most
 *   one alternative gets past its first code point, so the alternation matches at most one way: paths 1.
 * - lookahead `(?=X)` / `(?!X)`: X runs with a continuation that succeeds at once, and the continuation after the
 *   lookahead runs at most once (ECMA-262 lookarounds are atomic): steps = steps(X) + paths(X) + 1, paths 1.
 * - `X{0}` never runs X: steps 1, paths 1. `X{1}` is X: steps(X) + 1, paths(X). (X must be
 *   admitted in both cases, with the same restrictions as where the quantifier stands.)
 * - `X?` / `X{0,1}` is `(?:X|)` (the empty check can only remove paths): steps = steps(X) + 1,
 *   paths = paths(X) + 1. Outside quantifier bodies X may be any admitted node.
 * - any other quantifier {min,max}, max ≥ 2: its body must contain no alternation and no
 *   quantifier other than `{0}` / `{1}` (star height ≤ 1, no ambiguous alternation under
 *   repetition; anything else is refused). Then the body has no choice point, so it either fails
 *   or matches one fixed string. If that string is not empty (the body is not nullable) every
 *   iteration consumes at least one code unit, so at most min(max, n) iterations succeed and one
 *   more fails, and the continuation is called at most once per iteration count in
 *   [min, min(max, n)]: steps = (min(max, n) + 1) × (steps(body) + 1),
 *   paths = max(1, min(max, n) − min + 1) — the "backtracking width". If the body is nullable it
 *   always matches empty, and the ECMA-262 empty check (RepeatMatcher step 2.b) ends the loop
 *   after the min mandatory iterations: steps = (min + 1) × (steps(body) + 1), paths = 1.
 *
 * `test` retries the search at each start position: n + 1 of them in the worst case for an input
 * of n code units, or one when the pattern begins with `^` outside any alternation (at every
 * other position that `^` fails at once, which costs at most n + 1 more steps). So the total work
 * on an input of at most n code units is bounded by
 *   cost(n) = starts × (steps(root) + paths(root)) (+ n + 1 when anchored),
 * which is nondecreasing in n (every term is). `nativeLimit` is the largest n ≤ NATIVE_MAX_INPUT
 * with cost(n) ≤ NATIVE_STEP_BUDGET; inputs up to that length may go to the native RegExp. All
 * arithmetic is in doubles; an overflow becomes Infinity and is refused. E.g. `^[a-z]+$` costs
 * about 5n (limit 1000), `^[^@]+@[^@]+$` about 4n² (limit ~150), `^(a+)+$` is refused outright
 * (nested quantifier), `\d+\d+\d+x` costs about 4n⁴ (limit ~12).
 *
 * The budget is deliberately small: on the worst inputs we measured V8 spends up to about 0.5 ns
 * per budget unit, so 10^5 keeps a hostile input within about 50 µs, the order of our linear
 * engine on a 1,000-unit input; a budget of 10^7 would allow several milliseconds per test().
 */
import { nullable } from "./analysis.js";
import type { Node, ParsedPattern } from "./ast.js";
import type { CharSet } from "./charset.js";

/** Inputs longer than this (in UTF-16 code units) never go to the native engine. */
export const NATIVE_MAX_INPUT = 1000;
/** Upper bound (in the units of the cost model above) on the native engine's work for one test() call. */
export const NATIVE_STEP_BUDGET = 100_000;
/** A set with more UTF-16 pieces than this stays on our engine. */
const MAX_SET_PIECES = 256;
/**
 * A pattern with more AST nodes than this stays on our engine: the runtime compiles a pattern when it first runs,
 * and very large ones (thousands of lookaheads) can overflow its stack there.
 */
const MAX_NATIVE_NODES = 1000;
/**
 * Units of the cost model per unit of regex work charged to the evaluation (docs/reference/limits.md): the native
 * engine does one unit of the model in a fraction of the time our engines take for one unit of theirs.
 */
const MODEL_UNITS_PER_CHARGE = 8;

interface Cost {
  /** Work done by the node itself, excluding its continuation. */
  readonly steps: number;
  /** Times the node may call its continuation. */
  readonly paths: number;
}

const UNIT: Cost = { steps: 1, paths: 1 };

/** The bound on native work for `test` over inputs of at most `n` code units, or Infinity when not admitted. */
export function nativeCost(parsed: ParsedPattern, n: number): number {
  const anchored = leadingCaret(parsed.root);
  if (parsed.hasBackref || (parsed.hasLook && !anchored)) return Infinity;
  if (nodeCount(parsed.root, MAX_NATIVE_NODES + 1) > MAX_NATIVE_NODES) return Infinity;
  const c = cost(parsed.root, false, n);
  if (c === null) return Infinity;
  const perStart = c.steps + c.paths;
  return anchored ? perStart + n + 1 : (n + 1) * perStart;
}

/** True when V8's RegExp may decide `test` for every input of at most `n` code units. */
export function nativeSafe(parsed: ParsedPattern, n: number = NATIVE_MAX_INPUT): boolean {
  return nativeCost(parsed, n) <= NATIVE_STEP_BUDGET;
}

/**
 * The largest input length (≤ NATIVE_MAX_INPUT) up to which V8's RegExp may decide `test`, or -1
 * when the pattern is not admitted (or not even the empty input fits the budget).
 */
export function nativeLimit(parsed: ParsedPattern): number {
  if (nativeSafe(parsed, NATIVE_MAX_INPUT)) return NATIVE_MAX_INPUT;
  let lo = -1; // largest length known to fit
  let hi = NATIVE_MAX_INPUT; // smallest length known not to fit
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (nativeSafe(parsed, mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The cost of `node`, or null when the node is not admitted. `inRepeat`: inside a quantifier body. */
function cost(node: Node, inRepeat: boolean, n: number): Cost | null {
  switch (node.type) {
    case "empty":
      return UNIT;
    case "set": {
      const pieces = node.set.utf16Pieces();
      return pieces > MAX_SET_PIECES ? null : { steps: Math.max(1, pieces), paths: 1 };
    }
    case "char":
      return node.cp >= 0xd800 && node.cp <= 0xdfff ? null : UNIT;
    case "assert":
      return node.kind === "^" || node.kind === "$" ? UNIT : null;
    case "group": {
      const c = cost(node.body, inRepeat, n);
      return c === null ? null : { steps: c.steps + 1, paths: c.paths };
    }
    case "seq": {
      let steps = 0;
      let paths = 1;
      for (const item of node.items) {
        const c = cost(item, inRepeat, n);
        if (c === null) return null;
        steps += paths * c.steps;
        paths *= c.paths;
      }
      return { steps, paths };
    }
    case "alt": {
      if (inRepeat) return deterministicAlternation(node.alts, n);
      let steps = 1;
      let paths = 0;
      for (const alt of node.alts) {
        const c = cost(alt, false, n);
        if (c === null) return null;
        steps += c.steps;
        paths += c.paths;
      }
      return { steps, paths };
    }
    case "repeat": {
      if (node.max === 0 || (node.min === 1 && node.max === 1)) {
        const c = cost(node.body, inRepeat, n);
        if (c === null) return null;
        return node.max === 0 ? UNIT : { steps: c.steps + 1, paths: c.paths };
      }
      if (inRepeat) return null;
      if (node.max === 1) {
        const c = cost(node.body, false, n);
        return c === null ? null : { steps: c.steps + 1, paths: c.paths + 1 };
      }
      const body = cost(node.body, true, n);
      if (body === null) return null;
      if (nullable(node.body)) return { steps: (node.min + 1) * (body.steps + 1), paths: 1 };
      const top = Math.min(node.max, n);
      return { steps: (top + 1) * (body.steps + 1), paths: Math.max(1, top - node.min + 1) };
    }
    case "look": {
      if (node.behind) return null;
      const c = cost(node.body, inRepeat, n);
      return c === null ? null : { steps: c.steps + c.paths + 1, paths: 1 };
    }
    default:
      return null;
  }
}

/** An alternation inside a quantifier body: admitted only when deterministic (see the cost model above). */
function deterministicAlternation(alts: readonly Node[], n: number): Cost | null {
  let steps = 1;
  const firsts: First[] = [];
  for (const alt of alts) {
    const c = cost(alt, true, n);
    if (c === null || c.paths !== 1 || nullable(alt)) return null;
    const first = firstOf(alt);
    if (first === null || firsts.some((other) => !disjoint(first, other))) return null;
    firsts.push(first);
    steps += c.steps;
  }
  return { steps, paths: 1 };
}

/** The code points a match can begin with: one code point, or a set without Unicode property escapes. */
type First = { readonly kind: "cp"; readonly cp: number } | { readonly kind: "set"; readonly set: CharSet };

/** What `node` can begin with, or null when that is not a plain code point or range set (then: not disjoint). */
function firstOf(node: Node): First | null {
  switch (node.type) {
    case "char":
      return { kind: "cp", cp: node.cp };
    case "set":
      return node.set.props.length === 0 ? { kind: "set", set: node.set } : null;
    case "group":
      return firstOf(node.body);
    case "seq":
      return node.items.length > 0 ? firstOf(node.items[0]!) : null;
    case "repeat":
      return node.min >= 1 ? firstOf(node.body) : null;
    default:
      return null;
  }
}

/** True when no code point can begin both; unsure (two negated sets) counts as not disjoint. */
function disjoint(a: First, b: First): boolean {
  if (a.kind === "cp") return b.kind === "cp" ? a.cp !== b.cp : !b.set.has(a.cp);
  if (b.kind === "cp") return !a.set.has(b.cp);
  const [x, y] = [a.set, b.set];
  if (x.negate && y.negate) return false;
  if (x.negate || y.negate) {
    // A set and the complement of another are disjoint when the first lies inside the other's ranges.
    const [inside, outer] = x.negate ? [y, x] : [x, y];
    return rangesWithin(inside.ranges, outer.ranges);
  }
  return !rangesOverlap(x.ranges, y.ranges);
}

/** Whether two sorted lists of [lo, hi] pairs share a code point. */
function rangesOverlap(a: Int32Array, b: Int32Array): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

/** Whether every pair of `inner` lies inside one pair of `outer` (both sorted and merged). */
function rangesWithin(inner: Int32Array, outer: Int32Array): boolean {
  let j = 0;
  for (let i = 0; i < inner.length; i += 2) {
    while (j < outer.length && outer[j + 1]! < inner[i]!) j += 2;
    if (j >= outer.length || outer[j]! > inner[i]! || outer[j + 1]! < inner[i + 1]!) return false;
  }
  return true;
}

/** True when the pattern begins with `^` outside any alternation or quantifier. */
function leadingCaret(node: Node): boolean {
  switch (node.type) {
    case "assert":
      return node.kind === "^";
    case "group":
      return leadingCaret(node.body);
    case "seq":
      return node.items.length > 0 && leadingCaret(node.items[0]!);
    default:
      return false;
  }
}

/** Input lengths at which the charge of a native call is tabled (each about 1.5 times the last, up to 1024). */
const CHARGE_LENGTHS: readonly number[] = (() => {
  const lengths = [0, 1, 2, 3];
  while (lengths[lengths.length - 1]! < 1024) lengths.push(Math.ceil(lengths[lengths.length - 1]! * 1.5));
  return lengths;
})();

/** For each input length up to 1024, the index of the first tabled length at or above it. */
const CHARGE_BUCKET: Uint8Array = (() => {
  const bucket = new Uint8Array(1025);
  let k = 0;
  for (let n = 0; n <= 1024; n++) {
    while (CHARGE_LENGTHS[k]! < n) k++;
    bucket[n] = k;
  }
  return bucket;
})();

/**
 * What a native call on an input of each tabled length is charged (regex work units, docs/reference/limits.md): the
 * cost model's bound at that length, which is nondecreasing, so the charge of a length is that of the next tabled one.
 */
export function nativeCharges(parsed: ParsedPattern): Float64Array {
  return Float64Array.from(CHARGE_LENGTHS, (n) => Math.ceil(nativeCost(parsed, n) / MODEL_UNITS_PER_CHARGE));
}

/** The charge of a native call on `length` code units (at most 1024), from `nativeCharges`. */
export function nativeCharge(charges: Float64Array, length: number): number {
  return charges[CHARGE_BUCKET[length]!]!;
}

/** The number of AST nodes, counted up to `stop`. */
function nodeCount(root: Node, stop: number): number {
  let count = 0;
  const pending: Node[] = [root];
  while (pending.length > 0 && count < stop) {
    const node = pending.pop()!;
    count++;
    switch (node.type) {
      case "seq":
        pending.push(...node.items);
        break;
      case "alt":
        pending.push(...node.alts);
        break;
      case "group":
      case "repeat":
      case "look":
        pending.push(node.body);
        break;
    }
  }
  return count;
}

/**
 * Inputs of about `length` code units that drive the cost model's bound: each code point a character or a set of the
 * pattern can match (a few of its members), repeated, alone and with a control character (BEL, which patterns
 * rarely expect) at the end or the start, so that every repetition runs to its widest and the search then fails.
 */
export function adversarialInputs(parsed: ParsedPattern, length: number): string[] {
  const members = new Set<number>();
  const pending: Node[] = [parsed.root];
  while (pending.length > 0 && members.size < 16) {
    const node = pending.pop()!;
    switch (node.type) {
      case "char":
        members.add(node.cp);
        break;
      case "set":
        for (const cp of sampleMembers(node.set)) members.add(cp);
        break;
      case "seq":
        pending.push(...node.items);
        break;
      case "alt":
        pending.push(...node.alts);
        break;
      case "group":
      case "repeat":
      case "look":
        pending.push(node.body);
        break;
    }
  }
  const inputs: string[] = [];
  for (const cp of members) {
    const unit = String.fromCodePoint(cp);
    const body = unit.repeat(Math.floor(length / unit.length));
    inputs.push(body, body.slice(0, Math.max(0, body.length - 1)) + "\u0007", "\u0007" + body.slice(1));
  }
  return inputs;
}

/** A few members of a set: the first code point of each of its first ranges (of the complement when negated). */
function sampleMembers(set: CharSet): number[] {
  const out: number[] = [];
  if (!set.negate) {
    for (let i = 0; i < set.ranges.length && out.length < 4; i += 2) out.push(set.ranges[i]!);
    return out;
  }
  for (const cp of [0x61, 0x31, 0x20, 0x2d, 0x1f600]) if (set.has(cp)) out.push(cp);
  return out;
}
