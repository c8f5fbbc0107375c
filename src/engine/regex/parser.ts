/** Recursive-descent parser for ECMA-262 u-mode patterns (Annex B is not in effect). */
import { LimitError } from "../errors.js";
import type { Node, ParsedPattern } from "./ast.js";
import { DOT } from "./charset.js";
import { Cursor, isDigit } from "./cursor.js";
import { characterEscape, classEscape, parseClass, parseGroupName } from "./escapes.js";

/** Group / lookaround nesting beyond this is refused with a LimitError (keeps every pass's recursion shallow). */
const MAX_NESTING = 500;

const SYNTAX_NOTHING_TO_REPEAT = new Set(Array.from("*+?{", (c) => c.charCodeAt(0)));

class Parser {
  private readonly c: Cursor;
  private groupCount = 0;
  private repeatCount = 0;
  private depth = 0;
  private maxBackref = 0;
  private hasBackref = false;
  private hasLook = false;
  private readonly names = new Map<string, number>();
  private readonly namedRefs: { name: string; pos: number; node: { type: "backref"; group: number } }[] = [];

  constructor(source: string) {
    this.c = new Cursor(source);
  }

  parse(): ParsedPattern {
    const root = this.disjunction();
    if (!this.c.atEnd()) this.c.fail(this.c.peek() === 0x29 ? "unmatched ')'" : "unexpected character");
    if (this.maxBackref > this.groupCount) this.c.fail("invalid escape (backreference to a missing group)");
    for (const ref of this.namedRefs) {
      const index = this.names.get(ref.name);
      if (index === undefined) {
        this.c.pos = ref.pos;
        this.c.fail("invalid named capture referenced");
      }
      ref.node.group = index;
    }
    return {
      root,
      groupCount: this.groupCount,
      repeatCount: this.repeatCount,
      hasBackref: this.hasBackref,
      hasLook: this.hasLook,
    };
  }

  private disjunction(): Node {
    const alts = [this.alternative()];
    while (this.c.eat("|")) alts.push(this.alternative());
    return alts.length === 1 ? alts[0]! : { type: "alt", alts };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (!this.c.atEnd() && this.c.peek() !== 0x7c && this.c.peek() !== 0x29) items.push(this.term());
    if (items.length === 0) return { type: "empty" };
    return items.length === 1 ? items[0]! : { type: "seq", items };
  }

  private term(): Node {
    const c = this.c;
    if (c.eat("^")) return { type: "assert", kind: "^" };
    if (c.eat("$")) return { type: "assert", kind: "$" };
    if (c.lookingAt("\\b")) {
      c.pos += 2;
      return { type: "assert", kind: "b" };
    }
    if (c.lookingAt("\\B")) {
      c.pos += 2;
      return { type: "assert", kind: "B" };
    }
    for (const [prefix, behind, negate] of LOOKS) {
      if (c.lookingAt(prefix)) {
        c.pos += prefix.length;
        this.hasLook = true;
        const body = this.nested();
        return { type: "look", behind, negate, body };
      }
    }
    const firstGroup = this.groupCount + 1;
    const atom = this.atom();
    return this.quantifier(atom, firstGroup);
  }

  /** A parenthesised disjunction, after its opening token; consumes the `)`. */
  private nested(): Node {
    if (++this.depth > MAX_NESTING) throw new LimitError("maxRegexNesting", MAX_NESTING);
    const body = this.disjunction();
    this.c.expect(")", "unterminated group");
    this.depth--;
    return body;
  }

  private atom(): Node {
    const c = this.c;
    const cp = c.next();
    switch (cp) {
      case 0x2e:
        return { type: "set", set: DOT };
      case 0x5b:
        return { type: "set", set: parseClass(c) };
      case 0x5c:
        return this.atomEscape();
      case 0x28:
        return this.group();
      case 0x29:
      case 0x5d:
      case 0x7d:
        c.pos--;
        return c.fail("lone quantifier brackets or unmatched parenthesis");
      default:
        if (SYNTAX_NOTHING_TO_REPEAT.has(cp)) {
          c.pos--;
          c.fail("nothing to repeat");
        }
        return { type: "char", cp };
    }
  }

  private group(): Node {
    const c = this.c;
    if (c.eat("?")) {
      if (c.eat(":")) return this.nested();
      if (!c.eat("<")) c.fail("invalid group");
      const name = parseGroupName(c);
      if (this.names.has(name)) c.fail("duplicate capture group name");
      const index = ++this.groupCount;
      this.names.set(name, index);
      return { type: "group", index, body: this.nested() };
    }
    const index = ++this.groupCount;
    return { type: "group", index, body: this.nested() };
  }

  private atomEscape(): Node {
    const c = this.c;
    const letter = c.next();
    if (letter >= 0x31 && letter <= 0x39) {
      let n = letter - 0x30;
      while (isDigit(c.peek())) n = Math.min(n * 10 + (c.next() - 0x30), 1e9);
      this.maxBackref = Math.max(this.maxBackref, n);
      this.hasBackref = true;
      return { type: "backref", group: n };
    }
    if (letter === 0x6b) {
      const pos = c.pos;
      c.expect("<", "invalid named reference");
      const node = { type: "backref" as const, group: 0 };
      this.namedRefs.push({ name: parseGroupName(c), pos, node });
      this.hasBackref = true;
      return node;
    }
    const set = classEscape(c, letter);
    if (set !== null) return { type: "set", set };
    return { type: "char", cp: characterEscape(c, letter) };
  }

  private quantifier(atom: Node, firstGroup: number): Node {
    const c = this.c;
    let min: number;
    let max: number;
    if (c.eat("*")) {
      min = 0;
      max = Infinity;
    } else if (c.eat("+")) {
      min = 1;
      max = Infinity;
    } else if (c.eat("?")) {
      min = 0;
      max = 1;
    } else if (c.peek() === 0x7b) {
      c.pos++;
      const lo = this.digits() ?? c.fail("incomplete quantifier");
      let hi: string | null = lo;
      if (c.eat(",")) hi = c.peek() === 0x7d ? null : (this.digits() ?? c.fail("incomplete quantifier"));
      c.expect("}", "incomplete quantifier");
      if (hi !== null && compareDecimal(lo, hi) > 0) c.fail("numbers out of order in {} quantifier");
      min = toCount(lo);
      max = hi === null ? Infinity : toCount(hi);
    } else {
      return atom;
    }
    const greedy = !c.eat("?");
    return {
      type: "repeat",
      min,
      max,
      greedy,
      body: atom,
      firstGroup,
      lastGroup: this.groupCount,
      id: this.repeatCount++,
    };
  }

  /** Decimal digits (without leading zeros), or null when there are none. */
  private digits(): string | null {
    let s = "";
    while (isDigit(this.c.peek())) s += String.fromCharCode(this.c.next());
    if (s === "") return null;
    return s.replace(/^0+(?=.)/, "");
  }
}

const LOOKS: readonly (readonly [string, boolean, boolean])[] = [
  ["(?=", false, false],
  ["(?!", false, true],
  ["(?<=", true, false],
  ["(?<!", true, true],
];

function compareDecimal(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A repetition count. Counts beyond 2^31 are kept as Infinity: no string has that many code points,
 * so `{n,huge}` is then equivalent to `{n,}`; a huge minimum hits the program-size limit either way.
 */
function toCount(digits: string): number {
  return digits.length > 10 || Number(digits) > 0x7fffffff ? Infinity : Number(digits);
}

export function parsePattern(source: string): ParsedPattern {
  return new Parser(source).parse();
}
