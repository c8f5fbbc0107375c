import { iri } from "../../../src/vocabularies/format/iri.js";
import { iriReference } from "../../../src/vocabularies/format/iri-reference.js";
import { uri } from "../../../src/vocabularies/format/uri.js";
import { uriReference } from "../../../src/vocabularies/format/uri-reference.js";
import { describeFormat, MB } from "./format-cases.js";

/** RFC 3986 §1.1.2 examples. */
const RFC3986_EXAMPLES = [
  "ftp://ftp.is.co.za/rfc/rfc1808.txt",
  "http://www.ietf.org/rfc/rfc2396.txt",
  "ldap://[2001:db8::7]/c=GB?objectClass?one",
  "mailto:John.Doe@example.com",
  "news:comp.infosystems.www.servers.unix",
  "tel:+1-816-555-1212",
  "telnet://192.0.2.16:80/",
  "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
];

const HOSTILE = [
  ["http://x/" + "%".repeat(MB), false],
  ["a".repeat(MB) + ":", true],
  ["//" + "@".repeat(MB), false],
  ["http://[" + ":".repeat(MB), false],
  ["a:" + "/".repeat(MB), true],
] as const;

describeFormat("uri", uri, {
  valid: [
    ...RFC3986_EXAMPLES,
    "foo://example.com:8042/over/there?name=ferret#nose",
    "http://[v7.fe80::a+en1]/",
    "http://a:/",
    "s:",
  ],
  invalid: [
    "//example.com/",
    "/over/there",
    "1http://x",
    "http://ex ample.com/",
    "http://example.com/%zz",
    "http://example.com:8o/",
    "http://[::1/",
    "http://[fe80::1%25en0]/", // zone ids are RFC 6874, not RFC 3986
    "http://example.com/\u00e9",
    "http://a/b#c#d",
    "http://[v.x]/",
  ],
  hostile: HOSTILE,
});

describeFormat("uri-reference", uriReference, {
  valid: [
    ...RFC3986_EXAMPLES.slice(0, 2),
    // RFC 3986 §5.4 reference resolution examples
    "g:h",
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g;x?y#s",
    "",
    ".",
    "../..",
    "../../../g",
  ],
  invalid: ["1:g", ":g", "g h", "#a#b", "%", "//[::1", "//a:b:c/", "\\\\server", "/\u00e9", "?\u{F0000}"],
  hostile: HOSTILE,
});

describeFormat("iri", iri, {
  valid: [
    "http://r\u00e9sum\u00e9.example.org", // RFC 3987 §3.1
    "http://www.example.org/red%09ros\u00e9#red", // §3.2 example
    "http://example.com/\u{10300}",
    "http://example.com/?q=\u{F0000}", // iprivate in iquery
    "http://\u0192\u00f8\u00f8.\u00df\u00e5r/?\u2202\u00e9\u0153=\u03c0\u00eex#\u03c0\u00ee\u00fcx",
    "urn:example:\u00e9",
    "http://[2001:db8::1]/",
    ...RFC3986_EXAMPLES.slice(0, 3),
  ],
  invalid: [
    "\u00e9",
    "//\u00e9.example/",
    "http://example.com/\ufffe",
    "http://example.com/\u{E000}", // iprivate only in the query
    "http://example.com/#\u{F0000}",
    "http://example.com/\ud800",
    "http://example.com/\u00a0\u0000",
    "http://example.com/\u{1FFFE}",
    "http://ex ample/",
    "http://example.com/<>",
  ],
  hostile: [["http://x/" + "\u00e9".repeat(MB), true], ["http://x/" + "\ud800".repeat(MB), false], ...HOSTILE],
});

describeFormat("iri-reference", iriReference, {
  valid: [
    "\u00e9",
    "/\u00e9",
    "//\u00e9.example/",
    "#\u00e9",
    "?\u{F0000}",
    "",
    "g;x?y#s",
    "../\u03c0",
    "http://\u00e9.example/",
    "./a:b",
  ],
  invalid: ["\u00e9:x", "#\u00e9#", "\ufffe", "/\u{E000}", "a\\b", "%c", "//[1::2::3]", "a b", "/^", "1:b"],
  hostile: [["\u00e9".repeat(MB), true], ["\u00e9".repeat(MB) + "%", false], ...HOSTILE],
});
