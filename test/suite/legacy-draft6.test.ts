/** tests/draft6 of the official suite through `legacyDialects: "upgrade"` (test/suite/legacy.ts). */

import { runLegacySuite } from "./legacy.js";

await runLegacySuite("draft6");
