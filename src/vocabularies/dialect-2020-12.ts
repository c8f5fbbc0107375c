/** The 2020-12 dialect (Core §8.1): the one place that assembles the vocabularies into keyword sets. */

import type { DialectDefinition, Vocabulary } from "../engine/compile/dialect.js";
import { applicator } from "./applicator/index.js";
import { objectMembers } from "./applicator/object-members.js";
import { content } from "./content/index.js";
import { core } from "./core/index.js";
import { format } from "./format/format.js";
import { formatCheckers } from "./format/index.js";
import { metaData } from "./meta-data/index.js";
import { metaSchemas2020_12 } from "./metaschemas-2020-12.js";
import { unevaluated } from "./unevaluated/index.js";
import { validation } from "./validation/index.js";

const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";

const vocabularies: readonly Vocabulary[] = [
  { uri: VOCAB + "core", keywords: core },
  { uri: VOCAB + "applicator", keywords: applicator },
  { uri: VOCAB + "unevaluated", keywords: unevaluated },
  { uri: VOCAB + "validation", keywords: validation },
  { uri: VOCAB + "meta-data", keywords: metaData },
  { uri: VOCAB + "format-annotation", keywords: [format] },
  { uri: VOCAB + "format-assertion", keywords: [format], assertsFormat: true },
  { uri: VOCAB + "content", keywords: content },
];

export const dialect2020_12: DialectDefinition = {
  metaSchema: "https://json-schema.org/draft/2020-12/schema",
  vocabularies,
  defaultVocabularies: [
    "core",
    "applicator",
    "unevaluated",
    "validation",
    "meta-data",
    "format-annotation",
    "content",
  ].map((v) => VOCAB + v),
  documents: metaSchemas2020_12,
  subschemaKeywords: new Map([
    ["$defs", "map"],
    // Validation 2020-12 Appendix A: `definitions` is indexed like `$defs`.
    ["definitions", "map"],
    ["properties", "map"],
    ["patternProperties", "map"],
    ["dependentSchemas", "map"],
    ["prefixItems", "array"],
    ["allOf", "array"],
    ["anyOf", "array"],
    ["oneOf", "array"],
    ["items", "schema"],
    ["contains", "schema"],
    ["additionalProperties", "schema"],
    ["propertyNames", "schema"],
    ["not", "schema"],
    ["if", "schema"],
    ["then", "schema"],
    ["else", "schema"],
    ["unevaluatedItems", "schema"],
    ["unevaluatedProperties", "schema"],
    ["contentSchema", "schema"],
  ]),
  fusions: [objectMembers],
  formats: formatCheckers,
  knownOtherDialects: [
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
    "http://json-schema.org/draft-03/schema",
    "https://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/schema",
    "https://json-schema.org/schema",
  ],
};
