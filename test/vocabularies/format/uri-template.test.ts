import { uriTemplate } from "../../../src/vocabularies/format/uri-template.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("uri-template", uriTemplate, {
  valid: [
    "http://example.com/~{username}/", // RFC 6570 §1.1
    "http://example.com/dictionary/{term:1}/{term}",
    "http://example.com/search{?q,lang}",
    "{var}", // §3.2.1 and on
    "{+path}/here",
    "X{#keys*}",
    "{.who,who}",
    "{/list*,path:4}",
    "{;x,y,empty}",
    "?fixed=yes{&x}",
    "{var:30}",
    "{%41b.c_9}",
    "",
  ],
  invalid: [
    "{",
    "}",
    "{}",
    "{var",
    "{var:0}",
    "{var:10000}",
    "{a,,b}",
    "{a..b}",
    "{a.}",
    "{$x}",
    "{x*y}",
    "a b",
    "a<b",
    "%4",
  ],
  hostile: [
    ["{".repeat(MB), false],
    ["{a,".repeat(MB / 3), false],
    ["{a.".repeat(MB / 3), false],
    ["{a}".repeat(MB / 3), true],
    ["%41".repeat(MB / 3), true],
  ],
});
