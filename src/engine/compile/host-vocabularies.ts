/**
 * Host vocabularies (Core §8.1.2): a host registers a vocabulary URI with its keyword definitions (the public keyword
 * protocol, keyword.ts); a custom meta-schema that lists the URI in `$vocabulary` activates it, and nothing else
 * does. The definitions are read once and wrapped, so that host code fails closed: a compile or an evaluation that
 * throws, or answers out of the protocol, is an `execution_failure` (`keyword_failed`), never a verdict. A host
 * keyword is charged like any keyword and evaluated on both paths; the fusions of the dialect never stand in for it.
 */

import type { DialectDefinition, Vocabulary } from "./dialect.js";
import { answerKind, errorMessage, hostFailure, SchemaError } from "../errors.js";
import { isPlainObject, preview } from "../json/json.js";
import type { CompileContext, Evaluator, KeywordDefinition } from "../evaluate/keyword.js";
import type { Marks } from "../evaluate/marks.js";
import { unknownName } from "./names.js";
import type { KeywordResult } from "../output/output.js";
import type { Run } from "../evaluate/run.js";
import { hasScheme } from "../json/uri.js";
import { frozenCopy, INSTANCE_BOUNDS, SCHEMA_BOUNDS } from "../json/frozen-copy.js";
import type { Limits } from "../limits.js";

/** A vocabulary of the host: its URI, as a custom meta-schema's `$vocabulary` names it, and its keywords. */
export interface VocabularyDefinition {
  /** An absolute URI that is not one of the dialect's own vocabularies. */
  readonly uri: string;
  /** Its keywords: names not beginning with `$` (Core §8: reserved for the core vocabulary), each defined once. */
  readonly keywords: readonly KeywordDefinition[];
}

const VOCABULARY_FIELDS = ["uri", "keywords"];
const DEFINITION_FIELDS = ["keyword", "compile", "phase", "subschemas"];
const SUBSCHEMA_SHAPES = ["schema", "array", "map"];

/** What is wrong with one keyword definition, or undefined. */
function definitionProblem(def: unknown, where: string): string | undefined {
  if (!isPlainObject(def)) return `${where} is ${preview(def)}, not a keyword definition { keyword, compile }`;
  for (const field of Object.keys(def))
    if (!DEFINITION_FIELDS.includes(field))
      return `${where} has an ${unknownName("keyword definition", "field", field, DEFINITION_FIELDS)}`;
  const { keyword, compile, phase, subschemas } = def;
  if (typeof keyword !== "string" || keyword === "") return `${where} has the keyword ${preview(keyword)}, not a name`;
  if (keyword.startsWith("$"))
    return `${where} defines ${JSON.stringify(keyword)}: names beginning with "$" belong to the core vocabulary`;
  if (typeof compile !== "function") return `${where} has a compile ${preview(compile)}, not a function`;
  if (phase !== undefined && phase !== 0 && phase !== 1) return `${where} has the phase ${preview(phase)}, not 0 or 1`;
  if (subschemas !== undefined && !SUBSCHEMA_SHAPES.includes(subschemas as string))
    return `${where} has subschemas ${preview(subschemas)}, not "schema", "array" or "map"`;
  return undefined;
}

/** The problem with a `vocabularies` option's shape (checked with the other options), or undefined. */
export function vocabulariesProblem(vocabularies: unknown): string | undefined {
  if (!Array.isArray(vocabularies)) return `must be an array of { uri, keywords }, got ${preview(vocabularies)}`;
  const uris = new Set<string>();
  for (let i = 0; i < vocabularies.length; i++) {
    const vocabulary: unknown = vocabularies[i];
    const where = `[${i}]`;
    if (!isPlainObject(vocabulary)) return `${where} is ${preview(vocabulary)}, not a vocabulary { uri, keywords }`;
    for (const field of Object.keys(vocabulary))
      if (!VOCABULARY_FIELDS.includes(field))
        return `${where} has an ${unknownName("vocabulary", "field", field, VOCABULARY_FIELDS)}`;
    const { uri, keywords } = vocabulary;
    if (typeof uri !== "string" || !hasScheme(uri)) return `${where} has the uri ${preview(uri)}, not an absolute URI`;
    if (uris.has(uri)) return `${where} registers ${JSON.stringify(uri)} a second time`;
    uris.add(uri);
    if (!Array.isArray(keywords)) return `${where} has keywords ${preview(keywords)}, not an array`;
    const names = new Set<string>();
    for (let j = 0; j < keywords.length; j++) {
      const problem = definitionProblem(keywords[j], `${where}.keywords[${j}]`);
      if (problem !== undefined) return problem;
      const name = (keywords[j] as { keyword: string }).keyword;
      if (names.has(name)) return `${where} defines the keyword ${JSON.stringify(name)} twice`;
      names.add(name);
    }
  }
  return undefined;
}

function optionsInvalid(message: string): SchemaError {
  return new SchemaError({
    class: "validation",
    code: "options_invalid",
    message: `compile option "vocabularies" ${message}`,
  });
}

/** The keyword definitions that came from a host (the compiler never fuses over them). */
const hostDefinitions = new WeakSet<KeywordDefinition>();

/** Whether a keyword definition is a host's. */
export function isHostDefinition(def: KeywordDefinition): boolean {
  return hostDefinitions.has(def);
}

/**
 * The dialect with the host's vocabularies added (read once and checked: a malformed one, or one whose URI is the
 * dialect's own, is `options_invalid`). Not among the default vocabularies: only a meta-schema activates them.
 */
export function withHostVocabularies(dialect: DialectDefinition, vocabularies: unknown): DialectDefinition {
  if (vocabularies === undefined) return dialect;
  const problem = vocabulariesProblem(vocabularies);
  if (problem !== undefined) throw optionsInvalid(problem);
  const own = new Set(dialect.vocabularies.map((v) => v.uri));
  const subschemaKeywords = new Map(dialect.subschemaKeywords);
  const added: Vocabulary[] = [];
  for (const { uri, keywords } of vocabularies as VocabularyDefinition[]) {
    if (own.has(uri)) throw optionsInvalid(`registers ${JSON.stringify(uri)}, a vocabulary of the dialect itself`);
    const defs = keywords.map((def) => hostDefinition(def, subschemaKeywords));
    added.push({ uri, keywords: defs, host: true });
  }
  return { ...dialect, vocabularies: [...dialect.vocabularies, ...added], subschemaKeywords };
}

/** A host definition read once into the engine's own, whose compile and evaluators fail closed. */
function hostDefinition(
  def: KeywordDefinition,
  subschemaKeywords: Map<string, "schema" | "array" | "map">,
): KeywordDefinition {
  const { keyword, phase, subschemas } = def;
  const compile = def.compile.bind(def);
  if (subschemas !== undefined) {
    const known = subschemaKeywords.get(keyword);
    if (known !== undefined && known !== subschemas)
      throw optionsInvalid(`declares the subschemas of ${JSON.stringify(keyword)} as ${subschemas}, not ${known}`);
    subschemaKeywords.set(keyword, subschemas);
  }
  const wrapped: KeywordDefinition = {
    keyword,
    ...(phase === undefined ? {} : { phase }),
    compile(value: unknown, ctx: CompileContext): Evaluator | undefined {
      let compiled: unknown;
      try {
        // Host code sees frozen copies: it cannot change the caller's schema (nor, below, the instance).
        const schema = frozenCopy(ctx.schema, ctx.limits, SCHEMA_BOUNDS) as CompileContext["schema"];
        compiled = compile(schema[keyword], withSchema(ctx, schema));
      } catch (e) {
        if (e instanceof SchemaError) throw e;
        throw hostFailure(
          "keyword_failed",
          `the keyword ${JSON.stringify(keyword)} failed to compile: ${errorMessage(e)}`,
          e,
        );
      }
      return compiled === undefined ? undefined : new HostEvaluator(keyword, compiled, ctx.limits);
    },
  };
  hostDefinitions.add(wrapped);
  return Object.freeze(wrapped);
}

/** The compile context with `schema` replaced by a frozen copy; every service is the engine's own. */
function withSchema(ctx: CompileContext, schema: CompileContext["schema"]): CompileContext {
  return {
    schema,
    get location() {
      return ctx.location;
    },
    limits: ctx.limits,
    formatAssertion: ctx.formatAssertion,
    contentAssertion: ctx.contentAssertion,
    active: (keyword) => ctx.active(keyword),
    locationOf: (...tokens) => ctx.locationOf(...tokens),
    subschema: (...tokens) => ctx.subschema(...tokens),
    reference: (ref) => ctx.reference(ref),
    dynamicReference: (ref) => ctx.dynamicReference(ref),
    pattern: (source, keyword) => ctx.pattern(source, keyword),
    format: (name) => ctx.format(name),
    fail: (keyword, message, code) => ctx.fail(keyword, message, code),
  };
}

const KINDS = ["assertion", "annotation", "applicator"];

/** A host keyword's evaluator: both paths answer a boolean, an annotation never fails, a throw fails closed. */
class HostEvaluator implements Evaluator {
  readonly kind: Evaluator["kind"];
  private readonly inner: Evaluator;
  readonly evaluatedProperties?: Evaluator["evaluatedProperties"];
  readonly evaluatedItems?: Evaluator["evaluatedItems"];

  constructor(
    readonly keyword: string,
    compiled: unknown,
    private readonly limits: Readonly<Limits>,
  ) {
    const ev = compiled as Partial<Evaluator> | null;
    if (
      typeof ev !== "object" ||
      ev === null ||
      !KINDS.includes(ev.kind as string) ||
      typeof ev.test !== "function" ||
      typeof ev.evaluate !== "function"
    )
      throw hostFailure(
        "keyword_failed",
        `the keyword ${JSON.stringify(keyword)} compiled to ${preview(compiled)}, not an evaluator`,
      );
    this.inner = ev as Evaluator;
    this.kind = ev.kind as Evaluator["kind"];
    // What the applicator() helper knows of what it evaluates, for unevaluated* (evaluated.ts).
    if (typeof ev.evaluatedProperties === "function") this.evaluatedProperties = ev.evaluatedProperties.bind(ev);
    if (typeof ev.evaluatedItems === "function") this.evaluatedItems = ev.evaluatedItems.bind(ev);
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    let answer: unknown;
    try {
      answer = this.inner.test(frozenCopy(instance, this.limits, INSTANCE_BOUNDS), run, marks);
    } catch (e) {
      throw this.failed(e);
    }
    return this.checked(answer);
  }

  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: KeywordResult): boolean {
    let answer: unknown;
    try {
      answer = this.inner.evaluate(frozenCopy(instance, this.limits, INSTANCE_BOUNDS), run, marks, out);
    } catch (e) {
      throw this.failed(e);
    }
    return this.checked(answer);
  }

  private checked(answer: unknown): boolean {
    if (answer === true || (answer === false && this.kind !== "annotation")) return answer;
    const what =
      answer === false ? "false from an annotation, which never fails" : `${answerKind(answer)}, not a boolean`;
    throw hostFailure("keyword_failed", `the keyword ${JSON.stringify(this.keyword)} answered ${what}`);
  }

  private failed(e: unknown): unknown {
    // A limit hit inside, or a stack overflow (which the validator turns into its depth limit), stays what it is.
    if (e instanceof SchemaError || (e instanceof RangeError && /call stack/i.test(e.message))) return e;
    return hostFailure("keyword_failed", `the keyword ${JSON.stringify(this.keyword)} threw: ${errorMessage(e)}`, e);
  }
}
