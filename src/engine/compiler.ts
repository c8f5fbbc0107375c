/**
 * The compiler: indexes schema documents (resources, anchors), resolves every reference at compile
 * time, checks each document against its meta-schema, and turns subschemas into `SchemaNode`s.
 * One `Compilation` serves one `compile` call and is dropped after it; only compiled regular
 * expressions are shared between compilations (immutable to their callers).
 */

import { Context } from "./compile-context.js";
import { activateDefault, vocabulariesOf, type ActiveVocabularies, type DialectDefinition } from "./dialect.js";
import { LimitError, invalid, unsupported, type SchemaError } from "./errors.js";
import { checkJson } from "./host-json.js";
import { isObject } from "./json.js";
import { annotation, type Evaluator, type KeywordDefinition } from "./keyword.js";
import type { Limits } from "./limits.js";
import { SchemaNode } from "./node.js";
import { appendPointer, decodeFragment, getAt, parsePointer, pointerToFragment } from "./pointer.js";
import { Resource, type Location } from "./resources.js";
import { embeddedIds, forEachSubschema } from "./subschemas.js";
import { hasScheme, resolveUri, splitFragment } from "./uri.js";
import { compilePattern, RegexSyntaxError, type CompiledPattern } from "./regex/index.js";

export type SchemaRegistry = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

export interface CompileOptions {
  /** Schemas known by URI; nothing is ever fetched. An object or a Map. */
  schemaRegistry?: SchemaRegistry;
  /** Explicit, synchronous loader called at compile time only, for URIs not in the registry. */
  schemaLoader?: (uri: string) => unknown;
  /** `format` asserts (default: annotation only). */
  formatAssertion?: boolean;
  /** `contentEncoding`/`contentMediaType`/`contentSchema` assert (default: annotation only). */
  contentAssertion?: boolean;
  limits?: Partial<Limits>;
  /** Retrieval URI of the root schema when it has no `$id`. */
  baseUri?: string;
}

/** Validates a document against a meta-schema; returns a problem or undefined. */
export type MetaCheck = (document: unknown, metaSchema: string) => { pointer: string; message: string } | undefined;

/**
 * Compiled patterns shared across compilations (catalogs repeat the same few patterns): written at
 * compile time only, bounded (oldest first out); a compiled pattern is immutable to its callers.
 */
const sharedPatterns = new Map<string, CompiledPattern>();
const SHARED_PATTERNS = 1_000;

export const DEFAULT_BASE_URI = "urn:backplane-agent-runtime:schema";

/** A schema resource, or a document not yet indexed: where compile errors inside it are located. */
interface Place {
  readonly uri: string;
  readonly root: unknown;
}

/** Until the root schema is known, no value is the root. */
const NO_ROOT = Symbol("no root");

export class Compilation {
  readonly resources = new Map<string, Resource>();
  private readonly locations = new Map<object, { resource: Resource; pointer: string }>();
  private readonly nodes = new Map<string, SchemaNode>();
  private readonly registry = new Map<string, unknown>();
  /** Registry documents no reference has reached yet: only their embedded `$id`s are known (README "The engine"). */
  private readonly pendingRegistry = new Set<string>();
  /** `$id`s embedded in pending registry documents → the registry key of their document; built when first needed. */
  private embedded: Map<string, string> | undefined;
  private rootSchema: unknown = NO_ROOT;
  private readonly dialectCache = new Map<string, ActiveVocabularies>();
  private readonly dialectsInProgress = new Set<string>();
  private readonly patterns = new Map<string, CompiledPattern>();
  private bytes = 0;
  private schemaNodes = 0;
  private references = 0;
  usesDynamicScope = false;

  constructor(
    readonly dialect: DialectDefinition,
    readonly options: CompileOptions,
    readonly limits: Readonly<Limits>,
    private readonly metaCheck: MetaCheck | undefined,
    /** False only for the engine's own wrapper around a meta-schema. */
    private readonly checkRoot = true,
  ) {
    for (const doc of dialect.documents) {
      const id = (doc as { $id: string }).$id;
      this.registry.set(id, doc);
    }
    const reg = options.schemaRegistry;
    if (reg !== undefined) {
      const entries =
        reg instanceof Map
          ? [...reg.entries()]
          : Object.keys(reg).map((k) => [k, (reg as Record<string, unknown>)[k]] as const);
      // Keys are absolute URIs, optionally with an empty fragment (the options check accepted them).
      for (const [uri, doc] of entries) {
        const key = uri.endsWith("#") ? uri.slice(0, -1) : uri;
        this.registry.set(key, doc);
        this.pendingRegistry.add(key);
      }
    }
  }

  /** Where a walked subschema object lives (its resource and pointer), if it was indexed. */
  knownLocation(value: object): { resource: Resource; pointer: string } | undefined {
    return this.locations.get(value);
  }

  /** Indexes the root document and returns its location. */
  addRoot(schema: unknown): Location {
    const base = this.options.baseUri ?? DEFAULT_BASE_URI;
    this.rootSchema = schema;
    const resource = this.addDocument(schema, base, true);
    return { resource, pointer: "", value: schema };
  }

  /** Compiles the schema at a location (once; recursive references share the node). */
  node(loc: Location): SchemaNode {
    const absolute = loc.resource.uri + "#" + pointerToFragment(loc.pointer);
    const cached = this.nodes.get(absolute);
    if (cached !== undefined) return cached;
    const value = loc.value;
    if (typeof value !== "boolean" && !isObject(value)) {
      const message = `the value at "${absolute}" is not a schema (an object or a boolean)`;
      throw this.error(loc.resource, loc.pointer, message, "schema_invalid");
    }
    const node = new SchemaNode(absolute, loc.resource, typeof value === "boolean" ? value : undefined);
    this.nodes.set(absolute, node);
    this.compileDynamicAnchors(loc.resource);
    if (typeof value === "boolean") return node;
    const ctx = new Context(this, loc, value);
    // Evaluation order: assertions, then applicators, then unevaluated* (which read what the others marked).
    const phases: Evaluator[][] = [[], [], []];
    let tracks = false;
    for (const keyword of Object.keys(value)) {
      const def: KeywordDefinition | undefined = loc.resource.vocabularies.keywords.get(keyword);
      const ev = def !== undefined ? def.compile(value[keyword], ctx) : unknownKeyword(keyword, value[keyword]);
      if (ev === undefined) continue;
      (phases[def?.phase ?? 0] as Evaluator[]).push(ev);
      if (def?.readsMarks === true) tracks = true;
    }
    node.setEvaluators((phases[0] as Evaluator[]).concat(phases[1] as Evaluator[], phases[2] as Evaluator[]), tracks);
    return node;
  }

  /** Resolves a reference found in `from` to the location of its target (Core §8.2.3). */
  resolve(ref: string, from: Resource, pointer: string): Location {
    const absolute = resolveUri(from.uri, ref);
    const [base, rawFragment] = splitFragment(absolute);
    const resource = this.resourceFor(base, from, pointer);
    if (resource === undefined) {
      const message =
        `cannot resolve reference "${ref}": "${base}" is not a known schema ` + "(nothing is fetched; register it)";
      throw this.error(from, pointer, message, "ref_unresolved");
    }
    const fragment = decodeFragment(rawFragment);
    if (fragment === undefined)
      throw this.error(from, pointer, `reference "${ref}" has a malformed percent-encoding`, "ref_invalid");
    if (fragment === "") return { resource, pointer: "", value: resource.root };
    if (fragment.startsWith("/")) {
      const tokens = parsePointer(fragment);
      if (tokens === undefined)
        throw this.error(from, pointer, `reference "${ref}" has a malformed JSON Pointer`, "ref_invalid");
      return this.follow(resource, tokens, () =>
        this.error(from, pointer, `cannot resolve reference "${ref}": no value at that pointer`, "ref_unresolved"),
      );
    }
    const anchored = resource.anchors.get(fragment);
    if (anchored === undefined) {
      const message = `cannot resolve reference "${ref}": no anchor "${fragment}" in "${base}"`;
      throw this.error(from, pointer, message, "ref_unresolved");
    }
    return { resource, pointer: anchored, value: getAt(resource.root, parsePointer(anchored) ?? [])?.value };
  }

  /** Walks a JSON Pointer from a resource root; entering an embedded resource switches the base. */
  private follow(resource: Resource, tokens: string[], missing: () => SchemaError): Location {
    let current: unknown = resource.root;
    let res = resource;
    let ptr = "";
    for (const token of tokens) {
      const found = getAt(current, [token]);
      if (found === undefined) throw missing();
      current = found.value;
      ptr = appendPointer(ptr, token);
      const known = typeof current === "object" && current !== null ? this.locations.get(current) : undefined;
      if (known !== undefined) ({ resource: res, pointer: ptr } = known);
    }
    return { resource: res, pointer: ptr, value: current };
  }

  /**
   * The resource at an absolute URI: one already indexed, a registry document (by its key, or by an `$id`
   * embedded in it), or what the loader returns. Only the document reached is indexed and checked, so a
   * registry document no reference leads to never changes the outcome (README "The engine").
   */
  private resourceFor(base: string, from: Place, at: string): Resource | undefined {
    const known = this.resources.get(base);
    if (known !== undefined) return known;
    if (this.registry.has(base)) return this.addRegistered(base);
    const holder = this.embeddingDocument(base);
    if (holder !== undefined) {
      this.addRegistered(holder);
      const found = this.resources.get(base);
      if (found !== undefined) return found;
    }
    const loader = this.options.schemaLoader;
    if (loader === undefined) return undefined;
    let loaded: unknown;
    try {
      loaded = loader(base);
    } catch (e) {
      const message = `schemaLoader failed for "${base}": ${e instanceof Error ? e.message : String(e)}`;
      throw this.error(from, at, message, "loader_failed");
    }
    if (loaded === undefined) return undefined;
    this.registry.set(base, loaded);
    return this.addDocument(loaded, base, false);
  }

  private addRegistered(key: string): Resource {
    this.pendingRegistry.delete(key);
    return this.addDocument(this.registry.get(key), key, false);
  }

  /** The key of the pending registry document that embeds a resource with this URI, if any. */
  private embeddingDocument(uri: string): string | undefined {
    if (this.embedded === undefined) {
      this.embedded = new Map();
      for (const key of this.pendingRegistry) {
        for (const id of embeddedIds(this.registry.get(key), key, this.dialect.subschemaKeywords))
          if (!this.embedded.has(id)) this.embedded.set(id, key);
      }
    }
    const key = this.embedded.get(uri);
    return key !== undefined && this.pendingRegistry.has(key) ? key : undefined;
  }

  /** Where a compile error is (README "Errors"): a JSON Pointer in the root resource, `uri#pointer` elsewhere. */
  private where(place: Place, pointer: string): string {
    return place.root === this.rootSchema ? pointer : `${place.uri}#${pointerToFragment(pointer)}`;
  }

  /** A compile error at a place; outside the root resource the message names that resource's URI. */
  error(place: Place, pointer: string, message: string, code: string, make = invalid): SchemaError {
    const where = this.where(place, pointer);
    return make(where === pointer ? message : `${message} (in "${place.uri}")`, where, code);
  }

  private addDocument(doc: unknown, uri: string, isRoot: boolean): Resource {
    const builtIn = this.dialect.documents.includes(doc);
    if (!builtIn) this.measure(doc, uri);
    const before = new Set(this.resources.keys());
    const resource = this.walk(doc, null, uri, "", 0, undefined);
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    if (!builtIn && (this.checkRoot || !isRoot) && this.metaCheck !== undefined) {
      for (const [key, res] of this.resources) {
        if (before.has(key) || res.root === undefined || key !== res.uri) continue;
        if (res !== resource && res.vocabularies === resource.vocabularies) continue;
        const problem = this.metaCheck(res.root, res.vocabularies.metaSchema);
        if (problem !== undefined) {
          const where = this.where(res, problem.pointer);
          throw invalid(`schema is invalid at "${where}": ${problem.message}`, where, "schema_invalid");
        }
      }
    }
    return resource;
  }

  private measure(doc: unknown, uri: string): void {
    const result = checkJson(doc, { bytes: this.limits.maxSchemaBytes - this.bytes });
    if (!result.ok) {
      const document: Place = { uri, root: doc };
      if (result.bound === "bytes") {
        const schemaPointer = this.where(document, result.pointer);
        throw new LimitError("maxSchemaBytes", this.limits.maxSchemaBytes, { schemaPointer });
      }
      const message = `schema is not JSON at "${result.pointer}": ${result.message}`;
      throw this.error(document, result.pointer, message, "schema_not_json");
    }
    this.bytes += result.measure.bytes;
  }

  /**
   * Indexes resources and anchors (Core §9.2), walking only subschema positions. `pointer` is relative to
   * `resource`, the enclosing resource (null at a document's root, retrieved from `base`).
   */
  private walk(
    value: unknown,
    resource: Resource | null,
    base: string,
    pointer: string,
    depth: number,
    vocab: ActiveVocabularies | undefined,
  ): Resource {
    const place: Place = resource ?? { uri: base, root: value };
    if (depth > this.limits.maxSchemaDepth) {
      const schemaPointer = this.where(place, pointer);
      throw new LimitError("maxSchemaDepth", this.limits.maxSchemaDepth, { schemaPointer });
    }
    if (++this.schemaNodes > this.limits.maxSchemaNodes) {
      const schemaPointer = this.where(place, pointer);
      throw new LimitError("maxSchemaNodes", this.limits.maxSchemaNodes, { schemaPointer });
    }
    const schema = isObject(value) ? value : undefined;
    let res = resource;
    let ptr = pointer;
    const id = schema?.["$id"];
    if (res === null || (typeof id === "string" && schema !== undefined && Object.hasOwn(schema, "$id"))) {
      let uri = base;
      if (typeof id === "string" && schema !== undefined && Object.hasOwn(schema, "$id")) {
        const [idBase, idFragment] = splitFragment(resolveUri(base, id));
        if (idFragment !== "")
          throw this.error(place, pointer + "/$id", `"$id" must not have a fragment: "${id}"`, "schema_invalid");
        uri = idBase;
      }
      const declared = schema !== undefined && Object.hasOwn(schema, "$schema") ? schema["$schema"] : undefined;
      const active =
        typeof declared === "string"
          ? this.vocabulariesFor(declared, place, pointer)
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
        const schemaPointer = this.where(place, pointer);
        throw new LimitError("maxReferences", this.limits.maxReferences, { schemaPointer });
      }
    }
    const current = res;
    forEachSubschema(schema, this.dialect.subschemaKeywords, (child, keyword, member) => {
      const at =
        member === undefined ? appendPointer(ptr, keyword) : appendPointer(appendPointer(ptr, keyword), member);
      this.walk(child, current, current.uri, at, depth + 1, vocab);
    });
    return res;
  }

  /** The vocabularies a `$schema` value selects (Core §8.1.2); other dialects are unsupported. */
  private vocabulariesFor(declared: string, place: Place, pointer: string): ActiveVocabularies {
    const [uri, fragment] = splitFragment(declared);
    const cached = this.dialectCache.get(uri);
    if (cached !== undefined && fragment === "") return cached;
    const refuse = (message: string): SchemaError =>
      this.error(place, pointer, message, "dialect_unsupported", unsupported);
    if (fragment !== "") throw refuse(`"$schema" "${declared}" is not a supported dialect`);
    let active: ActiveVocabularies;
    if (uri === this.dialect.metaSchema) {
      active = activateDefault(this.dialect);
    } else {
      if (this.dialect.knownOtherDialects.includes(uri) || !hasScheme(uri))
        throw refuse(`dialect "${declared}" is not supported; only "${this.dialect.metaSchema}" is`);
      if (this.dialectsInProgress.has(uri)) throw refuse(`meta-schema "${uri}" refers to itself as its dialect`);
      this.dialectsInProgress.add(uri);
      const meta = this.resourceFor(uri, place, pointer);
      if (meta === undefined || !isObject(meta.root))
        throw refuse(`dialect "${declared}" is not supported: no such meta-schema is registered`);
      active = vocabulariesOf(this.dialect, meta.root, uri, this.where(place, pointer));
      this.dialectsInProgress.delete(uri);
    }
    this.dialectCache.set(uri, active);
    return active;
  }

  private compileDynamicAnchors(resource: Resource): void {
    if (resource.anchorsCompiled) return;
    resource.anchorsCompiled = true;
    for (const [name, pointer] of resource.dynamicAnchorPointers) {
      const value = getAt(resource.root, parsePointer(pointer) ?? [])?.value;
      resource.addDynamicAnchor(name, this.node({ resource, pointer, value }));
    }
  }

  pattern(source: string, place: Place, at: string): CompiledPattern {
    const key = `${this.limits.maxRegexSteps}:${source}`;
    const cached = this.patterns.get(source) ?? sharedPatterns.get(key);
    if (cached !== undefined) {
      this.patterns.set(source, cached);
      return cached;
    }
    let compiled: CompiledPattern;
    try {
      compiled = compilePattern(source, { maxSteps: this.limits.maxRegexSteps });
    } catch (e) {
      if (e instanceof RegexSyntaxError) {
        const message = `invalid regular expression ${JSON.stringify(source)}: ${e.message}`;
        throw this.error(place, at, message, "pattern_invalid");
      }
      throw e;
    }
    this.patterns.set(source, compiled);
    if (sharedPatterns.size >= SHARED_PATTERNS) sharedPatterns.delete(sharedPatterns.keys().next().value as string);
    sharedPatterns.set(key, compiled);
    return compiled;
  }
}

/** Keywords no active vocabulary defines are collected as annotations (Core §7.7.1, §8.1.2). */
function unknownKeyword(keyword: string, value: unknown): Evaluator {
  return annotation(keyword, value);
}
