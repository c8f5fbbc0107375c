import { hostname } from "../../../src/vocabularies/format/hostname.js";
import { idnHostname } from "../../../src/vocabularies/format/idn-hostname.js";
import { describeFormat, MB } from "./format-cases.js";

const label63 = "a".repeat(63);
const name253 = [label63, label63, label63, "a".repeat(61)].join(".");

describeFormat("hostname", hostname, {
  valid: [
    "www.example.com",
    "3com.com", // RFC 1123 §2.1 allows a leading digit
    "a",
    "A-B.example",
    "r3---sn-abc.googlevideo.com", // "--" in positions 3–4 of a non-"xn--" LDH label is RFC 1123 syntax
    "xn--bcher-kva.example", // RFC 5891 A-label for "bücher"
    "XN--BCHER-KVA.example", // A-labels compare case-insensitively
    "xn--ihqwcrb4cv8a8dqg056pqjye",
    label63 + ".com",
    name253,
  ],
  invalid: [
    "",
    "-example.com",
    "example-.com",
    "exa_mple.com",
    "example..com",
    "example.com.",
    "b\u00fccher.example",
    "a".repeat(64) + ".com",
    name253 + "a",
    "xn--bcher-kva-.example",
    "xn--a", // decodes to "\x80": not a valid U-label
    "xn--example-", // decodes to ASCII only
    "xn--www-", // decodes to ASCII only
    "xn--ls8h", // U+1F4A9 is DISALLOWED
  ],
  hostile: [
    ["a".repeat(MB), false],
    ["a.".repeat(MB / 2) + "a", false],
    [".".repeat(MB), false],
    ["xn--" + "a".repeat(MB), false],
  ],
});

describeFormat("idn-hostname", idnHostname, {
  valid: [
    "b\u00fccher.example",
    "\u4f8b\u5b50.\u6d4b\u8bd5",
    "\u05d0\u05d1\u05d2.\u05d3", // all right-to-left: the Bidi rule holds
    "\u0628\u0660\u0628",
    "l\u00b7l", // RFC 5892 A.3
    "\u03b1\u0375\u03b2", // A.4
    "\u05d0\u05f3\u05d1", // A.5
    "\u30fb\u3041", // A.7
    "\u0915\u094d\u200d\u0937", // A.2 ZWJ after a virama
    "\u0628\u064a\u200c\u0628\u064a", // A.1 ZWNJ between dual-joining letters
    "a\u3002b\uff0ec\uff61d",
    "www.example.com",
  ],
  invalid: [
    "ab--cd", // "--" in positions 3–4 of an ASCII label: a reserved LDH label unless xn-- (RFC 5890 §2.3.1)
    "r3---sn-abc.googlevideo.com", // the same: valid as a plain hostname, not under IDNA2008
    "www.AB--cd.example",
    "B\u00fccher.example", // uppercase is DISALLOWED in a U-label (RFC 5892 §2.3)
    "bu\u0308cher.example", // not NFC
    "ab--\u00e9", // "--" in positions 3–4 of a U-label
    "\u00e9-",
    "\u0301a",
    "\u2665.example", // symbols are DISALLOWED
    "\u0915\u200d\u0937",
    "\u0628\u0660\u06f0",
    "a\u05d0",
    "0a.\u05d0",
    "\u05d0a",
    "\u1100\u1161", // old Hangul jamo (RFC 5892 §2.9)
    "\u00e9".repeat(60),
    "a\u3002\u3002b",
  ],
  hostile: [
    ["\u00e9".repeat(MB), false],
    ["\u00e9.".repeat(MB / 2) + "a", false],
    ["\u3002".repeat(MB), false],
    ["\u0628\u200c".repeat(MB / 2), false],
  ],
});
