/** The options of `compile` (docs/reference/options.md "compile"); checked fail closed by `options.ts`. */

import type { MessageRenderer } from "../output/error-text.js";
import type { Formats } from "./formats.js";
import type { VocabularyDefinition } from "./host-vocabularies.js";
import type { Limits } from "../limits.js";

/** Schemas by absolute URI (an object or a `Map`), resolved at compile time only; nothing is ever fetched. */
export type SchemaRegistry = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

/**
 * The options of `compile`. They fail closed: an unknown name or a malformed value throws a `SchemaError` of class
 * `validation`, code `options_invalid`.
 */
export interface CompileOptions {
  /** Schemas known by URI; nothing is ever fetched. An object or a Map. */
  schemaRegistry?: SchemaRegistry;
  /**
   * Explicit, synchronous loader called at compile time only, for URIs not in the registry: returns the schema or
   * `undefined`; a throw is a `validation` error `loader_failed`.
   */
  schemaLoader?: (uri: string) => unknown;
  /** `format` asserts (default: annotation only). */
  formatAssertion?: boolean;
  /** `contentEncoding`/`contentMediaType`/`contentSchema` assert (default: annotation only). */
  contentAssertion?: boolean;
  /** Any subset of the limits (docs/reference/limits.md); the rest keep their defaults. */
  limits?: Partial<Limits>;
  /** Retrieval URI of the root schema when it has no `$id` (default `urn:backplane-agent-runtime:schema`). */
  baseUri?: string;
  /**
   * Host formats by name (docs/guide/engine.md "Custom formats"): a string checker, or `{ check, types, override }`.
   * They assert where format assertion is on and annotate otherwise, like the built-in ones; replacing a built-in
   * format needs `override: true`. Read once, when compiling.
   */
  formats?: Formats;
  /**
   * Host vocabularies (docs/guide/engine.md "Custom keywords and vocabularies"): each a URI and its keyword
   * definitions, active only in schemas whose meta-schema lists the URI in `$vocabulary`. Read once, when compiling.
   */
  vocabularies?: readonly VocabularyDefinition[];
  /**
   * Refuse what the specification would ignore (default false): a keyword no active vocabulary defines, and, where
   * `format` asserts, a format no checker knows, are compile errors (`keyword_unknown`, `format_unknown`) with the
   * pointer and the likely intended name.
   */
  strictSchema?: boolean;
  /** Renders failing keywords' messages in the output (another language, another tone); see `MessageInput`. */
  messages?: MessageRenderer;
}

/** The retrieval URI of a root schema without `$id` when no `baseUri` is given. */
export const DEFAULT_BASE_URI = "urn:backplane-agent-runtime:schema";
