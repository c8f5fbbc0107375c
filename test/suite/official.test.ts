/** The official 2020-12 suite: every required test, and the optional non-format files with listed deviations. */

import { join } from "node:path";
import { jsonFiles, locateSuite, remotes } from "./locate.js";
import { DEPENDENCIES_COMPATIBILITY, deviations, runSuiteFiles } from "./runner.js";

const suite = locateSuite();
const registry = remotes(suite);
const tests = join(suite, "tests", "draft2020-12");

runSuiteFiles(tests, jsonFiles(tests, false), { options: { schemaRegistry: registry } });

/** Optional behaviour we deliberately do not have: each failing test by name, with the reason. */
const DEPENDENCIES =
  "`dependencies` is not a 2020-12 keyword (Core §10.2.2 split it into dependentSchemas/dependentRequired); it only annotates";
const CROSS_DRAFT =
  'a resource declaring another draft is unsupported_capability, never reinterpreted (docs/guide/engine.md "What it does")';

const optionalExceptions = new Map<string, string>([
  ...deviations(CROSS_DRAFT, "optional/cross-draft", {
    "refs to historic drafts are processed as historic drafts": [],
  }),
  ...deviations(DEPENDENCIES, "optional/dependencies-compatibility", DEPENDENCIES_COMPATIBILITY),
]);

const optional = join(tests, "optional");
runSuiteFiles(
  tests,
  jsonFiles(optional, false).map((f) => "optional/" + f),
  { options: { schemaRegistry: registry }, exceptions: optionalExceptions },
);

runSuiteFiles(
  tests,
  jsonFiles(join(optional, "format"), false).map((f) => "optional/format/" + f),
  { options: { schemaRegistry: registry, formatAssertion: true } },
);
