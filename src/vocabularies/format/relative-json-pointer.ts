/** draft-bhutton-relative-json-pointer-00 §3: non-negative-integer [index-manipulation] ( json-pointer / "#" ). */

import { isJsonPointerAt } from "./json-pointer.js";

/** non-negative-integer = "0" / %x31-39 *DIGIT; returns the index after it, or -1. */
function integerEnd(s: string, i: number): number {
  const start = i;
  while (s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
  if (i === start || (i - start > 1 && s.charCodeAt(start) === 0x30)) return -1;
  return i;
}

/**
 * The "#" form is accepted after an index manipulation too, as in the draft's own example "0-1#",
 * although its ABNF lists "#" only after the bare integer.
 */
export function relativeJsonPointer(value: string): boolean {
  let i = integerEnd(value, 0);
  if (i < 0) return false;
  const sign = value.charCodeAt(i);
  if (sign === 0x2b || sign === 0x2d) {
    i = integerEnd(value, i + 1);
    if (i < 0) return false;
  }
  if (value.charCodeAt(i) === 0x23) return i + 1 === value.length;
  return isJsonPointerAt(value, i);
}
