/**
 * The index of schema resources (Core §9.2): every document a compile reaches is measured against the schema
 * limits, walked through its subschema positions only, and its resources (`$id`), anchors (`$anchor`,
 * `$dynamicAnchor`) and subschema locations recorded; each new resource is then checked against its meta-schema.
 */

import { activateDefault, type ActiveVocabularies, type DialectDefinition } from "./dialect.js";
import { invalid, LimitError } from "../errors.js";
import { checkJson, type JsonBounds } from "../json/host-json.js";
import { isObject } from "../json/json.js";
import { schemaBounds, type Limits } from "../limits.js";
import { appendPointer } from "../json/pointer.js";
import { Resource } from "./resources.js";
import type { Place, Places } from "./schema-places.js";
import { forEachSubschema } from "./subschemas.js";
import { resolveUri, splitFragment } from "../json/uri.js";

/** The limit behind each bound `measure` checks a document against. */
const SCHEMA_LIMITS = new Map<keyof JsonBounds, keyof Limits>([
  ["bytes", "maxSchemaBytes"],
  ["nodes", "maxSchemaNodes"],
  ["depth", "maxSchemaDepth"],
]);

/** Validates a document against a meta-schema; returns a problem or undefined. */
export type MetaCheck = (document: unknown, metaSchema: string) => { pointer: string; message: string } | undefined;

/** Selects the vocabularies of a `$schema` value found at a place. */
export type VocabularySelection = (declared: string, place: Place, pointer: string) => ActiveVocabularies;

export class ResourceIndex {
  /** Resources by absolute URI (without fragment). */
  readonly resources = new Map<string, Resource>();
  /** Every walked subschema object: its resource and its pointer within it. */
  private readonly locations = new Map<object, { resource: Resource; pointer: string }>();
  /** What the documents measured so far take of `maxSchemaBytes` and `maxSchemaNodes`. */
  private bytes = 0;
  private nodes = 0;
  private references = 0;

  constructor(
    private readonly dialect: DialectDefinition,
    private readonly limits: Readonly<Limits>,
    private readonly places: Places,
    private readonly selectVocabularies: VocabularySelection,
    private readonly metaCheck: MetaCheck | undefined,
    /** False only for the engine's own wrapper around a meta-schema, whose root needs no check. */
    private readonly checkRoot: boolean,
  ) {}

  /** Where a walked subschema object lives, if it was indexed. */
  locationOf(value: object): { resource: Resource; pointer: string } | undefined {
    return this.locations.get(value);
  }

  /** Indexes a document retrieved from `uri` and checks its new resources against their meta-schemas. */
  addDocument(doc: unknown, uri: string, isRoot: boolean): Resource {
    const builtIn = this.dialect.documents.includes(doc);
    if (!builtIn) this.measure(doc, uri);
    const before = new Set(this.resources.keys());
    const resource = this.walk(doc, null, uri, "", undefined);
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    if (builtIn || (isRoot && !this.checkRoot) || this.metaCheck === undefined) return resource;
    for (const [key, res] of this.resources) {
      if (before.has(key) || res.root === undefined || key !== res.uri) continue;
      if (res !== resource && res.vocabularies === resource.vocabularies) continue;
      const problem = this.metaCheck(res.root, res.vocabularies.metaSchema);
      if (problem !== undefined) {
        const where = this.places.where(res, problem.pointer);
        throw invalid(`schema is invalid at "${where}": ${problem.message}`, where, "schema_invalid");
      }
    }
    return resource;
  }

  /**
   * Measures a document as JSON data against the schema limits, every value of it counted
   * (docs/reference/limits.md "The limits"): the one walk that bounds its bytes, values and nesting, so the walks
   * after it (indexing, the meta-schema check, compiling) are bounded by what it accepted.
   */
  private measure(doc: unknown, uri: string): void {
    const { limits } = this;
    const bounds = schemaBounds(limits);
    const result = checkJson(
      doc,
      { ...bounds, bytes: bounds.bytes - this.bytes, nodes: bounds.nodes - this.nodes },
      this.dialect.subschemaKeywords,
    );
    if (result.ok) {
      this.bytes += result.measure.bytes;
      this.nodes += result.measure.nodes;
      return;
    }
    const document: Place = { uri, root: doc };
    const limit = result.bound === undefined ? undefined : SCHEMA_LIMITS.get(result.bound);
    if (limit !== undefined) {
      const schemaPointer = this.places.where(document, result.pointer);
      throw new LimitError(limit, limits[limit], { schemaPointer });
    }
    const message = `schema is not JSON at "${result.pointer}": ${result.message}`;
    throw this.places.error(document, result.pointer, message, "schema_not_json");
  }

  /**
   * Indexes resources and anchors, walking only subschema positions (within the depth and values `measure` accepted,
   * built-in meta-schemas aside). `pointer` is relative to `resource`, the enclosing resource (null at a document's
   * root, retrieved from `base`).
   */
  private walk(
    value: unknown,
    resource: Resource | null,
    base: string,
    pointer: string,
    vocab: ActiveVocabularies | undefined,
  ): Resource {
    const place: Place = resource ?? { uri: base, root: value };
    const schema = isObject(value) ? value : undefined;
    let res = resource;
    let ptr = pointer;
    const id = schema !== undefined && Object.hasOwn(schema, "$id") ? schema["$id"] : undefined;
    if (res === null || typeof id === "string") {
      let uri = base;
      if (typeof id === "string") {
        const [idBase, idFragment] = splitFragment(resolveUri(base, id));
        if (idFragment !== "")
          throw this.places.error(place, pointer + "/$id", `"$id" must not have a fragment: "${id}"`, "schema_invalid");
        uri = idBase;
      }
      const declared = schema !== undefined && Object.hasOwn(schema, "$schema") ? schema["$schema"] : undefined;
      const active =
        typeof declared === "string"
          ? this.selectVocabularies(declared, place, pointer)
          : (vocab ?? activateDefault(this.dialect));
      res = new Resource(uri, value, active);
      if (!this.resources.has(uri)) this.resources.set(uri, res);
      ptr = "";
      vocab = active;
    }
    if (schema === undefined) return res;
    if (!this.locations.has(schema)) this.locations.set(schema, { resource: res, pointer: ptr });
    const anchor = schema["$anchor"];
    if (typeof anchor === "string" && Object.hasOwn(schema, "$anchor")) res.addAnchor(anchor, ptr, false);
    const dynamic = schema["$dynamicAnchor"];
    if (typeof dynamic === "string" && Object.hasOwn(schema, "$dynamicAnchor")) res.addAnchor(dynamic, ptr, true);
    if (Object.hasOwn(schema, "$ref") || Object.hasOwn(schema, "$dynamicRef")) {
      if (++this.references > this.limits.maxReferences) {
        const schemaPointer = this.places.where(place, pointer);
        throw new LimitError("maxReferences", this.limits.maxReferences, { schemaPointer });
      }
    }
    const current = res;
    forEachSubschema(schema, this.dialect.subschemaKeywords, (child, keyword, member) => {
      const at =
        member === undefined ? appendPointer(ptr, keyword) : appendPointer(appendPointer(ptr, keyword), member);
      this.walk(child, current, current.uri, at, vocab);
    });
    return res;
  }
}
