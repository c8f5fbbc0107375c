import { test } from "node:test";
import fc from "fast-check";
import { assertAgrees } from "./helpers.js";

const ATOMS = [
  "a",
  "b",
  "c",
  ".",
  "\\d",
  "\\w",
  "\\W",
  "\\s",
  "\\S",
  "\\b",
  "\\B",
  "^",
  "$",
  "[ab]",
  "[^a]",
  "[a-c]",
  "[\\s\\d]",
  "[^\\w😀]",
  "\\u{1F600}",
  "😀",
  "\\uD83D",
  "\\uDE00",
  "\\uD83D\\uDE00",
  "\\p{L}",
  "\\P{Lu}",
  "\\p{Script=Latin}",
  "\\0",
  "\\n",
  "\\x61",
  "\\cJ",
  "\\1",
  "\\2",
  "\\k<n>",
  "",
  "-",
  "[\\b]",
];
const JUNK = [
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "{2",
  ",",
  "\\",
  "\\c",
  "\\u{",
  "\\k",
  "(?",
  "(?<",
  "*",
  "+",
  "?",
  "|",
  "\\p{",
];

const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
  re: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie("re"), tie("re")).map(([x, y]) => x + y),
    fc.tuple(tie("re"), tie("re")).map(([x, y]) => `${x}|${y}`),
    fc
      .tuple(fc.constantFrom("(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>"), tie("re"))
      .map(([o, x]) => `${o}${x})`),
    fc
      .tuple(tie("re"), fc.constantFrom("*", "+", "?", "{2}", "{0,2}", "{1,}", "{3,1}", "*?", "+?", "??", "{1,3}?"))
      .map(([x, q]) => x + q),
    fc.tuple(tie("re"), fc.constantFrom(...JUNK)).map(([x, j]) => x + j),
  ),
})).re;

const input = fc
  .array(fc.constantFrom("a", "b", "c", "A", "1", "_", " ", "\n", "-", "😀", "\ud83d", "\ude00", "é", "Ω"), {
    maxLength: 10,
  })
  .map((parts) => parts.join(""));

test("generated patterns agree with the native engine (validity and verdicts)", () => {
  fc.assert(
    fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 8 }), (p, inputs) => {
      assertAgrees(p, inputs);
    }),
    { seed: 20251, numRuns: 3000 },
  );
});

test("generated raw character soups agree on validity", () => {
  const soup = fc
    .array(fc.constantFrom(..."ab()[]{}|*+?^$.\\-,0123:=!<>kpPuxcdDwWsSbB/é😀"), { maxLength: 12 })
    .map((cs) => cs.join(""));
  fc.assert(
    fc.property(soup, (p) => assertAgrees(p, ["", "a", "ab", "a{1}", "😀", "(", "\\"])),
    { seed: 7, numRuns: 5000 },
  );
});

test("generated linear-engine patterns on longer inputs agree", () => {
  const linear = pattern.filter((p) => !/\\[1-9k]|\(\?[=!<]/.test(p));
  const longInput = fc
    .array(fc.constantFrom("a", "b", " ", "1", "😀", "\ud83d"), { maxLength: 60 })
    .map((p) => p.join(""));
  fc.assert(
    fc.property(linear, fc.array(longInput, { minLength: 1, maxLength: 5 }), (p, inputs) => assertAgrees(p, inputs)),
    { seed: 99, numRuns: 1500 },
  );
});
