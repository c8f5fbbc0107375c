/**
 * The keyword interface every vocabulary implements. A keyword compiles once into an `Evaluator`;
 * `check` is both paths: with `out === null` it is the boolean fast path (stops early, builds no
 * strings), with a `KeywordResult` it fills in messages, annotations and child results.
 */

import type { Marks, Run } from "./context.js";
import type { KeywordResult } from "./output.js";
import type { SchemaNode } from "./node.js";
import type { CompiledPattern } from "./regex/index.js";
import type { Limits } from "./limits.js";

/**
 * A compiled keyword. Its absolute location is not stored: the node derives it from its own
 * location when output is built, so a compiled schema holds no per-keyword location strings.
 */
export interface Evaluator {
  readonly keyword: string;
  /** Nothing to do on the boolean path (annotation-only keywords, or work a fused sibling does there). */
  readonly passive?: boolean;
  /**
   * A pure predicate the node calls directly on the boolean path instead of `check` (simple
   * assertions): one call per keyword, no marks, no output.
   */
  readonly test?: (instance: unknown, run: Run) => boolean;
  /** For `type`: the instance's type bits must intersect this mask; the node checks it inline. */
  readonly typeMask?: number;
  check(instance: unknown, run: Run, marks: Marks | undefined, out: KeywordResult | null): boolean;
}

/** What a keyword sees while compiling. */
export interface CompileContext {
  /** The schema object that holds the keyword. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Absolute location of `schema` (base URI + `#` + JSON Pointer). */
  readonly location: string;
  readonly limits: Readonly<Limits>;
  /** `format` asserts (option or a required format-assertion vocabulary). */
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  /** Whether a sibling keyword is active in this schema's dialect. */
  active(keyword: string): boolean;
  /** Absolute location of a keyword (or a path below it) of this schema. */
  locationOf(...tokens: (string | number)[]): string;
  /** Compiles the subschema at a path below this schema. */
  subschema(...tokens: (string | number)[]): SchemaNode;
  /** Resolves and compiles a `$ref` value. */
  reference(ref: string): SchemaNode;
  /** Resolves a `$dynamicRef` value: its static target and, when the bookend holds, the anchor name. */
  dynamicReference(ref: string): { target: SchemaNode; anchor: string | undefined };
  /** Compiles an ECMA-262 `u` pattern once; a bad pattern is a compile error. */
  pattern(source: string, keyword: string): CompiledPattern;
  /** Fails compilation with a `validation` SchemaError at this keyword. */
  fail(keyword: string, message: string, code?: string): never;
}

export interface KeywordDefinition {
  readonly keyword: string;
  /** Evaluation order inside one schema: 0 assertions, 1 in-place and child applicators, 2 unevaluated*. */
  readonly phase?: 0 | 1 | 2;
  /** Whether this keyword reads evaluated marks (unevaluated*). */
  readonly readsMarks?: boolean;
  /** Returns undefined when the keyword has nothing to evaluate or annotate. */
  compile(value: unknown, ctx: CompileContext): Evaluator | undefined;
}

/** A simple assertion: one predicate for both paths, and a message built only on failure. */
class Assertion implements Evaluator {
  constructor(
    readonly keyword: string,
    readonly test: (instance: unknown, run: Run) => boolean,
    private readonly describe: (instance: unknown) => { params: Record<string, unknown>; message: string },
    readonly typeMask?: number,
  ) {}

  check(instance: unknown, run: Run, _marks: Marks | undefined, out: KeywordResult | null): boolean {
    if (this.test(instance, run)) return true;
    if (out !== null) {
      const d = this.describe(instance);
      out.params = d.params;
      out.error = d.message;
    }
    return false;
  }
}

/**
 * Derives both paths of a simple assertion from a predicate and a message (STYLE §4).
 * `params` renders the typed parameters of a failure; the message is built from them.
 */
export function assertion<P extends Record<string, unknown>>(
  keyword: string,
  holds: (instance: unknown, run: Run) => boolean,
  describe: (instance: unknown) => { params: P; message: string },
  typeMask?: number,
): Evaluator {
  return new Assertion(keyword, holds, describe, typeMask);
}

/** An annotation-only keyword: no work on the boolean path, its value as the annotation on the output path. */
class Annotation implements Evaluator {
  readonly passive = true;

  constructor(
    readonly keyword: string,
    private readonly value: unknown,
  ) {}

  check(_instance: unknown, _run: Run, _marks: Marks | undefined, out: KeywordResult | null): boolean {
    if (out !== null) {
      out.hasAnnotation = true;
      out.annotation = this.value;
    }
    return true;
  }
}

export function annotation(keyword: string, value: unknown): Evaluator {
  return new Annotation(keyword, value);
}
