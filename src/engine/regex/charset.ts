/**
 * Code point sets: sorted, merged [lo, hi] ranges plus Unicode property testers, optionally negated.
 * Membership of `\p{...}` is decided by the runtime's own RegExp on a one-code-point string
 * (`/^\p{...}$/u` built once per property, never from user text other than a validated name).
 */

import { inRanges } from "../json/ranges.js";

export const MAX_CP = 0x10ffff;

/** Tests one Unicode property (`\p{body}`), caching BMP answers. */
class PropertyTester {
  private readonly re: RegExp;
  private bmp: Uint8Array | null = null;

  constructor(
    body: string,
    private readonly cacheable: boolean,
  ) {
    this.re = new RegExp(`^\\p{${body}}$`, "u");
  }

  has(cp: number): boolean {
    if (cp > 0xffff || !this.cacheable) return this.re.test(String.fromCodePoint(cp));
    const cache = this.bmp ?? (this.bmp = new Uint8Array(0x10000));
    const known = cache[cp]!;
    if (known !== 0) return known === 2;
    const v = this.re.test(String.fromCodePoint(cp));
    cache[cp] = v ? 2 : 1;
    return v;
  }
}

const PROPERTY_CACHE = new Map<string, PropertyTester>();
const PROPERTY_CACHE_MAX = 128;

/** The tester for `\p{body}`, or null when the runtime rejects the property (a syntax error). */
export function propertyTester(body: string): PropertyTester | null {
  if (!/^[A-Za-z0-9_]+(=[A-Za-z0-9_]+)?$/.test(body)) return null;
  const hit = PROPERTY_CACHE.get(body);
  if (hit !== undefined) return hit;
  try {
    new RegExp(`\\p{${body}}`, "u");
  } catch {
    return null;
  }
  const cacheable = PROPERTY_CACHE.size < PROPERTY_CACHE_MAX;
  const t = new PropertyTester(body, cacheable);
  if (cacheable) PROPERTY_CACHE.set(body, t);
  return t;
}

export interface PropTest {
  readonly tester: PropertyTester;
  /** True for `\P{...}`. */
  readonly negate: boolean;
}

export class CharSet {
  /** Precomputed final answers for code points 0..127. */
  private readonly ascii = new Uint32Array(4);

  /** `ranges` holds sorted, merged, non-adjacent [lo, hi] pairs. */
  constructor(
    readonly ranges: Int32Array,
    readonly props: readonly PropTest[],
    readonly negate: boolean,
  ) {
    // The ASCII answers straight from the ranges; properties are asked only for what the ranges leave out.
    const ascii = this.ascii;
    for (let i = 0; i < ranges.length && ranges[i]! < 128; i += 2) {
      const hi = Math.min(ranges[i + 1]!, 127);
      for (let cp = ranges[i]!; cp <= hi; cp++) ascii[cp >> 5]! |= 1 << (cp & 31);
    }
    if (props.length > 0) {
      for (let cp = 0; cp < 128; cp++) {
        if ((ascii[cp >> 5]! >>> (cp & 31)) & 1) continue;
        for (const p of props) {
          if (p.tester.has(cp) !== p.negate) {
            ascii[cp >> 5]! |= 1 << (cp & 31);
            break;
          }
        }
      }
    }
    if (negate) for (let w = 0; w < 4; w++) ascii[w] = ~ascii[w]!;
  }

  /**
   * How many pieces a UTF-16 matcher needs for this set: its BMP ranges, plus, for the astral code points, one piece
   * per run of surrogate pairs that share a lead surrogate range and a trail range (a range of astral code points is
   * at most three: a partial first lead, the full leads between, a partial last lead). Infinity with a property
   * escape, whose ranges the runtime expands itself. The native cost model charges a set this much (the runtime
   * tries the pieces of an astral set one after another).
   */
  utf16Pieces(): number {
    if (this.props.length > 0) return Infinity;
    const ranges = this.negate ? complementRanges(this.ranges) : this.ranges;
    let pieces = 0;
    for (let i = 0; i < ranges.length; i += 2) {
      const lo = ranges[i]!;
      const hi = ranges[i + 1]!;
      if (lo <= 0xffff) pieces++;
      if (hi <= 0xffff) continue;
      const from = Math.max(lo, 0x10000) - 0x10000;
      const to = hi - 0x10000;
      const firstLead = from >> 10;
      const lastLead = to >> 10;
      if (firstLead === lastLead) {
        pieces++;
        continue;
      }
      const firstFull = (from & 0x3ff) === 0;
      const lastFull = (to & 0x3ff) === 0x3ff;
      const middle = lastLead - firstLead - 1 + (firstFull ? 1 : 0) + (lastFull ? 1 : 0);
      pieces += (firstFull ? 0 : 1) + (lastFull ? 0 : 1) + (middle > 0 ? 1 : 0);
    }
    return pieces;
  }

  has(cp: number): boolean {
    if (cp < 128) return ((this.ascii[cp >> 5]! >>> (cp & 31)) & 1) === 1;
    return this.slowHas(cp);
  }

  private slowHas(cp: number): boolean {
    let inner = inRanges(this.ranges, cp);
    if (!inner) {
      for (const p of this.props) {
        if (p.tester.has(cp) !== p.negate) {
          inner = true;
          break;
        }
      }
    }
    return inner !== this.negate;
  }
}

/** Accumulates the members of a class, then builds the immutable set. */
export class SetBuilder {
  private readonly pairs: number[] = [];
  private readonly props: PropTest[] = [];

  addRange(lo: number, hi: number): void {
    this.pairs.push(lo, hi);
  }

  /** Adds every member of a non-negated set (the sets of class escapes are never negated). */
  addSet(set: CharSet): void {
    for (let i = 0; i < set.ranges.length; i++) this.pairs.push(set.ranges[i]!);
    this.props.push(...set.props);
  }

  addProperty(tester: PropertyTester, negate: boolean): void {
    this.props.push({ tester, negate });
  }

  build(negate: boolean): CharSet {
    return new CharSet(normalize(this.pairs), this.props, negate);
  }
}

function normalize(pairs: readonly number[]): Int32Array {
  const idx: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) idx.push(i);
  idx.sort((a, b) => pairs[a]! - pairs[b]!);
  const out: number[] = [];
  for (const i of idx) {
    const lo = pairs[i]!;
    const hi = pairs[i + 1]!;
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return Int32Array.from(out);
}

/** The complement of sorted, merged ranges, as ranges. */
function complementRanges(ranges: Int32Array): Int32Array {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1);
    next = ranges[i + 1]! + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return Int32Array.from(out);
}

function complement(pairs: readonly number[]): number[] {
  return Array.from(complementRanges(normalize(pairs)));
}

function fromPairs(pairs: readonly number[]): CharSet {
  return new CharSet(normalize(pairs), [], false);
}

const DIGIT = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** ECMA-262 WhiteSpace (incl. U+FEFF and Zs) plus LineTerminator. */
const SPACE = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

/** Sets of the class escapes `\d \D \w \W \s \S`, and of `.` (no dotAll). */
export const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: fromPairs(DIGIT),
  D: fromPairs(complement(DIGIT)),
  w: fromPairs(WORD),
  W: fromPairs(complement(WORD)),
  s: fromPairs(SPACE),
  S: fromPairs(complement(SPACE)),
};
export const DOT: CharSet = fromPairs(complement(LINE_TERMINATORS));

/** IsWordChar for `\b` / `\B` (u-mode without the i flag: ASCII only). */
export function isWordChar(cp: number): boolean {
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f;
}

/** The code point that ends just before index `pos` (> 0) of `s`. */
export function codePointBefore(s: string, pos: number): number {
  const lo = s.charCodeAt(pos - 1);
  if ((lo & 0xfc00) === 0xdc00 && pos >= 2) {
    const hi = s.charCodeAt(pos - 2);
    if ((hi & 0xfc00) === 0xd800) return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
  }
  return lo;
}
