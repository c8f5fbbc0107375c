/**
 * A compiled schema: its evaluators in evaluation order. On the boolean path the node checks a `type` mask inline,
 * then calls assertions as plain predicates, then applicators (or the fusions that stand in for them); annotations
 * cost nothing there. Only applicators need the dynamic scope, nesting bounds and evaluated marks, so only they pay
 * for them. Entering a node charges one step per keyword (limits), pushes its resource onto the dynamic scope when a
 * `$dynamicRef` can read it, and owns the evaluated marks when one of its keywords reads them (Core §11).
 */

import type { BooleanStep, Evaluator, Holds } from "./keyword.js";
import { assertionsHold } from "./keyword.js";
import { typeBits } from "./types.js";
import { Marks } from "./marks.js";
import type { KeywordResult, NodeResult } from "./output.js";
import { escapeToken, pointerToFragment } from "./pointer.js";
import type { DynamicAnchors, Run, ScopeFrame, Subschema } from "./run.js";

/** What the node needs of its resource: the `$dynamicAnchor`s it adds to the dynamic scope when entered. */
export interface ScopeResource {
  readonly dynamicAnchors: DynamicAnchors;
}

/** The boolean path of a node, split by what each part needs. */
export interface BooleanPlan {
  /** The `type` mask (0: no `type`). */
  readonly typeMask: number;
  /** Assertions, called as predicates. */
  readonly predicates: readonly Evaluator[];
  /** Applicators and fusions, which need scope, nesting and marks. */
  readonly steps: readonly BooleanStep[];
}

const NONE: never[] = [];

export class SchemaNode implements Subschema {
  /** Every evaluator, for the output path. */
  private all: readonly Evaluator[] = NONE;
  typeMask = 0;
  /** Whether there are assertions besides `type`, and all of them composed (`assertionsHold`). */
  asserts = false;
  holds: Holds = assertionsHold(NONE);
  private steps: readonly BooleanStep[] = NONE;
  /** True when a keyword of this node reads evaluated marks. */
  private tracks = false;
  /** Steps charged on entry: one per keyword. */
  cost = 1;
  /** A boolean `true` is a leaf with nothing to check; `false` is not (it fails everything). */
  leaf: boolean;
  /**
   * Accepts every instance on the boolean path: `true`, `{}`, annotation-only schemas. A node still compiling (the
   * target of a recursive reference) is not known to be trivial yet, so it counts as not trivial.
   */
  isTrivial: boolean;

  constructor(
    readonly absoluteLocation: string,
    private readonly resource: ScopeResource,
    /** `true`/`false` for boolean schemas. */
    readonly constant: boolean | undefined,
  ) {
    this.leaf = constant === true;
    this.isTrivial = constant === true;
  }

  /** Called once by the compiler when the keywords are compiled (after recursive references are wired). */
  setEvaluators(evaluators: readonly Evaluator[], plan: BooleanPlan, tracks: boolean): void {
    this.all = evaluators;
    this.typeMask = plan.typeMask;
    this.asserts = plan.predicates.length > 0;
    this.holds = assertionsHold(plan.predicates);
    this.steps = plan.steps;
    this.tracks = tracks;
    this.cost = Math.max(1, evaluators.length);
    this.leaf = plan.steps.length === 0 && this.constant !== false;
    this.isTrivial = this.leaf && plan.typeMask === 0 && plan.predicates.length === 0;
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if ((run.steps += this.cost) > run.maxSteps) run.limit("maxEvaluationSteps");
    if (this.constant === false) return false;
    const mask = this.typeMask;
    if (mask !== 0 && (typeBits(instance) & mask) === 0) return false;
    if (this.asserts && !this.holds(instance, run)) return false;
    const steps = this.steps;
    if (steps.length === 0) return true;
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth");
    const saved = run.tracksScope ? this.enterScope(run) : run.scope;
    const own = this.tracks ? new Marks() : marks;
    let valid = (steps[0] as BooleanStep).test(instance, run, own);
    for (let i = 1; valid && i < steps.length; i++) valid = (steps[i] as BooleanStep).test(instance, run, own);
    if (valid && this.tracks && marks !== undefined) marks.merge(own as Marks, run);
    run.scope = saved;
    run.nesting--;
    return valid;
  }

  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean {
    if ((run.steps += this.cost) > run.maxSteps) run.limit("maxEvaluationSteps", out.instanceLocation);
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth", out.instanceLocation);
    const saved = run.tracksScope ? this.enterScope(run) : run.scope;
    out.absoluteKeywordLocation = this.absoluteLocation;
    const own = this.tracks ? new Marks() : marks;
    let valid = this.constant !== false;
    if (!valid) out.keywords.push(falseSchemaResult(out));
    for (const evaluator of this.all) {
      const unit = keywordResult(out, this.absoluteLocation, evaluator.keyword);
      unit.valid = evaluator.evaluate(instance, run, own, unit);
      if (!unit.valid) {
        valid = false;
        unit.hasAnnotation = false;
        if (unit.error === undefined && !unit.children.some((c) => !c.valid)) unit.error = "is not valid";
      }
      if (!run.keepAll) {
        // Units that neither fail nor annotate say nothing in flag/basic/detailed output; dropping them bounds memory.
        if (unit.children.length > 0) unit.children = unit.children.filter((c) => !c.valid || c.keywords.length > 0);
        if (unit.valid && !unit.hasAnnotation && unit.children.length === 0) continue;
      }
      out.keywords.push(unit);
    }
    out.valid = valid;
    if (valid && this.tracks && marks !== undefined) marks.merge(own as Marks, run);
    run.scope = saved;
    run.nesting--;
    return valid;
  }

  /** Pushes this node's resource onto the dynamic scope when it defines anchors; returns the scope to restore. */
  private enterScope(run: Run): ScopeFrame | null {
    const saved = run.scope;
    const anchors = this.resource.dynamicAnchors;
    if (anchors.size > 0 && (saved === null || saved.anchors !== anchors)) run.scope = { anchors, next: saved };
    return saved;
  }
}

function keywordResult(out: NodeResult, absoluteLocation: string, keyword: string): KeywordResult {
  const token = escapeToken(keyword);
  return {
    keyword,
    keywordLocation: out.keywordLocation + "/" + token,
    absoluteKeywordLocation: absoluteLocation + "/" + pointerToFragment(token),
    instanceLocation: out.instanceLocation,
    valid: true,
    hasAnnotation: false,
    children: [],
  };
}

function falseSchemaResult(out: NodeResult): KeywordResult {
  return {
    keyword: "false",
    keywordLocation: out.keywordLocation,
    absoluteKeywordLocation: out.absoluteKeywordLocation,
    instanceLocation: out.instanceLocation,
    valid: false,
    error: "no value is allowed here (the schema is false)",
    hasAnnotation: false,
    children: [],
  };
}
