/** RFC 5321 §4.1.2 Mailbox = Local-part "@" ( Domain / address-literal ), extended to UTF-8 by RFC 6531 §3.3. */

import { isDomainName } from "./domain.js";
import { isIpv4At } from "./ipv4.js";
import { isIpv6At } from "./ipv6.js";

/** RFC 5321 §4.5.3.1.1: at most 64 octets of local part. */
const MAX_LOCAL_PART = 64;
const MAX_DOMAIN_UTF16 = 2 * 253;

/** RFC 5322 §3.2.3 atext: ALPHA / DIGIT / "!#$%&'*+-/=?^_`{|}~". */
function isAtext(c: number): boolean {
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return true;
  return "!#$%&'*+-/=?^_`{|}~".includes(String.fromCharCode(c));
}

/** RFC 5321 §4.1.2 qtextSMTP: %d32-33 / %d35-91 / %d93-126. */
function isQtext(c: number): boolean {
  return c >= 32 && c <= 126 && c !== 34 && c !== 92;
}

/**
 * Scans the Local-part (Dot-string or Quoted-string) at the start of `s` and returns the index
 * of the "@" after it, or -1. With `unicode`, UTF8-non-ascii joins atext and qtextSMTP (RFC 6531 §3.3).
 */
function localPartEnd(s: string, unicode: boolean): number {
  let octets = 0;
  let i = 0;
  const quoted = s.charCodeAt(0) === 0x22;
  if (quoted) {
    i = 1;
    octets = 1;
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      if (!unicode) return -1;
      if (c >= 0xd800 && c <= 0xdbff) {
        const low = s.charCodeAt(i + 1);
        if (!(low >= 0xdc00 && low <= 0xdfff)) return -1;
        i++;
        octets += 4;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        return -1;
      } else {
        octets += c < 0x800 ? 2 : 3;
      }
    } else if (quoted) {
      octets++;
      if (c === 0x22) return s.charCodeAt(i + 1) === 0x40 && octets <= MAX_LOCAL_PART ? i + 1 : -1;
      if (c === 0x5c) {
        const escaped = s.charCodeAt(++i);
        if (!(escaped >= 32 && escaped <= 126)) return -1;
        octets++;
      } else if (!isQtext(c)) {
        return -1;
      }
    } else if (c === 0x40) {
      return i > 0 && s.charCodeAt(i - 1) !== 0x2e && octets <= MAX_LOCAL_PART ? i : -1;
    } else if (c === 0x2e) {
      if (i === 0 || s.charCodeAt(i - 1) === 0x2e) return -1;
      octets++;
    } else if (isAtext(c)) {
      octets++;
    } else {
      return -1;
    }
    if (octets > MAX_LOCAL_PART) return -1;
  }
  return -1;
}

/** RFC 5321 §4.1.3 address-literal: "[" IPv4-address-literal / "IPv6:" IPv6-addr "]". */
function isAddressLiteral(domain: string): boolean {
  const end = domain.length - 1;
  if (domain.charCodeAt(end) !== 0x5d) return false;
  if (domain.slice(1, 6).toLowerCase() === "ipv6:") return isIpv6At(domain, 6, end);
  return isIpv4At(domain, 1, end);
}

export function isMailbox(value: string, unicode: boolean): boolean {
  const at = localPartEnd(value, unicode);
  if (at < 0) return false;
  const domain = value.slice(at + 1);
  if (domain.charCodeAt(0) === 0x5b) return isAddressLiteral(domain);
  if (!unicode) return isDomainName(domain, false);
  return domain.length <= MAX_DOMAIN_UTF16 && isDomainName(domain.normalize("NFC"), true);
}
