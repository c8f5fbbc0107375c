/** RFC 3986 §3–4.2 URI and relative-ref grammar, with the RFC 3987 §2.2 IRI extensions when `iri` is set. */

import { isIpv6At } from "./ipv6.js";

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"; sub-delims = "!$&'()*+,;=". */
const UNRESERVED_AND_SUB_DELIMS = "-._~!$&'()*+,;=";

/** RFC 3987 §2.2 ucschar. */
export function isUcschar(cp: number): boolean {
  if (cp < 0x10000)
    return (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef);
  if ((cp & 0xfffe) === 0xfffe) return false;
  return cp <= 0xdffff || (cp >= 0xe1000 && cp <= 0xeffff);
}

/** RFC 3987 §2.2 iprivate (allowed in iquery only). */
export function isIprivate(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && (cp & 0xfffe) !== 0xfffe);
}

/** Component rules: extra ASCII characters allowed beyond unreserved / pct-encoded / sub-delims. */
interface Charset {
  readonly extra: string;
  readonly iri: boolean;
  readonly privateUse: boolean;
}

/** Whether every character of s[start, end) is allowed by `set`; pct-encoded triplets are always allowed. */
function scan(s: string, start: number, end: number, set: Charset): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (isAlpha(c) || isDigit(c) || UNRESERVED_AND_SUB_DELIMS.includes(s[i]!) || set.extra.includes(s[i]!)) continue;
      if (c !== 0x25 || i + 2 >= end) return false;
      if (!isHexDigit(s.charCodeAt(i + 1)) || !isHexDigit(s.charCodeAt(i + 2))) return false;
      i += 2;
      continue;
    }
    if (!set.iri) return false;
    const cp = s.codePointAt(i)!;
    if (cp >= 0xd800 && cp <= 0xdfff) return false;
    if (!(isUcschar(cp) || (set.privateUse && isIprivate(cp)))) return false;
    if (cp > 0xffff) i++;
  }
  return true;
}

/** scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
function isScheme(s: string, end: number): boolean {
  if (end < 1 || !isAlpha(s.charCodeAt(0))) return false;
  for (let i = 1; i < end; i++) {
    const c = s.charCodeAt(i);
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}

/** IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ), in s[start, end). */
function isIpvFuture(s: string, start: number, end: number): boolean {
  let i = start + 1;
  while (i < end && isHexDigit(s.charCodeAt(i))) i++;
  if (i === start + 1 || s.charCodeAt(i) !== 0x2e || i + 1 >= end) return false;
  for (let j = i + 1; j < end; j++) {
    const c = s.charCodeAt(j);
    if (!(isAlpha(c) || isDigit(c) || c === 0x3a || UNRESERVED_AND_SUB_DELIMS.includes(s[j]!))) return false;
  }
  return true;
}

/** authority = [ userinfo "@" ] host [ ":" port ], in s[start, end). */
function isAuthority(s: string, start: number, end: number, iri: boolean): boolean {
  const at = s.indexOf("@", start);
  let hostStart = start;
  if (at >= 0 && at < end) {
    if (!scan(s, start, at, { extra: ":", iri, privateUse: false })) return false;
    hostStart = at + 1;
  }
  let portStart: number;
  if (s.charCodeAt(hostStart) === 0x5b) {
    const close = s.indexOf("]", hostStart);
    if (close < 0 || close >= end) return false;
    const literal =
      s.charCodeAt(hostStart + 1) === 0x76 || s.charCodeAt(hostStart + 1) === 0x56
        ? isIpvFuture(s, hostStart + 1, close)
        : isIpv6At(s, hostStart + 1, close);
    if (!literal) return false;
    portStart = close + 1;
    if (portStart < end && s.charCodeAt(portStart) !== 0x3a) return false;
  } else {
    const colon = s.indexOf(":", hostStart);
    portStart = colon >= 0 && colon < end ? colon : end;
    if (!scan(s, hostStart, portStart, { extra: "", iri, privateUse: false })) return false;
  }
  for (let i = portStart + 1; i < end; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

const PATH = { extra: ":@/", iri: false, privateUse: false };
const PATH_IRI = { extra: ":@/", iri: true, privateUse: false };
const FRAGMENT = { extra: ":@/?", iri: false, privateUse: false };
const FRAGMENT_IRI = { extra: ":@/?", iri: true, privateUse: false };
const QUERY_IRI = { extra: ":@/?", iri: true, privateUse: true };

/** URI-reference (or only URI when `absolute`), or their IRI forms when `iri`. */
export function isUriReference(s: string, iri: boolean, absolute: boolean): boolean {
  let end = s.length;
  const hash = s.indexOf("#");
  if (hash >= 0) {
    if (!scan(s, hash + 1, end, iri ? FRAGMENT_IRI : FRAGMENT)) return false;
    end = hash;
  }
  const question = s.indexOf("?");
  if (question >= 0 && question < end) {
    if (!scan(s, question + 1, end, iri ? QUERY_IRI : FRAGMENT)) return false;
    end = question;
  }
  let colon = s.indexOf(":");
  const slash = s.indexOf("/");
  if (colon >= end || (slash >= 0 && slash < colon)) colon = -1;
  let start = 0;
  if (colon >= 0) {
    if (!isScheme(s, colon)) return false;
    start = colon + 1;
  } else if (absolute) {
    return false;
  }
  if (s.startsWith("//", start)) {
    const pathStart = s.indexOf("/", start + 2);
    const authorityEnd = pathStart >= 0 && pathStart < end ? pathStart : end;
    if (!isAuthority(s, start + 2, authorityEnd, iri)) return false;
    start = authorityEnd;
  }
  return scan(s, start, end, iri ? PATH_IRI : PATH);
}
