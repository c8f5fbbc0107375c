/** tests/draft4 of the official suite through `legacyDialects: "upgrade"` (test/suite/legacy.ts). */

import { runLegacySuite } from "./legacy.js";

await runLegacySuite("draft4", {
  optional: new Map([
    [
      "optional/zeroTerminatedFloats",
      "JSON.parse reads 1.0 as the number 1: JavaScript keeps no fractional part to tell the two apart",
    ],
  ]),
});
