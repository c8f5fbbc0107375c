/** RFC 6901 §3 json-pointer = *( "/" reference-token ), where "~" must be escaped as "~0" or "~1". */

/** Whether s, from `start` to its end, is a JSON Pointer. */
export function isJsonPointerAt(s: string, start: number): boolean {
  if (start < s.length && s.charCodeAt(start) !== 0x2f) return false;
  for (let i = start; i < s.length; i++) {
    if (s.charCodeAt(i) !== 0x7e) continue;
    const next = s.charCodeAt(i + 1);
    if (next !== 0x30 && next !== 0x31) return false;
    i++;
  }
  return true;
}

export function jsonPointer(value: string): boolean {
  return isJsonPointerAt(value, 0);
}
