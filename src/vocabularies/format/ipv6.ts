/**
 * RFC 4291 §2.2 IPv6 text forms (the RFC 3986 §3.2.2 IPv6address): eight h16 groups, one "::", an IPv4 tail; no zone
 * id.
 */

import { isIpv4At } from "./ipv4.js";

/** The longest text form, "ffff:" × 6 + "255.255.255.255", is 45 characters. */
const MAX_LENGTH = 45;

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Whether s[start, end) is an IPv6address. */
export function isIpv6At(s: string, start: number, end: number): boolean {
  if (end - start < 2 || end - start > MAX_LENGTH) return false;
  let groups = 0;
  let compressed = false;
  let i = start;
  if (s.charCodeAt(i) === 0x3a) {
    if (s.charCodeAt(i + 1) !== 0x3a) return false;
    compressed = true;
    i += 2;
    if (i === end) return true;
  }
  for (;;) {
    const groupStart = i;
    while (i < end && i - groupStart < 5 && isHexDigit(s.charCodeAt(i))) i++;
    if (i < end && s.charCodeAt(i) === 0x2e) {
      if (!isIpv4At(s, groupStart, end)) return false;
      groups += 2;
      break;
    }
    if (i === groupStart || i - groupStart > 4) return false;
    groups++;
    if (i === end) break;
    if (s.charCodeAt(i) !== 0x3a) return false;
    i++;
    if (s.charCodeAt(i) === 0x3a) {
      if (compressed) return false;
      compressed = true;
      i++;
      if (i === end) break;
    } else if (i === end) {
      return false;
    }
  }
  return compressed ? groups <= 7 : groups === 8;
}

export function ipv6(value: string): boolean {
  return isIpv6At(value, 0, value.length);
}
