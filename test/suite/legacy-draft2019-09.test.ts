/** tests/draft2019-09 of the official suite through `legacyDialects: "upgrade"` (test/suite/legacy.ts). */

import { runLegacySuite } from "./legacy.js";
import { DEPENDENCIES_COMPATIBILITY, deviations } from "./runner.js";

/** 2019-09 vocabularies are not the 2020-12 dialect's: a meta-schema that requires them stays unsupported. */
const VOCABULARY =
  "a meta-schema requiring 2019-09 vocabularies: the 2020-12 dialect has none of them (their keywords differ: " +
  "items arrays, $recursiveRef), so it is vocabulary_unsupported, never read as 2020-12's";

/** A `$ref` into what is no subschema position: the upgrade cannot tell what the value there means in 2020-12. */
const UNKNOWN_KEYWORD =
  "a $ref into a keyword 2019-09 does not define (or into examples) points at no subschema the upgrade translates, " +
  "so it is upgrade_blocked";

const DEPENDENCIES =
  "`dependencies` is no 2019-09 keyword (Core 2019-09 split it into dependentSchemas/dependentRequired); the " +
  "upgrade keeps it as the unknown keyword it is";

await runLegacySuite("draft2019-09", {
  required: new Map([
    ["vocabulary::schema that uses custom metaschema with with no validation vocabulary", VOCABULARY],
    ["vocabulary::ignore unrecognized optional vocabulary", VOCABULARY],
  ]),
  optional: new Map(deviations(DEPENDENCIES, "optional/dependencies-compatibility", DEPENDENCIES_COMPATIBILITY)),
  optionalRefusals: new Map([["optional/refOfUnknownKeyword", UNKNOWN_KEYWORD]]),
});
