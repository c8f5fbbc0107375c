import { jsonPointer } from "../../../src/vocabularies/format/json-pointer.js";
import { relativeJsonPointer } from "../../../src/vocabularies/format/relative-json-pointer.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("json-pointer", jsonPointer, {
  // RFC 6901 §5 examples
  valid: ["", "/foo", "/foo/0", "/", "/a~1b", "/c%d", "/e^f", "/g|h", "/i\\j", '/k"l', "/ ", "/m~0n", "/~01"],
  invalid: ["#", "#/foo", "foo", "/~", "/~2", "/a~", "/~~", "0/foo", " /foo", "/~1~"],
  hostile: [
    ["/~0".repeat(MB / 3), true],
    ["~".repeat(MB), false],
    ["/".repeat(MB) + "~", false],
  ],
});

describeFormat("relative-json-pointer", relativeJsonPointer, {
  // draft-bhutton-relative-json-pointer-00 §5.1 examples
  valid: [
    "0",
    "1/0",
    "0-1",
    "2/highly/nested/objects",
    "0#",
    "0-1#",
    "1#",
    "0/objects",
    "1/nested/objects",
    "2/foo/0",
    "10+3/a",
  ],
  invalid: ["", "/foo", "-1", "+1", "01", "0##", "1#/foo", "0/~", "a", "1-", "1+01"],
  hostile: [
    ["1".repeat(MB) + "x", false],
    ["1".repeat(MB), true],
    ["0" + "/~1".repeat(MB / 3), true],
  ],
});
