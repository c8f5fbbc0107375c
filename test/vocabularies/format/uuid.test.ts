import { uuid } from "../../../src/vocabularies/format/uuid.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("uuid", uuid, {
  valid: [
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", // RFC 4122 §3
    "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "00000000-0000-0000-0000-000000000000", // RFC 9562 §5.9 Nil UUID
    "ffffffff-ffff-ffff-ffff-ffffffffffff", // §5.10 Max UUID
    "c232ab00-9414-11ec-b3c8-9f6bdeced846", // RFC 9562 Appendix A.1
    "5df41881-3aed-3515-88a7-2f4a814cf09e", // A.2
    "919108f7-52d1-4320-9bac-f847db4148a8", // A.3
    "2ed6657d-e927-568b-95e1-2665a8aea6a2", // A.4
    "1ec9414c-232a-6b00-b3c8-9f6bdeced846", // A.5
    "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", // A.6
  ],
  invalid: [
    "f81d4fae7dec11d0a76500a0c91e6bf6",
    "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf6a",
    "f81d4fae-7dec-11d0-a765_00a0c91e6bf6",
    "g81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "f81d4fa-e7dec-11d0-a765-00a0c91e6bf6",
    "",
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf\u0666",
  ],
  hostile: [
    ["a".repeat(MB), false],
    ["-".repeat(MB), false],
  ],
});
