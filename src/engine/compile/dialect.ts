/**
 * Dialects and vocabularies (Core §8.1): a dialect is data — its meta-schema URI, the vocabularies it
 * knows, and the keyword definitions of each. `$vocabulary` of a custom meta-schema picks among them.
 */

import { invalid, unsupported } from "../errors.js";
import type { BuiltinFormat } from "./formats.js";
import { isObject } from "../json/json.js";
import type { Fusion, KeywordDefinition } from "../evaluate/keyword.js";

const CORE = "https://json-schema.org/draft/2020-12/vocab/core";

export interface Vocabulary {
  readonly uri: string;
  readonly keywords: readonly KeywordDefinition[];
  /** A vocabulary that turns `format` into an assertion when active. */
  readonly assertsFormat?: boolean;
  /** A host's (`vocabularies` option): its keywords may not share a name with another active vocabulary's. */
  readonly host?: boolean;
}

export interface DialectDefinition {
  /** The dialect's own meta-schema URI (no fragment). */
  readonly metaSchema: string;
  readonly vocabularies: readonly Vocabulary[];
  /** Vocabularies active when `$schema` is absent or names `metaSchema`. */
  readonly defaultVocabularies: readonly string[];
  /** Built-in documents (the meta-schemas), each with its `$id`. */
  readonly documents: readonly unknown[];
  /** Keywords that hold subschemas, for finding `$id`/`$anchor` (Core §9.2): how their values nest. */
  readonly subschemaKeywords: ReadonlyMap<string, "schema" | "array" | "map">;
  /** Dialect URIs that are recognised but deliberately not supported (older drafts). */
  readonly knownOtherDialects: readonly string[];
  /** Named boolean-path optimisations over sibling keywords, tried in order (keyword.ts, `Fusion`). */
  readonly fusions?: readonly Fusion[];
  /** The formats `format` knows (Validation §7.3), by name; a host's `formats` option adds to them. */
  readonly formats: ReadonlyMap<string, BuiltinFormat>;
}

/** The keyword set in force for one schema resource. */
export interface ActiveVocabularies {
  readonly metaSchema: string;
  readonly keywords: ReadonlyMap<string, KeywordDefinition>;
  readonly formatAssertion: boolean;
}

const standard = new WeakMap<DialectDefinition, ActiveVocabularies>();

/** The keyword set of the dialect's own meta-schema, built once per dialect. */
export function activateDefault(dialect: DialectDefinition): ActiveVocabularies {
  let active = standard.get(dialect);
  if (active === undefined)
    standard.set(dialect, (active = activate(dialect, dialect.metaSchema, dialect.defaultVocabularies)));
  return active;
}

/**
 * The keywords of the vocabularies listed. The dialect's own may share a keyword (`format` is in both format
 * vocabularies); a host vocabulary may not share one with any other active vocabulary: which definition would apply
 * is not for the engine to guess, so that is a compile error at `pointer`.
 */
function activate(
  dialect: DialectDefinition,
  metaSchema: string,
  vocabularyUris: readonly string[],
  pointer = "",
): ActiveVocabularies {
  const keywords = new Map<string, KeywordDefinition>();
  const from = new Map<string, Vocabulary>();
  let formatAssertion = false;
  for (const vocabulary of dialect.vocabularies) {
    if (!vocabularyUris.includes(vocabulary.uri)) continue;
    for (const k of vocabulary.keywords) {
      const other = from.get(k.keyword);
      if (other !== undefined && (other.host === true || vocabulary.host === true)) {
        const message =
          `meta-schema "${metaSchema}" activates the keyword "${k.keyword}" from two vocabularies, ` +
          `"${other.uri}" and "${vocabulary.uri}"`;
        throw invalid(message, pointer, "vocabulary_conflict");
      }
      keywords.set(k.keyword, k);
      from.set(k.keyword, vocabulary);
    }
    if (vocabulary.assertsFormat === true) formatAssertion = true;
  }
  return { metaSchema, keywords, formatAssertion };
}

/**
 * The keyword set a custom meta-schema selects through `$vocabulary` (Core §8.1.2): known
 * vocabularies are used, an unknown optional one is ignored, an unknown required one is unsupported.
 * Without `$vocabulary`, the dialect's default set applies. Core is always in force.
 */
export function vocabulariesOf(
  dialect: DialectDefinition,
  metaRoot: Record<string, unknown>,
  uri: string,
  pointer: string,
): ActiveVocabularies {
  const declared = metaRoot["$vocabulary"];
  if (declared === undefined) return activate(dialect, uri, dialect.defaultVocabularies);
  if (!isObject(declared))
    throw invalid(`meta-schema "${uri}" has a malformed "$vocabulary"`, pointer, "schema_invalid");
  const known = new Set(dialect.vocabularies.map((v) => v.uri));
  const use: string[] = [CORE];
  for (const vocabulary of Object.keys(declared)) {
    if (known.has(vocabulary)) use.push(vocabulary);
    else if (declared[vocabulary] === true) {
      throw unsupported(
        `meta-schema "${uri}" requires the unknown vocabulary "${vocabulary}"`,
        pointer,
        "vocabulary_unsupported",
      );
    }
  }
  return activate(dialect, uri, use, pointer);
}
