import { test } from "node:test";
import assert from "node:assert/strict";
import { compilePattern, RegexSyntaxError } from "../../../src/engine/regex/index.js";
import { assertAgrees } from "./helpers.js";

const INPUTS = [
  "", "a", "b", "ab", "aab", "abab", "abc", "ABC", "aB1_", "a b", " ", "\t\n", "\r", "\u2028", "\u2029",
  "\u00a0", "\ufeff", "\u1680", "\u3000", "\u200b", "x\ny", "0123", "12a", "foo bar", "foo_bar", "-",
  "😀", "a😀b", "😀😀", "\ud83d", "\ude00", "\ude00\ud83d", "a\ud83d", "\ud83da", "é", "Ωμέγα", "日本",
  "\u0000", "\u0008", "\u000b", "\u000c", "aaaa", "abcabc", "xyzxyz", "/", "\\", "{", "}", "]", "[",
  "$", "^", ".", "*", "+", "?", "(", ")", "|", "𝒜", "\ud835\udc9c", "a-b", "\u0130", "ſ", "K",
];

const VALID = [
  "", "a", "abc", "^abc", "abc$", "^abc$", "^$", "a|b", "a|", "|a", "(a|b)*c", "a*?", "a+?", "a??", "a{2}", "a{2,}",
  "a{2,3}", "a{2,3}?", "a{0}", "a{0,0}", "a{1,1}", "(?:ab)+", "(a)(b)(c)", "(?<name>a)\\k<name>", "(a)\\1",
  "\\1(a)", "(a\\1)", "(a)|\\1b", "(?:(a)|b)\\1", "(a*)\\1", "^(a+)\\1$", "(a)?\\1", "(?:(a)|(b))+\\1\\2",
  ".", "^.$", "^..$", "[a-z]", "[^a-z]", "[-a]", "[a-]", "[a\\-z]", "[\\d-]", "[--a]", "[\\b]", "[\\]]", "[[]",
  "[]", "[^]", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "^\\s$", "^\\S$", "\\bfoo\\b", "\\Bo\\B", "\\b", "\\B",
  "\\p{L}", "\\P{L}", "\\p{Lu}", "\\p{Script=Greek}", "\\p{sc=Grek}", "\\p{General_Category=Letter}",
  "\\p{ASCII}", "\\p{Any}", "[\\p{L}\\d]", "[^\\p{L}]", "[\\P{L}]", "^\\p{Emoji}$",
  "\\u{1F600}", "\\u{0}", "\\u{10FFFF}", "\\u{000000041}", "\\uD83D\\uDE00", "^\\uD83D$", "\\uDE00", "\\uD83D",
  "^[\\uD83D\\uDE00]$", "^[😀]$", "^\\u{D83D}\\u{DE00}$", "^\\uD83D\\u{DE00}$", "^[\\u{D83D}\\u{DE00}]+$", "\\uD83D\\uDE00+", "^😀+$", "^[^😀]$", "^[\\uD800-\\uDFFF]$", "\\cJ", "\\ca", "\\0", "[\\0]",
  "\\x41", "\\t\\n\\v\\f\\r", "\\/", "\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|", "[\\-]",
  "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(?<=(a))\\1", "(?<=\\1(a))b", "(?<=(a)\\1)b", "(?=(a))a\\1",
  "(?!(a))\\1", "(?<=^|b)a", "(?<=a+)b", "(?<=[ab]{2})c", "(?<=(?<!b)a)b", "(?<=😀)a", "(?<=.)$",
  "^(?:a|ab)(?:c|bcd)(?:d*)$", "(a*)*b", "(a*)+", "(a|ab)(c|bcd)(d*)", "^(?:(a)|b)*$", "(z)((a+)?(b+)?(c))*",
  "^(?:a?){3}$", "^(?:a??){3}a{3}$", "(?:){3}", "(?:a*){2,}b", "^(?:()|a)+$", "^(a|)+\\1$", "^(?:(a)|\\1b)+$",
  "((a)|b)+\\2", "(?<a>x)|(?<b>y)\\k<b>", "^(?<𝒜>.)\\k<𝒜>$", "(?<\\u{1d49c}>.)", "(?<a\\u0062>.)\\k<ab>",
  "(?<$_>.)", "x*y+$", "[a-zA-Z0-9_]+@[a-z]+\\.[a-z]{2,}", "^[0-9]{3}-[0-9]{4}$", "^\\w+\\s?\\w*$",
  "a{,5}".replace("{,5}", "{0,5}"), "a{00002}", "a{1,00002}", "^[^\\s\\S]$", "[\\s\\S]", "\\w\\b\\W", "^\\B$",
];

const INVALID = [
  "(", ")", "[", "]", "{", "}", "a{", "a{1", "a{1,", "a{,5}", "a{2,1}", "a**", "a*??", "*", "+a", "?", "a|*",
  "(?", "(?a)", "(?i:a)", "(?<>a)", "(?<1a>a)", "(?<a>a)(?<a>b)", "\\k<a>", "\\k", "(?<a>.)\\k<b>", "\\2(a)",
  "\\1", "\\8", "\\00", "\\01", "[\\1]", "\\a", "\\e", "\\z", "\\_", "\\-", "\\ ", "[\\B]", "[\\c1]", "\\c1",
  "\\c", "\\x4", "\\xZZ", "\\u12", "\\u{}", "\\u{110000}", "\\u{1F600", "\\p", "\\p{}", "\\p{Foo}",
  "\\p{L", "\\p{Script=Foo}", "\\p{RGI_Emoji}", "[z-a]", "[\\d-z]", "[a-\\d]", "[\\w-\\d]", "(?=a)*", "(?=a)+",
  "(?<=a)?", "(?!a){2}", "^*", "$+", "\\b*", "a{1}{2}", "(?<a", "(?:", "((a)", "a)", "[a-", "[\\p{L}-z]", "(?<a-b>x)", "\\k<a", "a{2,1}?", "(?<=a", "\\u{-1}", "a{99999999999,1}",
];

test("hand-written valid patterns agree with the native engine", () => {
  for (const p of VALID) assertAgrees(p, INPUTS);
});

test("hand-written invalid patterns are rejected like the native engine", () => {
  for (const p of INVALID) {
    assert.throws(() => new RegExp(p, "u"), `native should reject /${p}/u`);
    assert.throws(() => compilePattern(p), RegexSyntaxError, `/${p}/u`);
  }
});

test("non-BMP and surrogate semantics agree", () => {
  const inputs = ["😀", "\ud83d\ude00\ud83d", "\ude00", "a\ud83d\ude00", "\ud83d\ud83d\ude00", "𝒜𝒜", "\ud835"];
  for (const p of ["^.$", "^..$", "\\ud83d", "\\ude00", "^\\ude00", "\\ud83d$", "(.)\\1", "^(.+)\\1$",
    "(\\ud83d)\\1", "(?<=\\ude00)", "(?<=\\ud83d)", "(?<=^.)$", "(?<=^..)$", "\\B", "^[\\ud800-\\udbff]", "[^x]$"]) {
    assertAgrees(p, inputs);
  }
});

test("no match starts between the halves of a surrogate pair (ECMA-262, unlike V8)", () => {
  assert.equal(compilePattern("\\B").test("a😀b"), false);
  assert.equal(compilePattern("(?:\\B)").test("a😀b"), false);
  assert.equal(compilePattern("\\B(?=\\ude00)").test("a😀b"), false);
});

test("source is preserved", () => {
  assert.equal(compilePattern("^a+$").source, "^a+$");
});
