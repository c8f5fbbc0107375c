/**
 * Where documents come from (docs/guide/engine.md "What it does"): the dialect's built-in meta-schemas, the host's
 * `schemaRegistry` and its `schemaLoader`. Nothing is fetched. A registry document matters only when a reference
 * reaches it, by its key or by an `$id` embedded in it, so a document no reference leads to never changes a
 * compile's outcome.
 */

import { errorMessage } from "../errors.js";
import type { SchemaRegistry } from "./compile-options.js";
import type { SubschemaPositions } from "../json/host-json.js";
import { embeddedIds } from "./subschemas.js";

/** What the loader gave for a URI: a document, nothing, or why it failed. */
export type Loaded = { ok: true; document: unknown } | { ok: false; failure: string } | undefined;

export class SchemaSources {
  private readonly documents = new Map<string, unknown>();
  /** Registry documents no reference has reached yet: only their embedded `$id`s are known. */
  private readonly pending = new Set<string>();
  /** `$id`s embedded in pending registry documents → the key of their document; built when first needed. */
  private embedded: Map<string, string> | undefined;

  constructor(
    builtIn: readonly unknown[],
    registry: SchemaRegistry | undefined,
    private readonly loader: ((uri: string) => unknown) | undefined,
    private readonly positions: SubschemaPositions,
  ) {
    for (const doc of builtIn) this.documents.set((doc as { $id: string }).$id, doc);
    if (registry === undefined) return;
    const entries =
      registry instanceof Map
        ? [...registry.entries()]
        : Object.keys(registry).map((k) => [k, (registry as Record<string, unknown>)[k]] as const);
    // Keys are absolute URIs, optionally with an empty fragment (the options check accepted them).
    for (const [uri, doc] of entries) {
      const key = uri.endsWith("#") ? uri.slice(0, -1) : uri;
      this.documents.set(key, doc);
      this.pending.add(key);
    }
  }

  /**
   * The registry (or built-in) document that holds the resource `uri`: the one registered under it, else a pending
   * one that embeds it. The document found is no longer pending: its caller indexes and checks it.
   */
  take(uri: string): { key: string; document: unknown } | undefined {
    const key = this.documents.has(uri) ? uri : this.embeddingDocument(uri);
    if (key === undefined) return undefined;
    this.pending.delete(key);
    return { key, document: this.documents.get(key) };
  }

  /** Asks the loader for `uri`; a throw is reported as a failure, never let out. */
  load(uri: string): Loaded {
    if (this.loader === undefined) return undefined;
    let document: unknown;
    try {
      document = this.loader(uri);
    } catch (e) {
      return { ok: false, failure: errorMessage(e) };
    }
    if (document === undefined) return undefined;
    // Compiling is synchronous: an async loader's Promise (or any thenable) is a mistake to name, not a schema.
    if (isThenable(document))
      return {
        ok: false,
        failure:
          "it returned a Promise; schemaLoader must be synchronous (load the schemas first and return them, or " +
          "pass them in schemaRegistry)",
      };
    this.documents.set(uri, document);
    return { ok: true, document };
  }

  private embeddingDocument(uri: string): string | undefined {
    if (this.embedded === undefined) {
      this.embedded = new Map();
      for (const key of this.pending) {
        for (const id of embeddedIds(this.documents.get(key), key, this.positions))
          if (!this.embedded.has(id)) this.embedded.set(id, key);
      }
    }
    const key = this.embedded.get(uri);
    return key !== undefined && this.pending.has(key) ? key : undefined;
  }
}

/** Whether a value has a callable `then` (a Promise or another thenable); reading it may throw, which says no. */
function isThenable(value: unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false;
  }
}
