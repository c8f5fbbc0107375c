/**
 * The vocabularies a `$schema` value selects (Core §8.1.2): the dialect's own meta-schema, or a custom meta-schema
 * from the registry or loader whose `$vocabulary` picks among the known vocabularies. Other drafts and unknown
 * dialects are `unsupported_capability`, never reinterpreted.
 */

import { activateDefault, vocabulariesOf, type ActiveVocabularies, type DialectDefinition } from "./dialect.js";
import { unsupported, type SchemaError } from "../errors.js";
import { isObject } from "../json/json.js";
import type { Place, Places } from "./schema-places.js";
import { hasScheme, splitFragment } from "../json/uri.js";

/** Finds the root of a meta-schema document by URI (indexing it), or undefined when none is known. */
export type MetaSchemaLookup = (uri: string, from: Place, pointer: string) => unknown;

export class DialectSelector {
  private readonly cache = new Map<string, ActiveVocabularies>();
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly dialect: DialectDefinition,
    private readonly places: Places,
    private readonly metaSchema: MetaSchemaLookup,
  ) {}

  select(declared: string, place: Place, pointer: string): ActiveVocabularies {
    const [uri, fragment] = splitFragment(declared);
    const cached = this.cache.get(uri);
    if (cached !== undefined && fragment === "") return cached;
    const refuse = (message: string): SchemaError =>
      this.places.error(place, pointer, message, "dialect_unsupported", unsupported);
    if (fragment !== "") throw refuse(`"$schema" "${declared}" is not a supported dialect`);
    let active: ActiveVocabularies;
    if (uri === this.dialect.metaSchema) {
      active = activateDefault(this.dialect);
    } else {
      if (this.dialect.knownOtherDialects.includes(uri) || !hasScheme(uri))
        throw refuse(`dialect "${declared}" is not supported; only "${this.dialect.metaSchema}" is`);
      if (this.inProgress.has(uri)) throw refuse(`meta-schema "${uri}" refers to itself as its dialect`);
      this.inProgress.add(uri);
      const root = this.metaSchema(uri, place, pointer);
      if (!isObject(root)) throw refuse(`dialect "${declared}" is not supported: no such meta-schema is registered`);
      active = vocabulariesOf(this.dialect, root, uri, this.places.where(place, pointer));
      this.inProgress.delete(uri);
    }
    this.cache.set(uri, active);
    return active;
  }
}
