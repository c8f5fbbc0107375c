/**
 * What each JSON Schema 2020-12 keyword is, for deciding what a rewrite may do with it (read from the 2020-12
 * dialect's vocabularies): where subschemas sit, which keywords only annotate (Validation §7–§9, Core §8.3),
 * and which keywords read their siblings' results, so that moving or dropping one changes another (Core §10.3.2,
 * §11).
 */

import { content } from "../../../vocabularies/content/index.js";
import { dialect2020_12 } from "../../../vocabularies/dialect-2020-12.js";
import { format } from "../../../vocabularies/format/format.js";
import { metaData } from "../../../vocabularies/meta-data/index.js";

/** Keywords that hold subschemas and how their values nest (`schema`, `array` or `map`). */
export const SUBSCHEMA_POSITIONS: ReadonlyMap<string, "schema" | "array" | "map"> = dialect2020_12.subschemaKeywords;

/** Every keyword of the 2020-12 vocabularies, `definitions` included (indexed like `$defs`, Validation Appendix A). */
export const KEYWORDS_2020_12: ReadonlySet<string> = new Set(
  dialect2020_12.vocabularies.flatMap((v) => v.keywords.map((k) => k.keyword)),
);

/** Keywords that never change a verdict: the meta-data vocabulary (Validation §9) and `$comment` (Core §8.3). */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([...metaData.map((k) => k.keyword), "$comment"]);

/** An annotation unless the host asserts it (`formatAssertion`, Validation §7.2.1). */
export const FORMAT_KEYWORDS: ReadonlySet<string> = new Set([format.keyword]);
/** Annotations unless the host asserts them (`contentAssertion`, Validation §8.1). */
export const CONTENT_KEYWORDS: ReadonlySet<string> = new Set(content.map((k) => k.keyword));

/** Keywords that name or scope resources (Core §8.2): moving one into another node changes what references mean. */
export const RESOURCE_KEYWORDS: ReadonlySet<string> = new Set([
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$vocabulary",
]);

/**
 * Keywords that read their siblings (Core §10.3.2.3 `additionalProperties` reads `properties` and
 * `patternProperties`, §10.3.1.2 `items` reads `prefixItems`, Validation §6.4.4–5 `minContains`/`maxContains` read
 * `contains`, Core §10.2.2 `then`/`else` read `if`, Core §11 `unevaluated*` read every adjacent applicator). Two
 * schemas can be merged into one node only when at most one of them has keywords of a group.
 */
export const SIBLING_GROUPS: readonly ReadonlySet<string>[] = [
  new Set(["properties", "patternProperties", "additionalProperties", "unevaluatedProperties"]),
  new Set(["prefixItems", "items", "unevaluatedItems"]),
  new Set(["contains", "minContains", "maxContains"]),
  new Set(["if", "then", "else"]),
];

/**
 * Assertions that only ever reject (no annotation, no subschema): dropping one from a schema the instance reaches
 * only through positive positions accepts a superset (Validation §6).
 */
export const PLAIN_ASSERTIONS: ReadonlySet<string> = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "const",
  "enum",
]);

/** The two `$schema` values meaning 2020-12 (Core §8.1.1; the empty fragment is the same URI). */
export function is2020_12(dialect: unknown): boolean {
  return (
    dialect === "https://json-schema.org/draft/2020-12/schema" ||
    dialect === "https://json-schema.org/draft/2020-12/schema#"
  );
}
