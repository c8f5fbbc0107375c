/**
 * Number literals a double does not hold (issue 31: the CLI rounded big integers silently). The CLI reads JSON text
 * with `JSON.parse`, which makes every number a double (RFC 8259 §6 leaves range and precision to the
 * implementation), and the engine reads an integral double as the integer it holds and any other as its shortest
 * round-trip decimal (`src/vocabularies/validation/multiple-of.ts`). A literal whose value differs from that reading
 * — an integer beyond 2^53 that no double holds, a decimal with more digits than a double keeps, a magnitude that
 * overflows to Infinity or underflows to 0 — would be checked as another number. Every other literal is read as the
 * very number it writes, so comparisons, `enum`/`const` and `multipleOf` on it are exact.
 */

import { codePointLength } from "../engine/json/json.js";
import { escapeToken } from "../engine/json/pointer.js";

/** A number literal of a JSON text that would be read as another number. */
export interface InexactNumber {
  /** The literal as written (shortened to 40 characters). */
  readonly literal: string;
  /** What it would be read as: "Infinity", "-Infinity", "0" or the decimal the double holds (shortened). */
  readonly readAs: string;
  /** 1-based line and column (in code points) of its first character. */
  readonly line: number;
  readonly column: number;
  /** JSON Pointer of the value. */
  readonly pointer: string;
}

/** One open object (the current member's key, as the token's bounds) or array (the current index). */
type Frame = { object: true; keyStart: number; keyEnd: number; expectKey: boolean } | { object: false; index: number };

/** A literal of at most this many digits and no exponent is held exactly (IEEE 754 doubles keep 15 decimal digits). */
const EXACT_DIGITS = 15;
/**
 * Every literal that may not be held has more than `EXACT_DIGITS` digits (so a run of 16 digits and points) or an
 * exponent (a digit then e or E): a text without either, in strings or not, needs no scan.
 */
const MAY_BE_INEXACT = /[0-9.]{16}|[0-9][eE]/;

/**
 * The first number literal of `text` — JSON that `JSON.parse` has accepted — that a double does not hold exactly,
 * or undefined. One pass, no recursion: the open containers are an explicit stack.
 */
export function inexactNumber(text: string): InexactNumber | undefined {
  if (!MAY_BE_INEXACT.test(text)) return undefined;
  const frames: Frame[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (top?.object === true && top.expectKey) {
        top.keyStart = i;
        top.keyEnd = end;
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const end = numberEnd(text, i);
      if (!holdsExactly(text, i, end)) {
        const literal = text.slice(i, end);
        return {
          literal: literal.length > 40 ? literal.slice(0, 39) + "…" : literal,
          readAs: readAs(Number(literal)),
          line,
          column: codePointLength(text.slice(lineStart, i)) + 1,
          pointer: pointerOf(text, frames),
        };
      }
      i = end;
      continue;
    }
    if (c === 0x7b /* { */) frames.push({ object: true, keyStart: -1, keyEnd: -1, expectKey: true });
    else if (c === 0x5b /* [ */) frames.push({ object: false, index: 0 });
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) frames.pop();
    else if (c === 0x2c /* , */ && top !== undefined) {
      if (top.object) top.expectKey = true;
      else top.index++;
    } else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
    i++;
  }
  return undefined;
}

/** The index after the string token that starts at `start` (its closing quote is not preceded by an odd run of \). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    let k = quote - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((quote - 1 - k) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the number token at `start`: JSON numbers are made of 0-9 . e E + -, and nothing after one is. */
function numberEnd(text: string, start: number): number {
  let j = start + 1;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d)) break;
  }
  return j;
}

/** Whether the literal `text[start, end)` has the value the engine reads from the double it parses to. */
function holdsExactly(text: string, start: number, end: number): boolean {
  let digits = 0;
  let exponent = false;
  for (let j = start; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x65 || c === 0x45) exponent = true;
  }
  if (!exponent && digits <= EXACT_DIGITS) return true;
  const literal = text.slice(start, end);
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  // Written as its shortest decimal (as JSON.stringify writes numbers), a fraction or a safe integer is its reading.
  if (String(value) === literal && (!Number.isInteger(value) || Math.abs(value) <= 2 ** 53)) return true;
  const written = decimal(literal);
  const read = decimal(reading(value));
  return written.digits === read.digits && written.exponent === read.exponent && written.negative === read.negative;
}

/** The engine's reading of a finite double: an integral one is the integer it holds, any other its shortest decimal. */
function reading(value: number): string {
  return Number.isInteger(value) ? BigInt(value).toString() : String(value);
}

/** A decimal as sign, significant digits (no leading or trailing zero) and the power of ten they are scaled by. */
function decimal(text: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const fraction = match[3] ?? "";
  const all = (match[2]! + fraction).replace(/^0+/, "");
  const digits = all.replace(/0+$/, "");
  if (digits === "") return { negative: false, digits, exponent: 0 };
  const exponent = Number(match[4] ?? "0") - fraction.length + (all.length - digits.length);
  return { negative: match[1] === "-", digits, exponent };
}

/** How a message names what a literal is read as: the bound it overflows to, 0, or the value (long ones shortened). */
function readAs(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = reading(value);
  const digits = text.replace("-", "");
  if (digits.length <= 21) return text;
  const sign = text.startsWith("-") ? "-" : "";
  return `${sign}${digits[0]}.${digits.slice(1, 21)}…e+${digits.length - 1}`;
}

/** The JSON Pointer of the value the scan is at. */
function pointerOf(text: string, frames: readonly Frame[]): string {
  let pointer = "";
  for (const frame of frames) {
    const token = frame.object ? (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string) : frame.index;
    pointer += "/" + (typeof token === "string" ? escapeToken(token) : String(token));
  }
  return pointer;
}
