/** The options of `compile` (README "The engine"); checked fail closed by `options.ts`. */

import type { Limits } from "./limits.js";

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
  /** Any subset of the limits (README "Limits"); the rest keep their defaults. */
  limits?: Partial<Limits>;
  /** Retrieval URI of the root schema when it has no `$id` (default `urn:backplane-agent-runtime:schema`). */
  baseUri?: string;
}

/** The retrieval URI of a root schema without `$id` when no `baseUri` is given. */
export const DEFAULT_BASE_URI = "urn:backplane-agent-runtime:schema";
