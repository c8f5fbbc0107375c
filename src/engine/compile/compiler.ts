/**
 * One `compile` call: takes documents from their sources (registry.ts), indexes them (resource-index.ts), selects
 * each resource's vocabularies (dialect-selection.ts), resolves every reference at compile time (resolve.ts), and
 * turns each reachable subschema into a `SchemaNode` whose keywords the active vocabularies compile. A
 * `Compilation` is dropped after its call; only compiled patterns are shared (patterns.ts).
 */

import type { CompilerServices } from "./compile-context.js";
import { Context } from "./compile-context.js";
import { DEFAULT_BASE_URI, type CompileOptions } from "./compile-options.js";
import { DialectSelector } from "./dialect-selection.js";
import type { DialectDefinition } from "./dialect.js";
import { LimitError, type EngineCode, type SchemaError } from "../errors.js";
import type { ResolvedFormat } from "../evaluate/keyword.js";
import { isHostDefinition } from "./host-vocabularies.js";
import { isObject } from "../json/json.js";
import { annotation, type BooleanStep, type Evaluator, type KeywordDefinition } from "../evaluate/keyword.js";
import type { Limits } from "../limits.js";
import { SchemaNode, type BooleanPlan } from "../evaluate/node.js";
import { nearMiss } from "./names.js";
import { sharedPattern } from "./patterns.js";
import { appendPointer, getAt, parsePointer, pointerToFragment } from "../json/pointer.js";
import { RegexSyntaxError, type CompiledPattern } from "../regex/index.js";
import { ResourceIndex, type MetaCheck } from "./resource-index.js";
import { resolveReference } from "./resolve.js";
import type { Location, Resource } from "./resources.js";
import { Places, type Place } from "./schema-places.js";
import { SchemaSources } from "./registry.js";

/** Program instructions all the distinct patterns of one compilation may take together (docs/reference/limits.md). */
const MAX_PROGRAM_INSTRUCTIONS = 1_000_000;

export class Compilation implements CompilerServices {
  readonly places = new Places();
  private readonly sources: SchemaSources;
  private readonly index: ResourceIndex;
  private readonly nodes = new Map<string, SchemaNode>();
  private readonly patterns = new Map<string, CompiledPattern>();
  private programInstructions = 0;
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  readonly strictSchema: boolean;
  /** Whether a `$dynamicRef` with a bookend was compiled: evaluation then tracks the dynamic scope. */
  usesDynamicScope = false;

  constructor(
    /** The dialect with the host's vocabularies, if any (host-vocabularies.ts). */
    private readonly dialect: DialectDefinition,
    private readonly options: CompileOptions,
    readonly limits: Readonly<Limits>,
    /** The built-in formats with the host's (formats.ts). */
    readonly formats: ReadonlyMap<string, ResolvedFormat>,
    metaCheck: MetaCheck | undefined,
    /** False only for the engine's own wrapper around a meta-schema. */
    checkRoot = true,
  ) {
    this.formatAssertion = options.formatAssertion === true;
    this.contentAssertion = options.contentAssertion === true;
    this.strictSchema = options.strictSchema === true;
    this.sources = new SchemaSources(
      dialect.documents,
      options.schemaRegistry,
      options.schemaLoader,
      dialect.subschemaKeywords,
    );
    const selector = new DialectSelector(dialect, this.places, (uri, from, pointer) => {
      return this.resourceFor(uri, from, pointer)?.root;
    });
    this.index = new ResourceIndex(
      dialect,
      limits,
      this.places,
      (declared, place, pointer) => selector.select(declared, place, pointer),
      metaCheck,
      checkRoot,
    );
  }

  /** Indexes the root document and returns its location. */
  addRoot(schema: unknown): Location {
    this.places.setRoot(schema);
    const resource = this.index.addDocument(schema, this.options.baseUri ?? DEFAULT_BASE_URI, true);
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
      throw this.places.error(loc.resource, loc.pointer, message, "schema_invalid");
    }
    const node = new SchemaNode(absolute, loc.resource, typeof value === "boolean" ? value : undefined);
    this.nodes.set(absolute, node);
    this.compileDynamicAnchors(loc.resource);
    if (typeof value === "boolean") return node;
    const ctx = new Context(this, loc, value);
    const keywords = loc.resource.vocabularies.keywords;
    // Evaluation order: assertions, then applicators, then unevaluated* (which read what the others marked).
    const phases: Evaluator[][] = [[], [], []];
    const readers: Evaluator[] = [];
    for (const keyword of Object.keys(value)) {
      const def: KeywordDefinition | undefined = keywords.get(keyword);
      if (def === undefined && this.strictSchema) this.refuseUnknown(keyword, loc);
      const ev = def !== undefined ? def.compile(value[keyword], ctx) : unknownKeyword(keyword, value[keyword]);
      if (ev === undefined) continue;
      (phases[def?.phase ?? 0] as Evaluator[]).push(ev);
      if (def?.readsMarks === true) readers.push(ev);
    }
    const evaluators = (phases[0] as Evaluator[]).concat(phases[1] as Evaluator[], phases[2] as Evaluator[]);
    // A reader of marks that can settle at compile time what the others evaluate reads none on the boolean path.
    const settled = readers.filter((ev) => ev.settle?.(evaluators.filter((e) => e !== ev)) === true);
    node.setEvaluators(
      evaluators,
      this.booleanPlan(evaluators, ctx, keywords),
      readers.length > 0,
      settled.length < readers.length,
    );
    return node;
  }

  /**
   * `strictSchema`: a keyword no active vocabulary defines is a compile error at its pointer, with the active keyword
   * it most likely misspells, or the vocabulary that would define it when the meta-schema leaves that one out.
   */
  private refuseUnknown(keyword: string, loc: Location): never {
    const active = loc.resource.vocabularies;
    const elsewhere = this.dialect.vocabularies.find((v) => v.keywords.some((k) => k.keyword === keyword));
    let message = `unknown keyword ${JSON.stringify(keyword)}`;
    if (elsewhere !== undefined)
      message += `: its vocabulary "${elsewhere.uri}" is not active under "${active.metaSchema}"`;
    else {
      const guess = nearMiss(keyword, active.keywords.keys());
      if (guess !== undefined) message += ` (did you mean ${JSON.stringify(guess)}?)`;
    }
    message += "; strictSchema refuses keywords that would be ignored";
    throw this.places.error(loc.resource, appendPointer(loc.pointer, keyword), message, "keyword_unknown");
  }

  /** The boolean path of a node: its `type` mask, its predicates, and its applicators with fusions in their place. */
  private booleanPlan(
    evaluators: readonly Evaluator[],
    ctx: Context,
    keywords: ReadonlyMap<string, KeywordDefinition>,
  ): BooleanPlan {
    let typeMask = 0;
    const predicates: Evaluator[] = [];
    const steps: BooleanStep[] = [];
    const fused = new Set<string>();
    for (const fusion of this.dialect.fusions ?? []) {
      if (fusion.keywords.some((k) => fused.has(k))) continue;
      // A fusion does the dialect's keywords' work: never where a host vocabulary defines one of them.
      if (
        fusion.keywords.some((k) => {
          const def = keywords.get(k);
          return def !== undefined && isHostDefinition(def);
        })
      )
        continue;
      const step = fusion.compile(ctx);
      if (step === undefined) continue;
      for (const k of fusion.keywords) fused.add(k);
      steps.push(step);
    }
    for (const ev of evaluators) {
      if (ev.kind === "annotation" || fused.has(ev.keyword)) continue;
      if (ev.typeMask !== undefined) typeMask = ev.typeMask;
      else if (ev.kind === "assertion") predicates.push(ev);
      else steps.push(ev);
    }
    return { typeMask, predicates, steps };
  }

  resolve(ref: string, from: Resource, pointer: string): Location {
    return resolveReference(ref, from, pointer, this);
  }

  locationOf(value: object): { resource: Resource; pointer: string } | undefined {
    return this.index.locationOf(value);
  }

  /**
   * The resource at an absolute URI: one already indexed, a registry document (by its key, or by an `$id`
   * embedded in it), or what the loader returns. Only the document reached is indexed and checked.
   */
  resourceFor(base: string, from: Place, at: string): Resource | undefined {
    const known = this.index.resources.get(base);
    if (known !== undefined) return known;
    const registered = this.sources.take(base);
    if (registered !== undefined) {
      const resource = this.index.addDocument(registered.document, registered.key, false);
      return registered.key === base ? resource : this.index.resources.get(base);
    }
    const loaded = this.sources.load(base);
    if (loaded === undefined) return undefined;
    if (!loaded.ok) {
      throw this.places.error(from, at, `schemaLoader failed for "${base}": ${loaded.failure}`, "loader_failed");
    }
    return this.index.addDocument(loaded.document, base, false);
  }

  error(from: Resource, pointer: string, message: string, code: EngineCode): SchemaError {
    return this.places.error(from, pointer, message, code);
  }

  useDynamicScope(): void {
    this.usesDynamicScope = true;
  }

  private compileDynamicAnchors(resource: Resource): void {
    if (resource.anchorsCompiled) return;
    resource.anchorsCompiled = true;
    for (const [name, pointer] of resource.dynamicAnchorPointers) {
      const value = getAt(resource.root, parsePointer(pointer) ?? [])?.value;
      resource.addDynamicAnchor(name, this.node({ resource, pointer, value }));
    }
  }

  pattern(source: string, from: Resource, at: string): CompiledPattern {
    let compiled = this.patterns.get(source);
    if (compiled !== undefined) return compiled;
    try {
      compiled = sharedPattern(source);
    } catch (e) {
      // A pattern past a bound of the regex engine (maxRegexProgramSize, maxRegexNesting): located at the pattern.
      if (e instanceof LimitError) {
        throw new LimitError(e.limit, e.value, { schemaPointer: this.places.where(from, at) });
      }
      if (!(e instanceof RegexSyntaxError)) throw e;
      const message = `invalid regular expression ${JSON.stringify(source)}: ${e.message}`;
      throw this.places.error(from, at, message, "pattern_invalid");
    }
    // Each pattern's program is bounded; so are all of one schema's together (its memory is the schema's).
    if ((this.programInstructions += compiled.programSize) > MAX_PROGRAM_INSTRUCTIONS) {
      const schemaPointer = this.places.where(from, at);
      throw new LimitError("maxRegexProgramTotal", MAX_PROGRAM_INSTRUCTIONS, { schemaPointer });
    }
    this.patterns.set(source, compiled);
    return compiled;
  }
}

/** Keywords no active vocabulary defines are collected as annotations (Core §7.7.1, §8.1.2). */
function unknownKeyword(keyword: string, value: unknown): Evaluator {
  return annotation(keyword, value);
}
