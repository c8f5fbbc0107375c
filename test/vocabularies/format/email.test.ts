import { email } from "../../../src/vocabularies/format/email.js";
import { idnEmail } from "../../../src/vocabularies/format/idn-email.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("email", email, {
  valid: [
    "joe.bloggs@example.com",
    "user+mailbox/department=shipping@example.com", // RFC 3696 §3
    "!#$%&'*+-/=?^_`{|}~@example.com",
    '"Abc@def"@example.com', // RFC 3696 §3 quoted "@"
    '"Fred\\ Bloggs"@example.com', // quoted-pairSMTP
    '"Joe.\\\\Blow"@example.com',
    "postmaster@[127.0.0.1]", // RFC 5321 §4.1.3 IPv4-address-literal
    "postmaster@[IPv6:2001:db8::1]", // IPv6-address-literal
    "a@b",
    "a".repeat(64) + "@example.com",
    "x@xn--bcher-kva.example",
  ],
  invalid: [
    "Abc.example.com",
    "A@b@c@example.com",
    'a"b(c)d,e:f;g<h>i[j\\k]l@example.com',
    ".joe@example.com",
    "joe.@example.com",
    "jo..e@example.com",
    "joe@-example.com",
    "joe@example..com",
    "joe@[300.0.0.1]",
    "joe@[IPv6:1::2::3]",
    "a".repeat(65) + "@example.com",
    "\u00e9@example.com",
    "joe@ex\u00e4mple.com",
    '"unterminated@example.com',
  ],
  hostile: [
    ["a".repeat(MB), false],
    ["a.".repeat(MB / 2) + "@example.com", false],
    ['"' + "a".repeat(MB) + '"@example.com', false],
    ["a@" + "a.".repeat(MB / 2) + "com", false],
    ["a@[" + "1:".repeat(MB / 2) + "]", false],
  ],
});

describeFormat("idn-email", idnEmail, {
  valid: [
    "\uc2e4\ub840@\uc2e4\ub840.\ud14c\uc2a4\ud2b8",
    "\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae@\u03c0\u03b1\u03c1\u03ac\u03b4\u03b5\u03b9\u03b3\u03bc\u03b1.\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae", // RFC 6530 style
    "\u7528\u6237@\u4f8b\u5b50.\u5e7f\u544a",
    '"\u03b4 \u03b4"@example.com',
    "joe.bloggs@example.com",
    "\u{1d54f}@example.com",
    "user@caf\u0065\u0301.com",
    "user@[IPv6:::1]",
    "\u00e9".repeat(32) + "@example.com",
    "a@b\u3002c",
  ],
  invalid: [
    "user\uff20example.com",
    "\u00e9".repeat(33) + "@example.com",
    "\ud800@example.com",
    "a..b@example.com",
    "user@\u302e\uc2e4\ub840.\ud14c\uc2a4\ud2b8",
    "user@-\u00e9.com",
    "@example.com",
    "user@",
    "a b@example.com",
    "user@exa mple.com",
  ],
  hostile: [
    ["\u00e9".repeat(MB), false],
    ["a@" + "\u00e9.".repeat(MB / 2) + "com", false],
    ["a@" + "\u0301".repeat(MB), false],
  ],
});
