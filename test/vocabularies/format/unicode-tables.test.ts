// Cross-checks the hand-kept Unicode tables and the runtime-derived IDNA2008 properties against
// what the JavaScript runtime itself knows (\p{...} property escapes and normalization).
import assert from "node:assert/strict";
import { test } from "node:test";
import { bidiClass, isVirama, joiningType } from "../../../src/vocabularies/format/idna.js";
import { idnaProperty } from "../../../src/vocabularies/format/idna-properties.js";
import {
  BIDI_MARKS_LEFT,
  BIDI_RANGES,
  JOINING_DUAL,
  JOINING_LEFT,
  JOINING_NOT_TRANSPARENT,
  JOINING_RIGHT,
} from "../../../src/vocabularies/format/unicode-tables.js";

/** Scripts written right to left (Unicode §6.1 / ScriptNames); names the runtime does not know are skipped. */
const RTL_SCRIPTS = [
  "Adlam",
  "Arabic",
  "Avestan",
  "Chorasmian",
  "Cypriot",
  "Elymaic",
  "Garay",
  "Hanifi_Rohingya",
  "Hatran",
  "Hebrew",
  "Imperial_Aramaic",
  "Inscriptional_Pahlavi",
  "Inscriptional_Parthian",
  "Kharoshthi",
  "Lydian",
  "Mandaic",
  "Manichaean",
  "Mende_Kikakui",
  "Meroitic_Cursive",
  "Meroitic_Hieroglyphs",
  "Nabataean",
  "Nko",
  "Old_Hungarian",
  "Old_North_Arabian",
  "Old_Sogdian",
  "Old_South_Arabian",
  "Old_Turkic",
  "Old_Uyghur",
  "Palmyrene",
  "Phoenician",
  "Psalter_Pahlavi",
  "Samaritan",
  "Sidetic",
  "Sogdian",
  "Syriac",
  "Thaana",
  "Yezidi",
];
const JOINING_SCRIPTS = [
  "Adlam",
  "Arabic",
  "Chorasmian",
  "Hanifi_Rohingya",
  "Manichaean",
  "Mandaic",
  "Mongolian",
  "Nko",
  "Old_Uyghur",
  "Phags_Pa",
  "Psalter_Pahlavi",
  "Sogdian",
  "Syriac",
];

function anyScript(names: readonly string[]): (cp: number) => boolean {
  const known = names.filter((name) => {
    try {
      new RegExp(`\\p{Script=${name}}`, "u");
      return true;
    } catch {
      return false;
    }
  });
  const pattern = new RegExp(known.map((name) => `\\p{Script=${name}}`).join("|"), "u");
  return (cp) => pattern.test(String.fromCodePoint(cp));
}

function* rangeCodePoints(ranges: readonly number[]): Generator<number> {
  for (let i = 0; i < ranges.length; i += 2) for (let cp = ranges[i]!; cp <= ranges[i + 1]!; cp++) yield cp;
}

function assertSortedDisjoint(ranges: readonly number[]): void {
  assert.equal(ranges.length % 2, 0);
  for (let i = 0; i < ranges.length; i += 2) {
    assert.ok(ranges[i]! <= ranges[i + 1]!, `range at ${i}`);
    if (i > 0) assert.ok(ranges[i - 1]! < ranges[i]!, `order at ${i}`);
  }
}

const is =
  (pattern: RegExp) =>
  (cp: number): boolean =>
    pattern.test(String.fromCodePoint(cp));
const isAssigned = (cp: number): boolean => !/\p{Cn}/u.test(String.fromCodePoint(cp));

test("every table is sorted and disjoint", () => {
  for (const ranges of [JOINING_DUAL, JOINING_RIGHT, JOINING_LEFT, JOINING_NOT_TRANSPARENT, BIDI_MARKS_LEFT]) {
    assertSortedDisjoint(ranges);
  }
  for (const ranges of BIDI_RANGES.values()) assertSortedDisjoint(ranges);
});

test("joining-type tables hold assigned non-mark characters of the joining scripts", () => {
  const joining = anyScript(JOINING_SCRIPTS);
  const mark = is(/\p{M}/u);
  for (const ranges of [JOINING_DUAL, JOINING_RIGHT, JOINING_LEFT]) {
    for (const cp of rangeCodePoints(ranges)) {
      assert.ok(isAssigned(cp) && !mark(cp) && joining(cp), `U+${cp.toString(16)}`);
    }
  }
  for (const cp of rangeCodePoints(JOINING_NOT_TRANSPARENT)) assert.ok(is(/\p{Cf}/u)(cp), `U+${cp.toString(16)}`);
  assert.equal(joiningType(0x0628), "D");
  assert.equal(joiningType(0x0627), "R");
  assert.equal(joiningType(0x064a), "D");
  assert.equal(joiningType(0x064e), "T");
  assert.equal(joiningType(0x0621), "U");
  assert.equal(joiningType(0x200d), "U");
});

test("IDNA letters are right-to-left exactly when their script is", () => {
  const rtl = anyScript(RTL_SCRIPTS);
  const letter = is(/\p{L}/u);
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    if (idnaProperty(cp) !== "PVALID" || !letter(cp)) continue;
    const c = bidiClass(cp);
    if (c !== "ON") assert.equal(c === "R" || c === "AL", rtl(cp), `U+${cp.toString(16)} is ${c}`);
  }
});

test("Bidi number and mark classes agree with the general categories", () => {
  for (const name of ["AN", "EN"]) {
    for (const cp of rangeCodePoints(BIDI_RANGES.get(name)!)) assert.ok(is(/\p{Nd}/u)(cp), `U+${cp.toString(16)}`);
  }
  for (const cp of rangeCodePoints(BIDI_MARKS_LEFT)) assert.ok(is(/\p{Mn}/u)(cp), `U+${cp.toString(16)}`);
  for (const cp of rangeCodePoints(BIDI_RANGES.get("ON")!)) {
    const p = idnaProperty(cp);
    assert.ok(p === "PVALID" || p === "CONTEXTO" || p === "DISALLOWED" || p === "UNASSIGNED");
  }
  assert.equal(bidiClass(0x05d0), "R");
  assert.equal(bidiClass(0x0628), "AL");
  assert.equal(bidiClass(0x0661), "AN");
  assert.equal(bidiClass(0x06f1), "EN");
  assert.equal(bidiClass(0x0301), "NSM");
  assert.equal(bidiClass(0x0cbf), "L");
  assert.equal(bidiClass(0x0966), "L");
  assert.equal(bidiClass(0x2d), "ES");
});

test("viramas are read from canonical reordering", () => {
  for (const cp of [0x094d, 0x09cd, 0x0a4d, 0x0bcd, 0x0d4d, 0x0dca, 0x0e3a, 0x1039, 0x17d2, 0xa8c4, 0x11046]) {
    assert.equal(isVirama(cp), true, `U+${cp.toString(16)}`);
  }
  for (const cp of [0x0915, 0x093c, 0x0301, 0x05b0, 0x3099, 0x0041, 0x0f71])
    assert.equal(isVirama(cp), false, `U+${cp.toString(16)}`);
});

test("derived properties match RFC 5892 and its Appendix B", () => {
  const expected: readonly (readonly [number, string])[] = [
    [0x61, "PVALID"],
    [0x41, "DISALLOWED"],
    [0x2d, "PVALID"],
    [0x20, "DISALLOWED"],
    [0xdf, "PVALID"],
    [0x131, "PVALID"],
    [0x13a0, "PVALID"],
    [0xab70, "DISALLOWED"],
    [0x1f0, "PVALID"],
    [0x1fb3, "DISALLOWED"],
    [0x345, "DISALLOWED"],
    [0x20d0, "DISALLOWED"],
    [0x1d100, "DISALLOWED"],
    [0x1100, "DISALLOWED"],
    [0xac00, "PVALID"],
    [0x200c, "CONTEXTJ"],
    [0x200d, "CONTEXTJ"],
    [0x660, "CONTEXTO"],
    [0x6f9, "CONTEXTO"],
    [0xb7, "CONTEXTO"],
    [0x30fb, "CONTEXTO"],
    [0x3031, "DISALLOWED"],
    [0x378, "UNASSIGNED"],
    [0xffff, "DISALLOWED"],
    [0xa0, "DISALLOWED"],
    [0x2160, "DISALLOWED"],
    [0xcf1, "PVALID"],
    [0x19da, "DISALLOWED"],
    [0x4e00, "PVALID"],
    [0x1f600, "DISALLOWED"],
    [0xad, "DISALLOWED"],
  ];
  for (const [cp, property] of expected) assert.equal(idnaProperty(cp), property, `U+${cp.toString(16)}`);
});
