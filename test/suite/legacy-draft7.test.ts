/** tests/draft7 of the official suite through `legacyDialects: "upgrade"` (test/suite/legacy.ts). */

import { runLegacySuite } from "./legacy.js";

await runLegacySuite("draft7", { contentFiles: ["optional/content.json"] });
