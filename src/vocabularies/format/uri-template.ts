/**
 * RFC 6570 §2 URI-Template = *( literals / expression ), of any level (apostrophe allowed in literals, per the suite
 * and RFC 3986 sub-delims).
 */

import { isIprivate, isUcschar } from "./rfc3986.js";

/** ASCII characters §2.1 excludes from literals (besides controls, space and a bare "%"). */
const NOT_LITERAL = '"<>\\^`{|}';
/** §2.2 operator = op-level2 / op-level3 / op-reserve. */
const OPERATORS = "+#./;?&=,!@|";

function isAlphaDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isPctEncoded(s: string, i: number): boolean {
  return s.charCodeAt(i) === 0x25 && isHexDigit(s.charCodeAt(i + 1)) && isHexDigit(s.charCodeAt(i + 2));
}

/** §2.3 varname = varchar *( ["."] varchar ); returns the index after it, or -1. */
function varnameEnd(s: string, i: number): number {
  let last = i;
  for (;;) {
    if (isPctEncoded(s, i)) i += 3;
    else if (isAlphaDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 0x5f) i++;
    else return i === last || s.charCodeAt(i - 1) === 0x2e ? -1 : i;
    if (s.charCodeAt(i) === 0x2e) last = ++i;
  }
}

/**
 * §2.2 expression = "{" [ operator ] variable-list "}", starting after the "{"; returns the index after "}",
 * or -1.
 */
function expressionEnd(s: string, i: number): number {
  if (OPERATORS.includes(s[i] ?? "{")) i++;
  for (;;) {
    i = varnameEnd(s, i);
    if (i < 0) return -1;
    if (s.charCodeAt(i) === 0x2a) {
      i++;
    } else if (s.charCodeAt(i) === 0x3a) {
      const digitsStart = ++i;
      while (i - digitsStart < 5 && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
      if (i === digitsStart || i - digitsStart > 4 || s.charCodeAt(digitsStart) === 0x30) return -1;
    }
    const c = s.charCodeAt(i);
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c) return -1;
    i++;
  }
}

export function uriTemplate(value: string): boolean {
  let i = 0;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (c === 0x7b) {
      i = expressionEnd(value, i + 1);
      if (i < 0) return false;
    } else if (c === 0x25) {
      if (!isPctEncoded(value, i)) return false;
      i += 3;
    } else if (c < 0x80) {
      if (c <= 0x20 || c === 0x7f || NOT_LITERAL.includes(value[i]!)) return false;
      i++;
    } else {
      const cp = value.codePointAt(i)!;
      if (!isUcschar(cp) && !isIprivate(cp)) return false;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return true;
}
