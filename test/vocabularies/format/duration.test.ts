import { duration } from "../../../src/vocabularies/format/duration.js";
import { describeFormat, MB } from "./format-cases.js";

describeFormat("duration", duration, {
  valid: [
    "P1Y2M3DT4H5M6S", // every element (RFC 3339 Appendix A)
    "P3W", // dur-week
    "P1D",
    "P1M",
    "PT1M",
    "P1Y2M",
    "P1M2D",
    "PT36H",
    "PT1M2S",
    "P0D",
    "p1dt2h",
  ],
  invalid: [
    "P",
    "PT",
    "P1YT",
    "P1Y2D",
    "PT1H2S",
    "P1W2D",
    "P1WT1H",
    "P1DT",
    "PT1.5S",
    "1D",
    "P-1D",
    "P1H",
    "PT1D",
    "P1D2M",
  ],
  hostile: [
    ["P" + "1".repeat(MB) + "D", true],
    ["P" + "1".repeat(MB), false],
    ["PT" + "1H".repeat(MB / 2), false],
    ["P".repeat(MB), false],
  ],
});
