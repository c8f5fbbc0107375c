/** Escapes, character classes and group names of ECMA-262 u-mode patterns (no Annex B). */
import { CharSet, CLASS_ESCAPES, MAX_CP, SetBuilder, propertyTester } from "./charset.js";
import { Cursor, hexValue, isDigit } from "./cursor.js";

/** `^ $ \ . * + ? ( ) [ ] { } |` and, for identity escapes in u-mode, `/`. */
const IDENTITY_ESCAPES = new Set(Array.from("^$\\.*+?()[]{}|/", (c) => c.charCodeAt(0)));
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

const ID_START = /^[\p{ID_Start}$_]$/u;
const ID_CONTINUE = /^[\p{ID_Continue}$\u200C\u200D]$/u;

/** A class atom: either one code point or a set (from a class escape). */
type ClassAtom = { cp: number; set?: undefined } | { cp?: undefined; set: CharSet };

/** Parses `\p{...}` / `\P{...}` after the `p` / `P` was consumed; returns the set. */
function parseProperty(c: Cursor, negate: boolean): CharSet {
  c.expect("{", "invalid property name");
  let body = "";
  while (!c.atEnd() && c.peek() !== 0x7d) body += String.fromCodePoint(c.next());
  c.expect("}", "invalid property name");
  const key = (negate ? "P" : "p") + body;
  const known = PROPERTY_SETS.get(key);
  if (known !== undefined) return known;
  const tester = propertyTester(body);
  if (tester === null) c.fail("invalid property name");
  const b = new SetBuilder();
  b.addProperty(tester, negate);
  const set = b.build(false);
  if (PROPERTY_SETS.size < PROPERTY_SETS_MAX) PROPERTY_SETS.set(key, set);
  return set;
}

/** The sets of `\p{…}` / `\P{…}` escapes already built (immutable), so a pattern repeating one builds it once. */
const PROPERTY_SETS = new Map<string, CharSet>();
const PROPERTY_SETS_MAX = 256;

/** Parses a class escape letter (d D s S w W p P) already consumed as `letter`; null if not one. */
export function classEscape(c: Cursor, letter: number): CharSet | null {
  const ch = String.fromCharCode(letter);
  const fixed = CLASS_ESCAPES[ch];
  if (fixed !== undefined && letter < 0x80) return fixed;
  if (ch === "p" || ch === "P") return parseProperty(c, ch === "P");
  return null;
}

function hexDigits(c: Cursor, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const h = hexValue(c.peek());
    if (h < 0) c.fail("invalid escape");
    c.pos++;
    v = v * 16 + h;
  }
  return v;
}

/** RegExpUnicodeEscapeSequence[+UnicodeMode], after the `u` was consumed. */
function unicodeEscape(c: Cursor): number {
  if (c.eat("{")) {
    let v = 0;
    let digits = 0;
    while (hexValue(c.peek()) >= 0) {
      v = v * 16 + hexValue(c.next());
      digits++;
      if (v > MAX_CP) c.fail("invalid Unicode escape");
    }
    if (digits === 0) c.fail("invalid Unicode escape");
    c.expect("}", "invalid Unicode escape");
    return v;
  }
  const v = hexDigits(c, 4);
  if (v >= 0xd800 && v <= 0xdbff && c.lookingAt("\\u")) {
    const save = c.pos;
    c.pos += 2;
    let ok = true;
    let lo = 0;
    for (let i = 0; i < 4; i++) {
      const h = hexValue(c.peek(i));
      if (h < 0) {
        ok = false;
        break;
      }
      lo = lo * 16 + h;
    }
    if (ok && lo >= 0xdc00 && lo <= 0xdfff) {
      c.pos += 4;
      return (v - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
    }
    c.pos = save;
  }
  return v;
}

/** CharacterEscape[+UnicodeMode], the escape letter `letter` already consumed. */
export function characterEscape(c: Cursor, letter: number): number {
  const ch = String.fromCharCode(letter);
  if (letter < 0x80 && CONTROL_ESCAPES[ch] !== undefined) return CONTROL_ESCAPES[ch];
  if (ch === "c") {
    const l = c.peek();
    if ((l >= 0x41 && l <= 0x5a) || (l >= 0x61 && l <= 0x7a)) {
      c.pos++;
      return l % 32;
    }
    c.fail("invalid control escape");
  }
  if (ch === "0") {
    if (isDigit(c.peek())) c.fail("invalid decimal escape");
    return 0;
  }
  if (ch === "x") return hexDigits(c, 2);
  if (ch === "u") return unicodeEscape(c);
  if (IDENTITY_ESCAPES.has(letter)) return letter;
  return c.fail("invalid escape");
}

/** One ClassAtom inside `[...]`. */
function classAtom(c: Cursor): ClassAtom {
  const cp = c.next();
  if (cp !== 0x5c) return { cp };
  const letter = c.next();
  if (letter === 0x62) return { cp: 0x08 }; // \b is backspace in a class
  if (letter === 0x2d) return { cp: 0x2d }; // \- is allowed in a class in u-mode
  const set = classEscape(c, letter);
  if (set !== null) return { set };
  return { cp: characterEscape(c, letter) };
}

/** A character class, after the `[` was consumed. */
export function parseClass(c: Cursor): CharSet {
  const negate = c.eat("^");
  const b = new SetBuilder();
  for (;;) {
    if (c.atEnd()) c.fail("unterminated character class");
    if (c.eat("]")) break;
    const a = classAtom(c);
    if (c.peek() === 0x2d && c.peek(1) !== 0x5d && c.peek(1) !== -1) {
      c.pos++;
      const z = classAtom(c);
      if (a.set !== undefined || z.set !== undefined) c.fail("invalid character class");
      if (a.cp > z.cp) c.fail("range out of order in character class");
      b.addRange(a.cp, z.cp);
    } else if (a.set !== undefined) {
      b.addSet(a.set);
    } else {
      b.addRange(a.cp, a.cp);
    }
  }
  return b.build(negate);
}

function identifierChar(c: Cursor): number {
  const cp = c.next();
  if (cp !== 0x5c) return cp;
  if (!c.eat("u")) c.fail("invalid capture group name");
  return unicodeEscape(c);
}

/** RegExpIdentifierName followed by `>`, after the `<` was consumed. */
export function parseGroupName(c: Cursor): string {
  let name = "";
  for (;;) {
    if (c.atEnd()) c.fail("invalid capture group name");
    if (c.eat(">")) break;
    const cp = identifierChar(c);
    const s = String.fromCodePoint(cp);
    if (!(name === "" ? ID_START : ID_CONTINUE).test(s)) c.fail("invalid capture group name");
    name += s;
  }
  if (name === "") c.fail("invalid capture group name");
  return name;
}
