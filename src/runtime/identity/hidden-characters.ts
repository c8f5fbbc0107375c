/**
 * Which characters of a text are hidden: invisible, reordering or terminal-controlling characters that are not part
 * of a well-formed emoji sequence or of a script that needs them. Candidates are the C0 controls but tab, line feed
 * and carriage return, DEL, the C1 controls (ESC, BS, NEL, CSI and the like act on a terminal), and every
 * `Default_Ignorable_Code_Point`, `Bidi_Control` and other `Cf` character (UAX #44): tag characters, zero-width
 * characters, variation selectors, bidi overrides. A candidate is not hidden where Unicode gives it a visible job:
 *
 * - one emoji variation selector (U+FE0E, U+FE0F) right after an `Emoji` character (UTS #51 §1.4.3: ⚠️,
 *   🛡️, 1️⃣);
 * - one ideographic variation selector (U+E0100–U+E01EF) right after an `Ideographic` character (UTS #37);
 * - a zero width joiner between two emoji (UTS #51 §1.4.4 emoji ZWJ sequences: 👨‍👩‍👧,
 *   🏳️‍🌈), the emoji before it possibly followed by its variation selector or skin-tone modifier;
 * - a zero width joiner or non-joiner between two letters or marks of a script that shapes with them (Arabic and
 *   Persian, Syriac, N'Ko, Thaana, Mongolian, the Indic scripts, Sinhala, Myanmar, Khmer: The Unicode Standard
 *   §23.2), or right after a mark (a virama) of one, where it ends a word (a Malayalam chillu);
 * - the tag sequence of one of the three RGI subdivision flags (UTS #51 §1.4.5: England, Scotland, Wales);
 * - a soft hyphen between two letters (a hyphenation point inside a word, The Unicode Standard §6.2).
 *
 * Anything else stays hidden — a run of variation selectors after one emoji (the "emoji smuggling" channel), a tag
 * sequence spelling text, a joiner between Latin letters, every bidi control — so an attack string cannot pass as
 * well-formed text.
 */

// eslint-disable-next-line no-control-regex -- control characters are what this expression is for
const CANDIDATE = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}]/u;
const EVERY_CANDIDATE = new RegExp(CANDIDATE.source, "gu");

const EMOJI = /^\p{Emoji}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const MODIFIER = /^\p{Emoji_Modifier}$/u;
const IDEOGRAPHIC = /^\p{Ideographic}$/u;
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
/** The scripts that shape with ZWJ/ZWNJ (ISO 15924 codes), as `Script_Extensions` values. */
const JOINING_SCRIPTS = ["Arab", "Syrc", "Nkoo", "Thaa", "Mong", "Deva", "Beng", "Guru", "Gujr", "Orya", "Taml"].concat(
  ["Telu", "Knda", "Mlym", "Sinh", "Mymr", "Khmr"],
);
const JOINING = new RegExp(`^(?=[\\p{L}\\p{M}])[${JOINING_SCRIPTS.map((s) => `\\p{scx=${s}}`).join("")}]$`, "u");

const ZWJ = 0x200d;
const ZWNJ = 0x200c;
const SOFT_HYPHEN = 0x00ad;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
/** The tag specs of the RGI subdivision flags (UTS #51 emoji-test.txt: gbeng, gbsct, gbwls). */
const RGI_SUBDIVISIONS: ReadonlySet<string> = new Set(["gbeng", "gbsct", "gbwls"]);

/** Whether `text` holds a character that may be hidden (a quick test before `hiddenCharacters`). */
export function mayHide(text: string): boolean {
  return CANDIDATE.test(text);
}

/** The code points of `text` that are hidden, in order of appearance (repeats included). */
export function hiddenCharacters(text: string): number[] {
  if (!CANDIDATE.test(text)) return [];
  const points = Array.from(text, (c) => c.codePointAt(0) as number);
  const hidden: number[] = [];
  const inFlag = flagTags(points);
  let at = 0;
  for (const [c] of text.matchAll(EVERY_CANDIDATE)) {
    const point = c.codePointAt(0) as number;
    while (points[at] !== point) at++;
    if (!inFlag.has(at) && !wellFormed(points, at)) hidden.push(point);
    at++;
  }
  return hidden;
}

function wellFormed(points: readonly number[], at: number): boolean {
  const point = points[at] as number;
  const before = points[at - 1];
  const after = points[at + 1];
  if (point === VS15 || point === VS16) return is(EMOJI, before);
  if (point >= 0xe0100 && point <= 0xe01ef) return is(IDEOGRAPHIC, before);
  if (point === SOFT_HYPHEN) return is(LETTER, before) && is(LETTER, after);
  if (point === ZWJ && emojiBefore(points, at) && is(PICTOGRAPHIC, after)) return true;
  // Between two letters of a joining script, or after a virama of one (a Malayalam chillu ends a word with a ZWJ).
  if (point === ZWJ || point === ZWNJ) return is(JOINING, before) && (is(JOINING, after) || is(MARK, before));
  return false;
}

/** Whether the emoji before a joiner ends at `at` - 1, after at most its variation selector and its modifier. */
function emojiBefore(points: readonly number[], at: number): boolean {
  let i = at - 1;
  if (points[i] === VS16) i--;
  if (is(MODIFIER, points[i])) i--;
  return is(PICTOGRAPHIC, points[i]);
}

/** The positions of the tag characters of every RGI subdivision flag in `points` (its spec and its cancel tag). */
function flagTags(points: readonly number[]): Set<number> {
  const inFlag = new Set<number>();
  for (let i = points.indexOf(BLACK_FLAG); i !== -1; i = points.indexOf(BLACK_FLAG, i + 1)) {
    let spec = "";
    let j = i + 1;
    for (; j < points.length && (points[j] as number) >= 0xe0020 && (points[j] as number) <= 0xe007e; j++) {
      spec += String.fromCharCode((points[j] as number) - 0xe0000);
    }
    if (points[j] === CANCEL_TAG && RGI_SUBDIVISIONS.has(spec)) for (let k = i + 1; k <= j; k++) inFlag.add(k);
  }
  return inFlag;
}

function is(pattern: RegExp, point: number | undefined): boolean {
  return point !== undefined && pattern.test(String.fromCodePoint(point));
}
