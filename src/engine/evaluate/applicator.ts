/**
 * Applicator keywords say what applies to what; the engine decides how results combine (STYLE "applicators say
 * what they apply to"). `applicator()` turns one `apply` function into both paths: the type guard, size limits with
 * locations, short-circuiting on the boolean path, child results on the output path, the annotation, and the
 * keyword's own message. `evaluateChild`/`evaluateInPlace` are the output path's primitives for the few keywords
 * written by hand (`anyOf`, `oneOf`, `not`, `if`, `contains`); on the boolean path they use `Run` directly.
 */

import type { EvaluatedItems, EvaluatedProperties } from "./evaluated.js";
import type { Evaluator, Failure } from "./keyword.js";
import type { Marks } from "./marks.js";
import type { KeywordResult } from "../output/output.js";
import { escapeToken } from "../json/pointer.js";
import type { Applier, Run, Subschema } from "./run.js";
import type { VerdictForm } from "./verdict-forms.js";
import { TYPE_BITS, typeBits } from "../json/types.js";

/** The member of the instance an application reaches: an object key or an array index. */
export type MemberKey = string | number;

/**
 * What an applicator keyword applies to what (`applicator()` builds both paths from it). `I` is the instance type it
 * applies to (`on`).
 */
export interface ApplicatorSpec<I> {
  /** The keyword's name. */
  readonly keyword: string;
  /** The instance type the keyword applies to; instances of other types pass untouched. */
  readonly on?: "object" | "array";
  /**
   * What the keyword annotates when it passes: the keys it applied subschemas to, the largest index it applied
   * one to (`true` when it applied one to every item), or `true` when it applied any.
   */
  readonly annotate?: "keys" | "largest-index" | "any";
  /**
   * With `annotate: "keys"`: whether the keyword can apply subschemas to one key more than once (`patternProperties`
   * with several patterns); the annotation lists each key once either way.
   */
  readonly repeatsKeys?: boolean;
  /** Passing children are dropped from the output (`propertyNames`: names are not instance locations). */
  readonly failuresOnly?: boolean;
  /**
   * When a `false` subschema rejects members, `describe` alone reports them (no child result per member), as in
   * `additionalProperties: false`.
   */
  readonly quietFalse?: boolean;
  /**
   * Calls `to.child` / `to.inPlace` for each application and returns false as soon as one does
   * (only the boolean path's ever does). `marks` are this location's evaluated marks, undefined when nobody reads
   * them; `run` charges extra work and reads limits.
   */
  apply(instance: I, to: Applier, marks: Marks | undefined, run: Run): boolean;
  /** @internal What it evaluates whenever it passes, when known when compiled (`Evaluator.evaluatedProperties`). */
  evaluatedProperties?(): EvaluatedProperties | undefined;
  /** @internal */
  evaluatedItems?(): EvaluatedItems | undefined;
  /** @internal `unevaluated*`: see `Evaluator.settle`. */
  settle?(siblings: readonly Evaluator[]): boolean;
  /** @internal Its boolean path as data for the verdict fast path (`Evaluator.verdict`). */
  verdict?(): VerdictForm | undefined;
  /**
   * The keyword's own message when it fails, from the members (or in-place branch indices) that failed; without
   * one (or when it returns undefined) the failing child results explain the failure.
   */
  describe?(failed: readonly MemberKey[], instance: I): Failure | undefined;
}

/** The `typeBits` an applicator's instances must have (0: any instance). */
const APPLIES_TO = { object: TYPE_BITS["object"] as number, array: TYPE_BITS["array"] as number };

class Applicator<I> implements Evaluator {
  readonly kind = "applicator";
  readonly keyword: string;
  private readonly mask: number;

  constructor(private readonly spec: ApplicatorSpec<I>) {
    this.keyword = spec.keyword;
    this.mask = spec.on === undefined ? 0 : APPLIES_TO[spec.on];
  }

  evaluatedProperties(): EvaluatedProperties | undefined {
    return this.spec.evaluatedProperties === undefined ? undefined : this.spec.evaluatedProperties();
  }

  evaluatedItems(): EvaluatedItems | undefined {
    return this.spec.evaluatedItems === undefined ? undefined : this.spec.evaluatedItems();
  }

  settle(siblings: readonly Evaluator[]): boolean {
    return this.spec.settle?.(siblings) ?? false;
  }

  verdict(): VerdictForm | undefined {
    return this.spec.verdict?.();
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if (this.mask !== 0 && (typeBits(instance) & this.mask) === 0) return true;
    return this.spec.apply(instance as I, run, marks, run);
  }

  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: KeywordResult): boolean {
    if (this.mask !== 0 && (typeBits(instance) & this.mask) === 0) return true;
    const { spec } = this;
    const to = new OutputApplier(run, out, spec.failuresOnly === true, spec.quietFalse === true);
    spec.apply(instance as I, to, marks, run);
    if (to.failed.length > 0) {
      const failure = spec.describe?.(to.failed, instance as I);
      if (failure !== undefined) {
        out.error = failure.message;
        if (failure.params !== undefined) out.params = failure.params;
      }
      return false;
    }
    const annotation = to.annotation(spec.annotate, instance, spec.repeatsKeys === true);
    if (annotation !== undefined) {
      out.hasAnnotation = true;
      out.annotation = annotation;
    }
    return true;
  }
}

/** Both paths of an applicator keyword from what it applies to what (see `ApplicatorSpec`). */
export function applicator<I = unknown>(spec: ApplicatorSpec<I>): Evaluator {
  return new Applicator(spec);
}

/**
 * A reference (`$ref`, `$dynamicRef`): the target applies in place, counted against `maxReferenceDepth`. Its own
 * evaluator rather than `applicator()`, since references are on the hot path of every recursive schema.
 */
class Reference implements Evaluator {
  readonly kind = "applicator";
  /** A `$ref`'s target, resolved at compile time (a node holding only it tests it directly). */
  readonly reference: Subschema | undefined;

  constructor(
    readonly keyword: string,
    /** The target, or how to find it in the dynamic scope. */
    private readonly target: Subschema | ((run: Run) => Subschema),
  ) {
    this.reference = typeof target === "function" ? undefined : target;
  }

  evaluatedProperties(): EvaluatedProperties | undefined {
    return this.reference?.evaluatedProperties();
  }

  evaluatedItems(): EvaluatedItems | undefined {
    return this.reference?.evaluatedItems();
  }

  /** A static reference applies its target in place; a dynamic one has no form (its target depends on the scope). */
  verdict(): VerdictForm | undefined {
    const target = this.reference;
    return target === undefined ? undefined : { kind: "in-place", nodes: [target] };
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    const target = this.target;
    const node = typeof target === "function" ? target(run) : target;
    if (++run.references > run.maxReferenceDepth) run.limit("maxReferenceDepth");
    const valid = node.test(instance, run, marks);
    run.references--;
    return valid;
  }

  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: KeywordResult): boolean {
    const target = this.target;
    const node = typeof target === "function" ? target(run) : target;
    if (++run.references > run.maxReferenceDepth) run.limit("maxReferenceDepth", out);
    const valid = evaluateInPlace(node, instance, run, marks, out);
    run.references--;
    return valid;
  }
}

/** `$ref`: a target resolved at compile time. */
export function reference(keyword: string, target: Subschema): Evaluator {
  return new Reference(keyword, target);
}

/** `$dynamicRef`: a target that `resolve` finds in the dynamic scope when evaluation reaches it. */
export function dynamicReference(keyword: string, resolve: (run: Run) => Subschema): Evaluator {
  return new Reference(keyword, resolve);
}

/** The output path's applier: records every application as a child result and never stops. */
class OutputApplier implements Applier {
  /** Members, or in-place branch indices, whose subschema failed. */
  readonly failed: MemberKey[] = [];
  private readonly applied: MemberKey[] = [];
  private branch = 0;
  readonly exhaustive = true;

  constructor(
    private readonly run: Run,
    private readonly out: KeywordResult,
    private readonly failuresOnly: boolean,
    private readonly quietFalse: boolean,
  ) {}

  child(node: Subschema, value: unknown, key: MemberKey, at?: string | number): boolean {
    const { run, out } = this;
    this.applied.push(key);
    if (this.quietFalse && node.constant === false) {
      run.enter(2, out);
      this.failed.push(key);
      return true;
    }
    if (!evaluateChild(node, value, key, run, out, tokenSuffix(at), this.failuresOnly)) this.failed.push(key);
    return true;
  }

  inPlace(node: Subschema, instance: unknown, marks: Marks | undefined, at?: string | number): boolean {
    const index = this.branch++;
    if (!evaluateInPlace(node, instance, this.run, marks, this.out, tokenSuffix(at))) this.failed.push(index);
    return true;
  }

  tryInPlace(node: Subschema, instance: unknown, marks: Marks | undefined, at?: string | number): boolean {
    return tryInPlace(node, instance, this.run, marks, this.out, tokenSuffix(at));
  }

  eachItem(node: Subschema, array: readonly unknown[], from: number): boolean {
    for (let i = from; i < array.length; i++) this.child(node, array[i], i);
    return true;
  }

  firstMatch(node: Subschema, array: readonly unknown[], from: number): number {
    return firstMatch(node, array, from, this.run, this.out);
  }

  keys(object: object): string[] {
    return this.run.keys(object, this.out);
  }

  items(array: readonly unknown[]): void {
    this.run.items(array, this.out);
  }

  spend(steps: number): void {
    this.run.spend(steps, this.out);
  }

  annotation(kind: ApplicatorSpec<unknown>["annotate"], instance: unknown, repeatsKeys = false): unknown {
    const { applied } = this;
    if (kind === undefined || applied.length === 0) return undefined;
    if (kind === "any") return true;
    if (kind === "keys") return repeatsKeys ? [...new Set(applied)] : applied;
    let largest = 0;
    for (const index of applied as number[]) if (index > largest) largest = index;
    return applied.length === (instance as unknown[]).length ? true : largest;
  }
}

/** The output path's applier over one keyword result, for the keywords written by hand (`contains`). */
export function outputApplier(run: Run, out: KeywordResult): Applier {
  return new OutputApplier(run, out, false, false);
}

/**
 * Output path: tries `node` on the current instance location (a new child result of `out`); its evaluated marks
 * are kept only when it passes.
 */
export function tryInPlace(
  node: Subschema,
  instance: unknown,
  run: Run,
  marks: Marks | undefined,
  out: KeywordResult,
  suffix = "",
): boolean {
  const saved = marks?.save();
  const valid = evaluateInPlace(node, instance, run, marks, out, suffix);
  if (!valid && saved !== undefined) (marks as Marks).restore(saved);
  return valid;
}

/**
 * Output path: the index of the first item of `array` from `from` on that `node` accepts (-1: none). The results
 * of items that fail are dropped (they are no errors of the caller); the match's result stays in `out`.
 */
function firstMatch(node: Subschema, array: readonly unknown[], from: number, run: Run, out: KeywordResult): number {
  for (let i = from; i < array.length; i++) {
    if (evaluateChild(node, array[i], i, run, out)) return i;
    out.children.pop();
  }
  return -1;
}

/**
 * Output path: applies `node` to `value`, the member `key` of the current instance, into a new child result of
 * `out`; returns its verdict. A passing child that says nothing (or, with `failuresOnly`, any passing child) is
 * dropped at once, so a loop over a large instance does not hold a result per member.
 */
function evaluateChild(
  node: Subschema,
  value: unknown,
  key: MemberKey,
  run: Run,
  out: KeywordResult,
  suffix = "",
  failuresOnly = false,
): boolean {
  // The member primitive's accounting (one step here, the subschema's own on entry), then one level down.
  run.enter(1, out);
  run.instanceDepth++;
  const child = out.apply(suffix, key);
  const valid = node.evaluate(value, run, undefined, child);
  if (valid && (failuresOnly || (child.keywords.length === 0 && !run.keepAll))) out.children.pop();
  run.instanceDepth--;
  return valid;
}

/** Output path: applies `node` to the current instance location into a new child result of `out`. */
export function evaluateInPlace(
  node: Subschema,
  instance: unknown,
  run: Run,
  marks: Marks | undefined,
  out: KeywordResult,
  suffix = "",
): boolean {
  return node.evaluate(instance, run, marks, out.apply(suffix, undefined));
}

/** A keyword-location suffix from a JSON Pointer token ("" for none). */
function tokenSuffix(at: string | number | undefined): string {
  return at === undefined ? "" : "/" + (typeof at === "number" ? String(at) : escapeToken(at));
}
