/** IDNA2008 derived property values (RFC 5892 §3), computed from the runtime's own Unicode data. */

import { inRanges } from "../../engine/json/ranges.js";

export type IdnaProperty = "PVALID" | "CONTEXTJ" | "CONTEXTO" | "DISALLOWED" | "UNASSIGNED";

/** RFC 5892 §2.6 (F): code points whose value is fixed by hand. */
const EXCEPTIONS: ReadonlyMap<number, IdnaProperty> = new Map<number, IdnaProperty>([
  [0x00df, "PVALID"],
  [0x03c2, "PVALID"],
  [0x06fd, "PVALID"],
  [0x06fe, "PVALID"],
  [0x0f0b, "PVALID"],
  [0x3007, "PVALID"],
  [0x00b7, "CONTEXTO"],
  [0x0375, "CONTEXTO"],
  [0x05f3, "CONTEXTO"],
  [0x05f4, "CONTEXTO"],
  [0x30fb, "CONTEXTO"],
  [0x0640, "DISALLOWED"],
  [0x07fa, "DISALLOWED"],
  [0x302e, "DISALLOWED"],
  [0x302f, "DISALLOWED"],
  [0x3031, "DISALLOWED"],
  [0x3032, "DISALLOWED"],
  [0x3033, "DISALLOWED"],
  [0x3034, "DISALLOWED"],
  [0x3035, "DISALLOWED"],
  [0x303b, "DISALLOWED"],
]);

/** RFC 5892 §2.6: ARABIC-INDIC and EXTENDED ARABIC-INDIC DIGITS are CONTEXTO. */
const CONTEXTO_DIGITS = [0x0660, 0x0669, 0x06f0, 0x06f9];

/**
 * RFC 5892 §2.10 (I): Combining Diacritical Marks for Symbols, Musical Symbols and Ancient Greek
 * Musical Notation (block boundaries from Blocks.txt, unchanged since they were allocated).
 */
const IGNORABLE_BLOCKS = [0x20d0, 0x20ff, 0x1d100, 0x1d1ff, 0x1d200, 0x1d24f];

/** RFC 5892 §2.9 (H): Hangul_Syllable_Type L, V or T (HangulSyllableType.txt, stable since 5.2). */
const OLD_HANGUL_JAMO = [0x1100, 0x11ff, 0xa960, 0xa97c, 0xd7b0, 0xd7c6, 0xd7cb, 0xd7fb];

const UNASSIGNED = /\p{Cn}/u;
const NONCHARACTER = /\p{Noncharacter_Code_Point}/u;
const IGNORABLE_PROPERTIES = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]/u;
const LETTER_DIGITS = /[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]/u;

/** Cherokee letters case-fold to their uppercase forms (CaseFolding.txt), unlike other scripts. */
const CHEROKEE_CASED = [0x13a0, 0x13f5, 0x13f8, 0x13fd, 0xab70, 0xabbf];

/**
 * Full case folding (CaseFolding.txt status C+F) of one code point, from the runtime's case
 * mappings: uppercasing then lowercasing folds every cased letter the way CaseFolding.txt does,
 * except Cherokee (folds to uppercase) and U+0131 DOTLESS I (folds to itself outside Turkic).
 */
function caseFoldCodePoint(ch: string, cp: number): string {
  if (cp === 0x0131) return ch;
  if (inRanges(CHEROKEE_CASED, cp)) return ch.toUpperCase();
  return ch.toUpperCase().toLowerCase();
}

function caseFold(s: string): string {
  let out = "";
  for (const ch of s) out += caseFoldCodePoint(ch, ch.codePointAt(0)!);
  return out;
}

/** RFC 5892 §2.3 (B): toNFKC(toCaseFold(toNFKC(cp))) != cp. */
function isUnstable(ch: string): boolean {
  return caseFold(ch.normalize("NFKC")).normalize("NFKC") !== ch;
}

/** RFC 5892 §3: the derived property value of one code point. */
export function idnaProperty(cp: number): IdnaProperty {
  const fixed = EXCEPTIONS.get(cp);
  if (fixed !== undefined) return fixed;
  if (inRanges(CONTEXTO_DIGITS, cp)) return "CONTEXTO";
  const ch = String.fromCodePoint(cp);
  if (UNASSIGNED.test(ch) && !NONCHARACTER.test(ch)) return "UNASSIGNED";
  if (cp === 0x2d || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a)) return "PVALID";
  if (cp === 0x200c || cp === 0x200d) return "CONTEXTJ";
  if (isUnstable(ch)) return "DISALLOWED";
  if (IGNORABLE_PROPERTIES.test(ch)) return "DISALLOWED";
  if (inRanges(IGNORABLE_BLOCKS, cp) || inRanges(OLD_HANGUL_JAMO, cp)) return "DISALLOWED";
  return LETTER_DIGITS.test(ch) ? "PVALID" : "DISALLOWED";
}
