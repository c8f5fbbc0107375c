/**
 * The keyword protocol every vocabulary implements. A keyword definition compiles its value once into an
 * `Evaluator` with two paths: `test` (boolean: stops early, builds no strings) and `evaluate` (output: messages,
 * annotations, child results). Keywords come in three kinds, which tell the node what it may skip:
 *
 * - `assertion`: a pure predicate of the instance; write it with `assertion()` (predicate + message → both paths).
 * - `annotation`: never fails; nothing to do on the boolean path; write it with `annotation()`.
 * - `applicator`: applies subschemas; write it with `applicator()` (applicator.ts), which does the rest. Only
 *   keywords that can pass while a subschema fails (`anyOf`, `oneOf`, `not`, `if`, `contains`) write both paths
 *   by hand.
 *
 * A `Fusion` is a named optimisation: one boolean-path evaluator doing the work of several sibling keywords. The
 * plain keywords stay the specification (the output path always uses them) and tests compare both paths.
 */

import {
  NO_ITEMS,
  NO_PROPERTIES,
  unionItems,
  unionProperties,
  type EvaluatedItems,
  type EvaluatedProperties,
} from "./evaluated.js";
import type { EngineCode } from "../errors.js";
import type { Limits } from "../limits.js";
import type { Marks } from "./marks.js";
import type { KeywordResult, Params } from "../output/output.js";
import type { CompiledPattern } from "../regex/index.js";
import type { Meter, Run, Subschema } from "./run.js";
import { typeBits } from "../json/types.js";
import type { CheckForm, NumericRange, Scalar, VerdictForm } from "./verdict-forms.js";

/** What a keyword does (module comment): asserts, only annotates, or applies subschemas. */
export type EvaluatorKind = "assertion" | "annotation" | "applicator";

/** A compiled keyword. Its absolute location is derived by the node when output is built. */
export interface Evaluator {
  /** The keyword it evaluates. */
  readonly keyword: string;
  /** Assertion, annotation or applicator: what the node may skip on the boolean path. */
  readonly kind: EvaluatorKind;
  /** @internal `type` only: the instance's type bits must intersect this mask; the node checks it inline. */
  readonly typeMask?: number;
  /** @internal An assertion that never reads the evaluation (`run`): a root of only such can be decided without one. */
  readonly pure?: boolean;
  /** The boolean path. Assertions get `marks` undefined and must not read it. */
  test(instance: unknown, run: Run, marks: Marks | undefined): boolean;
  /** The output path: the same verdict, with `out.error`/`out.params` on failure and annotations on success. */
  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: KeywordResult): boolean;
  /**
   * @internal
   * What it evaluates of an object's properties whenever it passes, when known at compile time (`evaluated.ts`);
   * undefined when that depends on the instance. Absent: nothing for assertions and annotations, unknown for
   * applicators.
   */
  evaluatedProperties?(): EvaluatedProperties | undefined;
  /** @internal The same for an array's items. */
  evaluatedItems?(): EvaluatedItems | undefined;
  /**
   * @internal
   * `unevaluated*`: settles, from what the schema's other keywords evaluate (when that is known at compile time),
   * what it applies to, so that its boolean path reads no marks; true when it did.
   */
  settle?(siblings: readonly Evaluator[]): boolean;
  /** @internal Its boolean path as data for the verdict fast path (`verdict-forms.ts`); undefined: not expressible. */
  verdict?(): VerdictForm | undefined;
}

/** What the keywords of one schema evaluate of properties whenever they all pass (`evaluated.ts`), when known. */
export function evaluatedPropertiesOf(evaluators: readonly Evaluator[]): EvaluatedProperties | undefined {
  return unionProperties(
    evaluators.map((e) =>
      e.evaluatedProperties !== undefined
        ? e.evaluatedProperties()
        : e.kind === "applicator"
          ? undefined
          : NO_PROPERTIES,
    ),
  );
}

/** The same for items. */
export function evaluatedItemsOf(evaluators: readonly Evaluator[]): EvaluatedItems | undefined {
  return unionItems(
    evaluators.map((e) =>
      e.evaluatedItems !== undefined ? e.evaluatedItems() : e.kind === "applicator" ? undefined : NO_ITEMS,
    ),
  );
}

/** A format as the `format` keyword applies it. */
export interface ResolvedFormat {
  /** The instance type bits it applies to (`types.ts`). */
  readonly mask: number;
  /** Steps charged per code unit of a string, besides one step per value. */
  readonly stepsPerUnit: number;
  /** Checks a value of its types; a host checker's failure to answer is thrown as `format_failed`. */
  readonly test: (value: unknown) => boolean;
}

/** What a keyword sees while compiling. */
export interface CompileContext {
  /** The schema object that holds the keyword. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Absolute location of `schema` (base URI + `#` + JSON Pointer). */
  readonly location: string;
  /** The limits in force. */
  readonly limits: Readonly<Limits>;
  /** `format` asserts (option or a required format-assertion vocabulary). */
  readonly formatAssertion: boolean;
  /** The content keywords assert (`contentAssertion` option). */
  readonly contentAssertion: boolean;
  /** Whether a sibling keyword is present and active in this schema's dialect. */
  active(keyword: string): boolean;
  /** Absolute location of a keyword (or a path below it) of this schema. */
  locationOf(...tokens: (string | number)[]): string;
  /** Compiles the subschema at a path below this schema (always complete when returned). */
  subschema(...tokens: (string | number)[]): Subschema;
  /** Resolves and compiles a `$ref` value (the target may still be compiling when it is recursive). */
  reference(ref: string): Subschema;
  /** @internal Resolves a `$dynamicRef` value: its static target and, when the bookend holds, the anchor name. */
  dynamicReference(ref: string): { target: Subschema; anchor: string | undefined };
  /** Compiles an ECMA-262 `u` pattern once; a bad pattern is a compile error. */
  pattern(source: string, keyword: string): CompiledPattern;
  /**
   * @internal The format `format` applies by this name (built-in or the host's), or undefined when it is unknown;
   * an unknown one under `strictSchema` with format assertion on fails the compilation instead.
   */
  format(name: string): ResolvedFormat | undefined;
  /** Fails compilation with a `validation` SchemaError at this keyword. */
  fail(keyword: string, message: string, code?: EngineCode): never;
}

/**
 * A keyword of a vocabulary: its name and how its value compiles. A host vocabulary (`compile`'s `vocabularies`
 * option) is a list of these, usually written with `assertion`, `annotation` and `applicator`.
 */
export interface KeywordDefinition {
  /** The keyword's name, e.g. `maxLength`. */
  readonly keyword: string;
  /**
   * Evaluation order inside one schema: 0 assertions (the default), 1 applicators, 2 (the engine's `unevaluated*`,
   * which read what the others evaluated). Host keywords take 0 or 1.
   */
  readonly phase?: 0 | 1 | 2;
  /** @internal Reads evaluated marks (unevaluated*): the node then collects marks for it. */
  readonly readsMarks?: boolean;
  /**
   * How its value holds subschemas, when it does (`"schema"`, an `"array"` of them, or a `"map"` of them by name),
   * so that `$id` and anchors inside them are found before anything compiles (Core §9.2).
   */
  readonly subschemas?: "schema" | "array" | "map";
  /** Compiles the keyword's value once; undefined when it has nothing to evaluate or annotate. */
  compile(value: unknown, ctx: CompileContext): Evaluator | undefined;
}

/** One boolean-path step of a node: an applicator's `test`, or a fusion's. */
export interface BooleanStep {
  test(instance: unknown, run: Run, marks: Marks | undefined): boolean;
  /** A static reference's target: a node whose only step this is tests the target directly. */
  readonly reference?: Subschema;
  /** @internal Its work as data for the verdict fast path (`verdict-forms.ts`); undefined: not expressible. */
  verdict?(): VerdictForm | undefined;
}

/** A named optimisation over sibling keywords (see the module comment). */
export interface Fusion {
  readonly name: string;
  /** The keywords whose boolean-path work it does when it applies. */
  readonly keywords: readonly string[];
  /** Its boolean path for this schema object, or undefined when it does not apply here. */
  compile(ctx: CompileContext): BooleanStep | undefined;
}

/** A failure's message and the typed parameters it was rendered from. */
export interface Failure {
  /** One plain sentence naming the constraint and the value, e.g. `must be divisible by 3, got 4`. */
  readonly message: string;
  /** The typed parameters it was rendered from (what a `messages` renderer and `errorsText` users read). */
  readonly params?: Params;
}

class Assertion implements Evaluator {
  readonly kind = "assertion";

  constructor(
    readonly keyword: string,
    /** The predicate itself is the boolean path: the node calls it directly. */
    readonly test: (instance: unknown, run: Run) => boolean,
    private readonly describe: (instance: unknown, run: Run) => Failure,
    readonly typeMask: number | undefined,
    private readonly annotates: AssertionExtras["annotation"],
    readonly pure: boolean,
    private readonly metered: boolean,
    private readonly range: NumericRange | undefined,
    private readonly values: readonly Scalar[] | undefined,
  ) {}

  /** A predicate that reads no more of the evaluation than a `Meter` offers is its own form. */
  verdict(): CheckForm | undefined {
    const test = this.test as CheckForm["test"];
    if (!this.pure && !this.metered) return undefined;
    if (this.range !== undefined) return { kind: "check", test, pure: this.pure, range: this.range };
    if (this.values !== undefined) return { kind: "check", test, pure: this.pure, values: this.values };
    return { kind: "check", test, pure: this.pure };
  }

  evaluate(instance: unknown, run: Run, _marks: Marks | undefined, out: KeywordResult): boolean {
    if (this.test(instance, run)) {
      if (this.annotates !== undefined && (typeBits(instance) & (this.annotates.forTypes ?? ALL_TYPES)) !== 0) {
        out.hasAnnotation = true;
        out.annotation = this.annotates.value;
      }
      return true;
    }
    const failure = this.describe(instance, run);
    out.error = failure.message;
    if (failure.params !== undefined) out.params = failure.params;
    return false;
  }
}

/**
 * What an assertion may add: `type`'s mask (checked inline by the node), whether it is pure (its predicate never
 * reads `run`: no steps charged, no limit read), and an annotation when it passes.
 */
export interface AssertionExtras {
  /** @internal */
  readonly typeMask?: number;
  /** @internal */
  readonly pure?: boolean;
  /**
   * @internal Its predicate reads of the evaluation only what a `Meter` offers (charging steps, size checks, limits),
   * so that the verdict fast path runs it as it is (`meteredAssertion` declares the predicate so).
   */
  readonly metered?: boolean;
  /** @internal A pure predicate that is a numeric bound, told as data (the verdict fast path tests it inline). */
  readonly range?: NumericRange;
  /** @internal A pure predicate that is `===` one of a few JSON scalars, as data (the fast path tests it inline). */
  readonly values?: readonly Scalar[];
  /** The annotation a passing instance (of the given types, default all) gets: `format` asserts and annotates. */
  readonly annotation?: {
    /** The annotation's value. */
    readonly value: unknown;
    /** @internal The type bits of the instances annotated (default all). */
    readonly forTypes?: number;
  };
}

/**
 * A simple assertion: one predicate for both paths, and a message built only on failure (two paths, one truth).
 * `describe` renders the failure from typed parameters.
 */
export function assertion(
  keyword: string,
  holds: (instance: unknown, run: Run) => boolean,
  describe: (instance: unknown, run: Run) => Failure,
  extras: AssertionExtras = {},
): Evaluator {
  return new Assertion(
    keyword,
    holds,
    describe,
    extras.typeMask,
    extras.annotation,
    extras.pure === true,
    extras.metered === true,
    extras.pure === true ? extras.range : undefined,
    extras.pure === true ? extras.values : undefined,
  );
}

/** @internal An assertion whose predicate reads only what a `Meter` offers: the verdict fast path runs it too. */
export function meteredAssertion(
  keyword: string,
  holds: (instance: unknown, meter: Meter) => boolean,
  describe: (instance: unknown, run: Run) => Failure,
  extras: Omit<AssertionExtras, "metered"> = {},
): Evaluator {
  return assertion(keyword, holds, describe, { ...extras, metered: true });
}

/** A node's assertions (`type` aside) as one predicate: what loops over members call for a leaf. */
export type Holds = (instance: unknown, run: Run) => boolean;

const always: Holds = () => true;

/** An assertion's predicate as a plain function (an `assertion()` predicate is one already). */
function predicateOf(evaluator: Evaluator): Holds {
  return evaluator instanceof Assertion ? evaluator.test : (instance, run) => evaluator.test(instance, run, undefined);
}

/**
 * A node's assertions composed once into one function (nothing new for none or one), so that evaluation makes one
 * call where it would walk a list of evaluators. The `type` mask stays apart: callers test it inline.
 */
export function assertionsHold(predicates: readonly Evaluator[]): Holds {
  const tests = predicates.map(predicateOf);
  const [a, b] = tests as [Holds, Holds];
  switch (tests.length) {
    case 0:
      return always;
    case 1:
      return a;
    case 2:
      return (instance, run) => a(instance, run) && b(instance, run);
  }
  return (instance, run) => {
    for (let i = 0; i < tests.length; i++) if (!(tests[i] as Holds)(instance, run)) return false;
    return true;
  };
}

const ALL_TYPES = 0x7f;

class Annotation implements Evaluator {
  readonly kind = "annotation";

  constructor(
    readonly keyword: string,
    private readonly value: unknown,
    private readonly forTypes: number,
  ) {}

  test(): boolean {
    return true;
  }

  evaluate(instance: unknown, _run: Run, _marks: Marks | undefined, out: KeywordResult): boolean {
    if ((typeBits(instance) & this.forTypes) !== 0) {
      out.hasAnnotation = true;
      out.annotation = this.value;
    }
    return true;
  }
}

/** An annotation-only keyword: its value is the annotation, for instances of the given types (default: all). */
export function annotation(keyword: string, value: unknown, forTypes = ALL_TYPES): Evaluator {
  return new Annotation(keyword, value, forTypes);
}
