/**
 * The dialects the upgrade reads, as data (docs/guide/older-dialects.md): how each one spells `$schema` and
 * identifiers, where it keeps subschemas, which keywords it does not define that 2020-12 acts on, and whether it
 * ignores the keywords beside `$ref`. Draft-04, -06 and -07 share one shape (the "classic" drafts); 2019-09 is
 * 2020-12 but for a few keywords; 2020-12 itself is read (never rewritten) when it shares a set with older documents.
 */
import { ANNOTATIONS, CLASSIC_CONSTRAINTS, NEWER_THAN_CLASSIC } from "./keywords.js";

/**
 * How a keyword holds subschemas, and the 2020-12 keyword of the same position when it is renamed: the one table
 * (per dialect, dialects.ts) the scan, the pointer translation and the translation read. `items` holds a schema or
 * an array of them (the array becomes `prefixItems`, and `additionalItems` beside it becomes `items`). `unknown`
 * marks a container the dialect does not define (`$defs` before 2019-09) whose schemas a JSON Pointer can reach:
 * its other members are skipped, never refused.
 */
interface Position {
  readonly holds: "schema" | "array" | "map" | "items";
  readonly renamed?: string;
  readonly unknown?: boolean;
}

/** An older dialect the explicit upgrade translates into 2020-12. */
export type LegacyDialect = "draft-04" | "draft-06" | "draft-07" | "2019-09";

/** What the upgrade knows of one source dialect. */
export interface SourceDialect {
  /** The dialect's name, as options and messages spell it. */
  readonly name: LegacyDialect | "2020-12";
  /** The `$schema` values that declare it (http or https, with or without the empty fragment). */
  readonly declared: RegExp;
  /** The keyword that identifies a resource: `id` in draft-04 (Core draft-04 §7.2), `$id` since. */
  readonly id: "id" | "$id";
  /** Drafts 04–07 ignore every keyword beside `$ref` (Core draft-07 §8.3); 2019-09 applies them (Core §8.2.4.1). */
  readonly refAlone: boolean;
  /** Draft-04 has no boolean schemas but for `additionalItems` and `additionalProperties` (Validation draft-04 §5). */
  readonly booleanSchemas: boolean;
  /**
   * Draft-04's `exclusiveMaximum` / `exclusiveMinimum` are booleans beside `maximum` / `minimum` (§5.1.2, §5.1.3).
   */
  readonly exclusiveBooleans: boolean;
  /** Where subschemas sit, and what each position becomes in 2020-12. */
  readonly positions: ReadonlyMap<string, Position>;
  /** Keywords that assert or apply subschemas: dropping one beside `$ref` is reported as dropping a constraint. */
  readonly constraints: ReadonlySet<string>;
  /** Keywords 2020-12 gives a meaning the dialect does not define (it ignores them): dropped, with that meaning. */
  readonly newer: ReadonlyMap<string, string>;
  /** Whether a validator of the dialect was allowed to assert `format` (drafts 04–07), unlike 2019-09 and 2020-12. */
  readonly formatMayAssert: boolean;
}

const map = (renamed?: string): Position => (renamed === undefined ? { holds: "map" } : { holds: "map", renamed });
const array: Position = { holds: "array" };
const schema: Position = { holds: "schema" };

/** The positions every draft from 04 to 2020-12 has. */
const COMMON: [string, Position][] = [
  ["properties", map()],
  ["patternProperties", map()],
  ["allOf", array],
  ["anyOf", array],
  ["oneOf", array],
  ["additionalProperties", schema],
  ["not", schema],
];

/** `items` holds a schema or an array of them until 2020-12 (the array becomes `prefixItems`). */
const ITEMS: [string, Position][] = [
  ["items", { holds: "items" }],
  ["additionalItems", { holds: "schema", renamed: "items" }],
];

/**
 * Drafts 04–07: `definitions` becomes `$defs`, `dependencies` (its schemas) `dependentSchemas`; `$defs` is unknown,
 * but a JSON Pointer can reach its schemas, so they are kept (its other members are skipped, never refused).
 */
const CLASSIC: [string, Position][] = [
  ...COMMON,
  ...ITEMS,
  ["definitions", map("$defs")],
  ["$defs", { holds: "map", unknown: true }],
  ["dependencies", map("dependentSchemas")],
];
const SINCE_06: [string, Position][] = [
  ["contains", schema],
  ["propertyNames", schema],
];
const SINCE_07: [string, Position][] = [
  ["if", schema],
  ["then", schema],
  ["else", schema],
];
/** 2019-09 and 2020-12 alike (`definitions` is kept: 2020-12 indexes it like `$defs`, Validation Appendix A). */
const MODERN: [string, Position][] = [
  ...COMMON,
  ...SINCE_06,
  ...SINCE_07,
  ["$defs", map()],
  ["definitions", map()],
  ["dependentSchemas", map()],
  ["unevaluatedItems", schema],
  ["unevaluatedProperties", schema],
  ["contentSchema", schema],
];

const uri = (path: string): RegExp => new RegExp(`^https?://json-schema\\.org/${path}/schema#?$`);

/** Keywords a draft added, by the draft that added them (they are "newer" for every draft before). */
const ADDED_IN_06: [string, string][] = [
  ["$id", "identify a schema resource"],
  ["const", "constrain the instance to one value"],
  ["contains", "constrain arrays"],
  ["propertyNames", "constrain property names"],
  ["examples", ANNOTATIONS.get("examples") as string],
];
const ADDED_IN_07: [string, string][] = [
  ["if", "apply a conditional subschema"],
  ["then", "apply when the if subschema holds"],
  ["else", "apply when the if subschema fails"],
  ["contentMediaType", "annotate, or with contentAssertion check, a string's content"],
  ["contentEncoding", "annotate, or with contentAssertion check, a string's encoding"],
  ...["readOnly", "writeOnly", "$comment"].map((k): [string, string] => [k, ANNOTATIONS.get(k) as string]),
];

const draft07: SourceDialect = {
  name: "draft-07",
  declared: uri("draft-07"),
  id: "$id",
  refAlone: true,
  booleanSchemas: true,
  exclusiveBooleans: false,
  positions: new Map([...CLASSIC, ...SINCE_06, ...SINCE_07]),
  constraints: new Set([...CLASSIC_CONSTRAINTS, "const", "contains", "propertyNames", "if", "then", "else"]),
  newer: NEWER_THAN_CLASSIC,
  formatMayAssert: true,
};

const draft06: SourceDialect = {
  ...draft07,
  name: "draft-06",
  declared: uri("draft-06"),
  positions: new Map([...CLASSIC, ...SINCE_06]),
  constraints: new Set([...CLASSIC_CONSTRAINTS, "const", "contains", "propertyNames"]),
  newer: new Map([...NEWER_THAN_CLASSIC, ...ADDED_IN_07]),
};

const draft04: SourceDialect = {
  ...draft06,
  name: "draft-04",
  declared: uri("draft-04"),
  id: "id",
  booleanSchemas: false,
  exclusiveBooleans: true,
  positions: new Map(CLASSIC),
  constraints: new Set(CLASSIC_CONSTRAINTS),
  newer: new Map([...NEWER_THAN_CLASSIC, ...ADDED_IN_06, ...ADDED_IN_07]),
};

/** 2019-09: what 2020-12 renamed (`items` arrays, `$recursiveRef`) is translated; only these keywords are newer. */
const draft2019: SourceDialect = {
  name: "2019-09",
  declared: uri("draft/2019-09"),
  id: "$id",
  refAlone: false,
  booleanSchemas: true,
  exclusiveBooleans: false,
  positions: new Map([...MODERN, ...ITEMS]),
  constraints: new Set(),
  newer: new Map([
    ["$dynamicRef", "apply the schema it names"],
    ["$dynamicAnchor", "name this schema for $ref and $dynamicRef"],
    ["prefixItems", "constrain array items"],
  ]),
  formatMayAssert: false,
};

/** 2020-12 as a set member: read for its identifiers and references, compiled as given. */
export const DIALECT_2020_12: SourceDialect = {
  ...draft2019,
  name: "2020-12",
  declared: /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/,
  positions: new Map([...MODERN, ["items", schema], ["prefixItems", array]]),
  newer: new Map(),
};

/** The 2020-12 meta-schema URI every upgraded resource root declares. */
export const URI_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** Every older dialect, by name. */
export const LEGACY_DIALECTS: ReadonlyMap<LegacyDialect, SourceDialect> = new Map(
  [draft04, draft06, draft07, draft2019].map((d) => [d.name as LegacyDialect, d]),
);

/** The older dialect a `$schema` value declares, or undefined (2020-12, another URI, not a string). */
export function legacyDialectOf(declared: unknown): SourceDialect | undefined {
  if (typeof declared !== "string") return undefined;
  for (const dialect of LEGACY_DIALECTS.values()) if (dialect.declared.test(declared)) return dialect;
  return undefined;
}

/** The older dialect a schema's root declares in `$schema`; undefined for anything else or an unreadable root. */
export function declaredLegacyDialect(schema: unknown): SourceDialect | undefined {
  try {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
    if (!Object.hasOwn(schema, "$schema")) return undefined;
    return legacyDialectOf((schema as Record<string, unknown>)["$schema"]);
  } catch {
    return undefined;
  }
}
