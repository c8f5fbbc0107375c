/** The official 2020-12 suite: every required test, and the optional non-format files with listed deviations. */

import { join } from "node:path";
import { jsonFiles, locateSuite, remotes } from "./locate.js";
import { runSuiteFiles } from "./runner.js";

const suite = locateSuite();
const registry = remotes(suite);
const tests = join(suite, "tests", "draft2020-12");

runSuiteFiles(tests, jsonFiles(tests, false), { options: { schemaRegistry: registry } });

/** Optional behaviour we deliberately do not have: each failing test by name, with the reason. */
const DEPENDENCIES =
  "`dependencies` is not a 2020-12 keyword (Core §10.2.2 split it into dependentSchemas/dependentRequired); it only annotates";
const CROSS_DRAFT =
  'a resource declaring another draft is unsupported_capability, never reinterpreted (docs/guide/engine.md "What it does")';

function deviations(reason: string, file: string, cases: Record<string, string[]>): [string, string][] {
  return Object.entries(cases).flatMap(([c, ts]) =>
    ts.length === 0 ? [[`${file}::${c}`, reason]] : ts.map((t): [string, string] => [`${file}::${c}::${t}`, reason]),
  );
}

const optionalExceptions = new Map<string, string>([
  ...deviations(CROSS_DRAFT, "optional/cross-draft", {
    "refs to historic drafts are processed as historic drafts": [],
  }),
  ...deviations(DEPENDENCIES, "optional/dependencies-compatibility", {
    "single dependency": ["missing dependency"],
    "multiple dependents required": ["missing dependency", "missing other dependency", "missing both dependencies"],
    "dependencies with escaped characters": ["CRLF missing dependent", "quoted quotes missing dependent"],
    "single schema dependency": ["wrong type", "wrong type other", "wrong type both"],
    "boolean subschemas": [
      "object with property having schema false is invalid",
      "object with both properties is invalid",
    ],
    "schema dependencies with escaped characters": [
      "quoted quote",
      "quoted tab invalid under dependent schema",
      "quoted quote invalid under dependent schema",
    ],
  }),
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
