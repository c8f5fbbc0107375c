/** Domain name checks shared by hostname and idn-hostname (RFC 1123 §2.1, RFC 5890 §2.3.2, RFC 5891 §5.4). */

import punycode from "punycode/punycode.js";
import { isRtlLabel, isValidULabel, satisfiesBidiRule } from "./idna.js";

/** RFC 1034 §3.1: 255 octets on the wire are 253 characters in text form. */
const MAX_NAME = 253;
const MAX_LABEL = 63;
/** Each code point of a name costs at least one octet of its A-label form. */
const MAX_NAME_UTF16 = 2 * MAX_NAME;

/** RFC 3490 §3.1: the full stop and the three dots that IDNA treats as label separators. */
function isIdnSeparator(c: number): boolean {
  return c === 0x2e || c === 0x3002 || c === 0xff0e || c === 0xff61;
}

function isLetterDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** RFC 1123 §2.1 (RFC 952 as relaxed): letters, digits and inner hyphens, 1 to 63 of them. */
function isLdhLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL) return false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (isLetterDigit(c)) continue;
    if (c !== 0x2d || i === 0 || i === label.length - 1) return false;
  }
  return true;
}

function codePoints(s: string): number[] {
  return Array.from(s, (ch) => ch.codePointAt(0)!);
}

/** A checked label: its code points for the Bidi rule and the length of its A-label form. */
interface Label {
  readonly cps: readonly number[];
  readonly asciiLength: number;
}

/** RFC 5891 §5.3–5.4 and §4.4: the U-label an A-label encodes, if the A-label is valid. */
function checkALabel(label: string): Label | undefined {
  if (!isLdhLabel(label)) return undefined;
  const encoded = label.slice(4).toLowerCase();
  let decoded: string;
  try {
    decoded = punycode.decode(encoded);
  } catch {
    return undefined;
  }
  const cps = codePoints(decoded);
  if (!cps.some((cp) => cp > 0x7f)) return undefined;
  if (punycode.encode(decoded) !== encoded || decoded.normalize("NFC") !== decoded) return undefined;
  return isValidULabel(cps) ? { cps, asciiLength: label.length } : undefined;
}

/** RFC 5891 §5.4: a label with non-ASCII characters must be a valid NFC U-label of ≤ 63 A-label octets. */
function checkULabel(label: string): Label | undefined {
  if (label.normalize("NFC") !== label) return undefined;
  const cps = codePoints(label);
  if (!isValidULabel(cps)) return undefined;
  const asciiLength = 4 + punycode.encode(label).length;
  return asciiLength <= MAX_LABEL ? { cps, asciiLength } : undefined;
}

/**
 * One label. Under IDNA2008 (`unicode`), an ASCII label with "--" in its third and fourth positions is a reserved
 * LDH label (RFC 5890 §2.3.1): valid only as an A-label (`xn--`); a plain host name keeps RFC 1123's rule.
 */
function checkLabel(label: string, unicode: boolean): Label | undefined {
  let ascii = true;
  for (let i = 0; i < label.length && ascii; i++) ascii = label.charCodeAt(i) < 0x80;
  if (!ascii) return checkULabel(label);
  if (label.length >= 4 && label.slice(0, 4).toLowerCase() === "xn--") return checkALabel(label);
  if (unicode && label.length >= 4 && label.charCodeAt(2) === 0x2d && label.charCodeAt(3) === 0x2d) return undefined;
  return isLdhLabel(label) ? { cps: codePoints(label), asciiLength: label.length } : undefined;
}

/**
 * A host name of dot-separated labels: LDH labels, A-labels that decode to valid U-labels and,
 * when `unicode` is set, U-labels and the IDNA separators; the Bidi rule applies to every label
 * once one label is right-to-left (RFC 5893 §2).
 */
export function isDomainName(value: string, unicode: boolean): boolean {
  if (value.length === 0 || value.length > (unicode ? MAX_NAME_UTF16 : MAX_NAME)) return false;
  const labels: Label[] = [];
  let total = -1;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 0x2e;
    if (!unicode && c > 0x7f) return false;
    if (!(c === 0x2e || (unicode && isIdnSeparator(c)))) continue;
    const label = checkLabel(value.slice(start, i), unicode);
    if (label === undefined) return false;
    labels.push(label);
    total += label.asciiLength + 1;
    start = i + 1;
  }
  if (total > MAX_NAME) return false;
  if (!labels.some((l) => isRtlLabel(l.cps))) return true;
  return labels.every((l) => satisfiesBidiRule(l.cps));
}
