/** IDNA2008 label rules: U-label validity (RFC 5891 §4.2, RFC 5892 Appendix A) and the Bidi rule (RFC 5893 §2). */

import { inRanges } from "../../engine/json/ranges.js";
import { idnaProperty } from "./idna-properties.js";
import {
  BIDI_MARKS_LEFT,
  BIDI_RANGES,
  JOINING_DUAL,
  JOINING_LEFT,
  JOINING_NOT_TRANSPARENT,
  JOINING_RIGHT,
  JOINING_TRANSPARENT_EXTRA,
} from "./unicode-tables.js";

const MARK = /\p{M}/u;
const NONSPACING_OR_ENCLOSING = /[\p{Mn}\p{Me}]/u;
const MARK_OR_FORMAT = /[\p{Mn}\p{Me}\p{Cf}]/u;
const GREEK = /\p{Script=Greek}/u;
const HEBREW = /\p{Script=Hebrew}/u;
const KANA_OR_HAN = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** U+3099 has Canonical_Combining_Class 8 and U+05B0 has 10 (UnicodeData.txt, stable by policy). */
const CCC_8 = "\u3099";
const CCC_10 = "\u05b0";

/**
 * Canonical_Combining_Class(cp) == Virama (9), read from the runtime's canonical reordering:
 * NFD moves a class-9 mark after a class-8 mark and before a class-10 mark, and no other class.
 */
export function isVirama(cp: number): boolean {
  const ch = String.fromCodePoint(cp);
  if (ch === CCC_8 || ch === CCC_10 || ch.normalize("NFD") !== ch) return false;
  return (ch + CCC_8).normalize("NFD") === CCC_8 + ch && (CCC_10 + ch).normalize("NFD") === ch + CCC_10;
}

/** Joining_Type (ArabicShaping.txt); Join_Causing and Non_Joining are both reported as "U". */
export function joiningType(cp: number): "D" | "R" | "L" | "T" | "U" {
  if (inRanges(JOINING_DUAL, cp)) return "D";
  if (inRanges(JOINING_RIGHT, cp)) return "R";
  if (inRanges(JOINING_LEFT, cp)) return "L";
  if (inRanges(JOINING_TRANSPARENT_EXTRA, cp)) return "T";
  const transparent = MARK_OR_FORMAT.test(String.fromCodePoint(cp)) && !inRanges(JOINING_NOT_TRANSPARENT, cp);
  return transparent ? "T" : "U";
}

/** Bidi_Class of a code point that IDNA2008 admits (see BIDI_RANGES for the scope of the table). */
export function bidiClass(cp: number): string {
  if (inRanges(BIDI_MARKS_LEFT, cp)) return "L";
  if (NONSPACING_OR_ENCLOSING.test(String.fromCodePoint(cp))) return "NSM";
  for (const [name, ranges] of BIDI_RANGES) if (inRanges(ranges, cp)) return name;
  return "L";
}

/** RFC 5892 Appendix A.1: ZERO WIDTH NON-JOINER after a virama or between joining letters. */
function zeroWidthNonJoinerAllowed(cps: readonly number[], i: number): boolean {
  if (i > 0 && isVirama(cps[i - 1]!)) return true;
  let before = i - 1;
  while (before >= 0 && joiningType(cps[before]!) === "T") before--;
  if (before < 0) return false;
  const left = joiningType(cps[before]!);
  if (left !== "L" && left !== "D") return false;
  let after = i + 1;
  while (after < cps.length && joiningType(cps[after]!) === "T") after++;
  if (after >= cps.length) return false;
  const right = joiningType(cps[after]!);
  return right === "R" || right === "D";
}

function scriptIs(cp: number | undefined, script: RegExp): boolean {
  return cp !== undefined && script.test(String.fromCodePoint(cp));
}

/** RFC 5892 Appendix A.1–A.9: the rule of the CONTEXTJ or CONTEXTO code point at `i`. */
function contextAllows(cps: readonly number[], i: number): boolean {
  const cp = cps[i]!;
  const before = i > 0 ? cps[i - 1] : undefined;
  const after = i + 1 < cps.length ? cps[i + 1] : undefined;
  if (cp === 0x200c) return zeroWidthNonJoinerAllowed(cps, i);
  if (cp === 0x200d) return before !== undefined && isVirama(before);
  if (cp === 0x00b7) return before === 0x6c && after === 0x6c;
  if (cp === 0x0375) return scriptIs(after, GREEK);
  if (cp === 0x05f3 || cp === 0x05f4) return scriptIs(before, HEBREW);
  if (cp === 0x30fb) return cps.some((c) => c !== 0x30fb && scriptIs(c, KANA_OR_HAN));
  if (cp >= 0x0660 && cp <= 0x0669) return !cps.some((c) => c >= 0x06f0 && c <= 0x06f9);
  if (cp >= 0x06f0 && cp <= 0x06f9) return !cps.some((c) => c >= 0x0660 && c <= 0x0669);
  return false;
}

/**
 * RFC 5891 §4.2.2–4.2.3.3: a U-label's code points are all PVALID or satisfy their contextual
 * rule, it has no "--" in positions 3–4, no leading or trailing hyphen and no leading mark.
 * NFC and the Bidi rule are checked by the caller.
 */
export function isValidULabel(cps: readonly number[]): boolean {
  if (cps.length === 0) return false;
  if (cps[0] === 0x2d || cps[cps.length - 1] === 0x2d) return false;
  if (cps[2] === 0x2d && cps[3] === 0x2d) return false;
  if (MARK.test(String.fromCodePoint(cps[0]!))) return false;
  for (let i = 0; i < cps.length; i++) {
    const property = idnaProperty(cps[i]!);
    if (property === "PVALID") continue;
    if (property === "DISALLOWED" || property === "UNASSIGNED") return false;
    if (!contextAllows(cps, i)) return false;
  }
  return true;
}

/** RFC 5893 §1.4: an RTL label contains at least one character of type R, AL or AN. */
export function isRtlLabel(cps: readonly number[]): boolean {
  return cps.some((cp) => {
    const c = bidiClass(cp);
    return c === "R" || c === "AL" || c === "AN";
  });
}

const RTL_ALLOWED = new Set(["R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"]);
const LTR_ALLOWED = new Set(["L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"]);

/** RFC 5893 §2: the six conditions of the Bidi rule for one label of a Bidi domain name. */
export function satisfiesBidiRule(cps: readonly number[]): boolean {
  const classes = cps.map(bidiClass);
  const first = classes[0];
  const rtl = first === "R" || first === "AL";
  if (!rtl && first !== "L") return false;
  const allowed = rtl ? RTL_ALLOWED : LTR_ALLOWED;
  if (!classes.every((c) => allowed.has(c))) return false;
  let end = classes.length - 1;
  while (end > 0 && classes[end] === "NSM") end--;
  const last = classes[end]!;
  if (!rtl) return last === "L" || last === "EN";
  if (last !== "R" && last !== "AL" && last !== "EN" && last !== "AN") return false;
  return !(classes.includes("EN") && classes.includes("AN"));
}
