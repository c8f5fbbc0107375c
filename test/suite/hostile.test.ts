/** fixtures/hostile: hostile schemas and instances in the suite's format, through the same runner. */

import { join } from "node:path";
import { jsonFiles, repoRoot } from "./locate.js";
import { generate } from "./generators.js";
import { runSuiteFiles } from "./runner.js";

const dir = join(repoRoot, "fixtures", "hostile");
runSuiteFiles(dir, jsonFiles(dir, false), { options: {}, generate });
