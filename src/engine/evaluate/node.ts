/**
 * A compiled schema: its evaluators in evaluation order. On the boolean path the node checks a `type` mask inline,
 * then calls assertions as one composed predicate, then applicators (or the fusions that stand in for them);
 * annotations cost nothing there. Only applicators need the dynamic scope, nesting bounds and evaluated marks, so only
 * they pay for them. Entering a node charges one step per keyword (limits), pushes its resource onto the dynamic
 * scope when a `$dynamicRef` can read it, and owns the evaluated marks when one of its keywords reads them (Core §11).
 *
 * The boolean path is specialised once, when the node is compiled, by what the node holds: `false`, a leaf (a mask and
 * assertions only: members test it inline), one fused step with nothing else to track, or the general loop. The member
 * primitive (entering a member of the instance, and the loops over items built on it) is written here, once.
 */

import { renderMessage } from "../output/error-text.js";
import { NO_ITEMS, NO_PROPERTIES, type EvaluatedItems, type EvaluatedProperties } from "./evaluated.js";
import type { BooleanStep, Evaluator, Holds } from "./keyword.js";
import { assertionsHold, evaluatedItemsOf, evaluatedPropertiesOf } from "./keyword.js";
import { typeBits } from "../json/types.js";
import { Marks } from "./marks.js";
import { KeywordResult, type NodeResult } from "../output/output.js";
import { escapeToken, pointerToFragment } from "../json/pointer.js";
import type { DynamicAnchors, Member, Run, ScopeFrame, Subschema } from "./run.js";

/** What the node needs of its resource: the `$dynamicAnchor`s it adds to the dynamic scope when entered. */
export interface ScopeResource {
  readonly dynamicAnchors: DynamicAnchors;
}

/** A compiled node's boolean path as the verdict fast path reads it (`SchemaNode.verdictPlan`). */
export interface VerdictPlan extends BooleanPlan {
  /** Steps charged on entering it in place (one more as a member). */
  readonly cost: number;
  /** Whether its boolean path reads the evaluation beyond its keywords' steps (a scope frame, evaluated marks). */
  readonly needsRun: boolean;
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

type Test = (instance: unknown, run: Run, marks: Marks | undefined) => boolean;

const NONE: never[] = [];

/** Not computed yet. */
const UNKNOWN: unique symbol = Symbol("unknown");

/** Bits of `SchemaNode.flags`. */
const LEAF = 1;
const ASSERTS = 2;
const PURE = 4;
const TRACKS = 8;
const TRACKS_TEST = 16;
const COMPILED = 32;
const COMPUTING = 64;

/** Each evaluator's keyword location suffix and absolute keyword location, for output units. */
interface OutputLocations {
  readonly suffixes: readonly string[];
  readonly locations: readonly string[];
}

/** What pure assertions are given for the evaluation they never read. */
const NO_RUN = undefined as unknown as Run;

export class SchemaNode implements Member {
  /**
   * Every evaluator, for the output path, with its keyword location suffix and absolute location: made on the first
   * output evaluation (a validator only ever asked `isValid` keeps no location strings).
   */
  private all: readonly Evaluator[] = NONE;
  private locations: OutputLocations | undefined = undefined;
  private typeMask = 0;
  /** The booleans below, as bits of one field (a catalog holds thousands of nodes). */
  private flags = PURE;
  private holds: Holds = assertionsHold(NONE);
  /** The assertions `holds` composes, for the verdict fast path (`verdictPlan`). */
  private predicates: readonly Evaluator[] = NONE;
  private steps: readonly BooleanStep[] = NONE;
  /** What it evaluates whenever it passes, once computed (UNKNOWN: not yet; `evaluated.ts`). */
  private props: EvaluatedProperties | undefined | typeof UNKNOWN = UNKNOWN;
  private itemsEvaluated: EvaluatedItems | undefined | typeof UNKNOWN = UNKNOWN;
  /** Steps charged on entry: one per keyword. */
  private cost = 1;

  /** Whether there are assertions besides `type`, and all of them composed (`assertionsHold`). */
  private get asserts(): boolean {
    return (this.flags & ASSERTS) !== 0;
  }
  /** Whether every assertion is pure (never reads the evaluation). */
  private get pure(): boolean {
    return (this.flags & PURE) !== 0;
  }
  /** True when a keyword of this node reads evaluated marks: on the output path, and on the boolean path. */
  private get tracks(): boolean {
    return (this.flags & TRACKS) !== 0;
  }
  private get tracksTest(): boolean {
    return (this.flags & TRACKS_TEST) !== 0;
  }
  private get compiled(): boolean {
    return (this.flags & COMPILED) !== 0;
  }
  private get computing(): boolean {
    return (this.flags & COMPUTING) !== 0;
  }
  /** A boolean `true`, or only a `type` mask and assertions: members test it inline. `false` is not a leaf. */
  private get leaf(): boolean {
    return (this.flags & LEAF) !== 0;
  }
  /**
   * Accepts every instance on the boolean path: `true`, `{}`, annotation-only schemas. A node still compiling (the
   * target of a recursive reference) is not known to be trivial yet, so it counts as not trivial.
   */
  isTrivial: boolean;
  /** The boolean path applied to the instance itself (specialised when the node is compiled). */
  test: Test;
  /**
   * The same without the entry's steps, for a member that has charged them (not a leaf: those are inline); undefined
   * for the general loop, whose body is called directly (no closure per node).
   */
  private within: Test | undefined = undefined;
  /** What entering it as a member charges, when it is a leaf of pure assertions; -1 otherwise (see `Member`). */
  batchSteps: number;

  constructor(
    readonly absoluteLocation: string,
    private readonly resource: ScopeResource,
    /** `true`/`false` for boolean schemas. */
    readonly constant: boolean | undefined,
  ) {
    if (constant === true) this.flags |= LEAF;
    this.isTrivial = constant === true;
    // Until its keywords are compiled (and for `true`) a node accepts everything, charging its one step.
    this.test = constant === false ? falseTest : CHARGE_ONE;
    this.batchSteps = constant === true ? 2 : -1;
  }

  /**
   * Called once by the compiler when the keywords are compiled (after recursive references are wired). `tracks`:
   * a keyword reads evaluated marks; `tracksTest`: it still does on the boolean path (an `unevaluated*` keyword that
   * settled what it applies to at compile time reads none there).
   */
  setEvaluators(evaluators: readonly Evaluator[], plan: BooleanPlan, tracks: boolean, tracksTest = tracks): void {
    this.all = evaluators;
    this.typeMask = plan.typeMask;
    const asserts = plan.predicates.length > 0;
    const pure = plan.predicates.every((p) => p.pure === true);
    this.holds = assertionsHold(plan.predicates);
    this.predicates = plan.predicates.length === 0 ? NONE : plan.predicates;
    this.steps = plan.steps.length === 0 ? NONE : plan.steps;
    this.flags =
      COMPILED |
      (asserts ? ASSERTS : 0) |
      (pure ? PURE : 0) |
      (tracks ? TRACKS : 0) |
      (tracksTest ? TRACKS_TEST : 0) |
      (plan.steps.length === 0 ? LEAF : 0);
    this.cost = Math.max(1, evaluators.length);
    this.isTrivial = this.leaf && plan.typeMask === 0 && plan.predicates.length === 0;
    const general = this.scoped() || tracksTest || plan.steps.length > 1;
    const target = general || this.leaf ? undefined : (plan.steps[0] as BooleanStep).reference;
    const refOnly = target !== undefined && plan.typeMask === 0 && plan.predicates.length === 0;
    if (this.leaf) this.test = this.leafTest();
    else if (refOnly) {
      this.test = referenceTest(this.cost, target);
      this.within = referenceTest(0, target);
    } else if (general) {
      this.test = this.loop();
      this.within = undefined;
    } else {
      this.test = this.one(this.cost);
      this.within = this.one(0);
    }
    this.batchSteps = this.leaf && this.pure ? 1 + this.cost : -1;
  }

  /**
   * Whether the instance is valid, with no evaluation to account to: a root that is a leaf whose assertions never
   * read the evaluation (`type`, bounds) and whose steps fit the limit. Undefined otherwise (`Validator.isValid`).
   */
  direct(maxSteps: number): ((instance: unknown) => boolean) | undefined {
    if (!this.leaf || !this.pure || this.cost > maxSteps || this.constant !== undefined) return undefined;
    const { typeMask, asserts, holds } = this;
    if (!asserts) return typeMask === 0 ? () => true : (instance) => (typeBits(instance) & typeMask) !== 0;
    return (instance) => (typeMask === 0 || (typeBits(instance) & typeMask) !== 0) && holds(instance, NO_RUN);
  }

  /**
   * @internal What the verdict fast path needs of this node (`engine/verdict`): its boolean plan, what entering it
   * charges, and whether its boolean path needs more than the plan (a compiled node that pushes a dynamic scope
   * frame or reads evaluated marks). Undefined while it is compiling.
   */
  verdictPlan(): VerdictPlan | undefined {
    if (this.constant !== undefined || !this.compiled) return undefined;
    const { typeMask, predicates, steps, cost } = this;
    return { typeMask, predicates, steps, cost, needsRun: this.scoped() || this.tracksTest };
  }

  evaluatedProperties(): EvaluatedProperties | undefined {
    if (this.constant !== undefined) return NO_PROPERTIES;
    if (this.props !== UNKNOWN) return this.props;
    if (!this.compiled || this.computing) return undefined;
    return (this.props = this.evaluated(() => evaluatedPropertiesOf(this.all)));
  }

  evaluatedItems(): EvaluatedItems | undefined {
    if (this.constant !== undefined) return NO_ITEMS;
    if (this.itemsEvaluated !== UNKNOWN) return this.itemsEvaluated;
    if (!this.compiled || this.computing) return undefined;
    return (this.itemsEvaluated = this.evaluated(() => evaluatedItemsOf(this.all)));
  }

  /** Computes what the keywords evaluate; a reference back to this node meanwhile finds it unknown (a cycle). */
  private evaluated<T>(compute: () => T | undefined): T | undefined {
    this.flags |= COMPUTING;
    try {
      return compute();
    } finally {
      this.flags &= ~COMPUTING;
    }
  }

  // ---- the member primitive --------------------------------------------------------------------------------------

  member(value: unknown, run: Run): boolean {
    run.enter(1 + this.cost);
    if (this.leaf) {
      const mask = this.typeMask;
      return (mask === 0 || (typeBits(value) & mask) !== 0) && (!this.asserts || this.holds(value, run));
    }
    run.instanceDepth++;
    const within = this.within;
    const valid = within === undefined ? this.body(value, run, undefined) : within(value, run, undefined);
    run.instanceDepth--;
    return valid;
  }

  entered(value: unknown): boolean {
    const mask = this.typeMask;
    return (mask === 0 || (typeBits(value) & mask) !== 0) && (!this.asserts || this.holds(value, NO_RUN));
  }

  eachItem(array: readonly unknown[], from: number, run: Run): boolean {
    const count = array.length - from;
    // A pure leaf: every item entered at once (the member primitive's charge, exactly), what a failure leaves unused
    // given back. Past a limit, one by one, so that it is hit at the item that hits it.
    if (count > 0 && this.batchSteps >= 0 && run.enterAll(count * this.batchSteps, count)) {
      const failed = this.firstFailure(array, from);
      if (failed < 0) return true;
      const unused = array.length - failed - 1;
      run.refund(unused * this.batchSteps, unused);
      return false;
    }
    for (let i = from; i < array.length; i++) if (!this.member(array[i], run)) return false;
    return true;
  }

  /** A pure leaf over entered items: the index of the first that fails, or -1. One loop per shape of leaf. */
  private firstFailure(array: readonly unknown[], from: number): number {
    const { typeMask: mask, holds } = this;
    if (!this.asserts) {
      if (mask === 0) return -1;
      for (let i = from; i < array.length; i++) if ((typeBits(array[i]) & mask) === 0) return i;
      return -1;
    }
    if (mask === 0) {
      for (let i = from; i < array.length; i++) if (!holds(array[i], NO_RUN)) return i;
      return -1;
    }
    for (let i = from; i < array.length; i++) {
      const item = array[i];
      if ((typeBits(item) & mask) === 0 || !holds(item, NO_RUN)) return i;
    }
    return -1;
  }

  firstMatch(array: readonly unknown[], from: number, run: Run): number {
    const count = array.length - from;
    // As in `eachItem`: a pure leaf's items are entered at once, and those after the match given back.
    if (count > 0 && this.batchSteps >= 0 && run.enterAll(count * this.batchSteps, count)) {
      const { typeMask: mask, asserts, holds } = this;
      for (let i = from; i < array.length; i++) {
        const item = array[i];
        if ((mask !== 0 && (typeBits(item) & mask) === 0) || (asserts && !holds(item, NO_RUN))) continue;
        const unused = array.length - i - 1;
        run.refund(unused * this.batchSteps, unused);
        return i;
      }
      return -1;
    }
    for (let i = from; i < array.length; i++) if (this.member(array[i], run)) return i;
    return -1;
  }

  // ---- the boolean path, specialised ------------------------------------------------------------------------------

  /** Whether entering this node pushes a frame onto the dynamic scope. */
  private scoped(): boolean {
    return this.resource.dynamicAnchors.size > 0;
  }

  private leafTest(): Test {
    const { cost, typeMask, asserts, holds } = this;
    if (!asserts) return typeLeafTest(cost, typeMask);
    return (instance, run) => {
      if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
      return (typeMask === 0 || (typeBits(instance) & typeMask) !== 0) && holds(instance, run);
    };
  }

  /**
   * One applicator or fusion, no marks of its own and no scope to push: it is called straight from here. `cost` is
   * what entering charges (0 for a member, which has charged it).
   */
  private one(cost: number): Test {
    const { typeMask, asserts, holds } = this;
    const step = this.steps[0] as BooleanStep;
    return (instance, run, marks) => {
      if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
      if (typeMask !== 0 && (typeBits(instance) & typeMask) === 0) return false;
      if (asserts && !holds(instance, run)) return false;
      if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth");
      const valid = step.test(instance, run, marks);
      run.nesting--;
      return valid;
    };
  }

  private loop(): Test {
    const cost = this.cost;
    return (instance, run, marks) => {
      if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
      return this.body(instance, run, marks);
    };
  }

  /** The boolean path without the entry's steps (a member has charged them). */
  private body(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if (this.constant === false) return false;
    const mask = this.typeMask;
    if (mask !== 0 && (typeBits(instance) & mask) === 0) return false;
    if (this.asserts && !this.holds(instance, run)) return false;
    const steps = this.steps;
    if (steps.length === 0) return true;
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth");
    const saved = run.tracksScope ? this.enterScope(run) : run.scope;
    const own = this.tracksTest ? new Marks() : marks;
    let valid = (steps[0] as BooleanStep).test(instance, run, own);
    for (let i = 1; valid && i < steps.length; i++) valid = (steps[i] as BooleanStep).test(instance, run, own);
    if (valid && this.tracksTest && marks !== undefined) marks.merge(own as Marks, run);
    run.scope = saved;
    run.nesting--;
    return valid;
  }

  // ---- the output path --------------------------------------------------------------------------------------------

  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean {
    if ((run.steps += this.cost) > run.maxSteps) run.limit("maxEvaluationSteps", out);
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth", out);
    const saved = run.tracksScope ? this.enterScope(run) : run.scope;
    out.absoluteKeywordLocation = this.absoluteLocation;
    const own = this.tracks ? new Marks() : marks;
    let valid = this.constant !== false;
    if (!valid) out.keywords.push(falseSchemaResult(out, instance, run));
    const all = this.all;
    const { suffixes, locations } = (this.locations ??= {
      suffixes: all.map((e) => "/" + escapeToken(e.keyword)),
      locations: all.map((e) => this.absoluteLocation + "/" + pointerToFragment(escapeToken(e.keyword))),
    });
    for (let i = 0; i < all.length; i++) {
      const evaluator = all[i] as Evaluator;
      const unit = new KeywordResult(out, evaluator.keyword, suffixes[i] as string, locations[i] as string);
      try {
        unit.valid = evaluator.evaluate(instance, run, own, unit);
      } catch (e) {
        // A limit hit where no location is known (inside a regular-expression match) is located at this keyword.
        throw run.located(e, unit);
      }
      if (!unit.valid) {
        valid = false;
        unit.hasAnnotation = false;
        if (unit.error === undefined && !unit.children.some((c) => !c.valid)) unit.error = "is not valid";
        if (unit.error !== undefined && run.messages !== undefined) renderMessage(run.messages, unit, instance);
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

/** The boolean path of `false`: one step, and no instance is valid. */
const falseTest: Test = (_instance, run) => {
  if (++run.steps > run.maxSteps) run.limit("maxEvaluationSteps");
  return false;
};

/**
 * A node whose boolean path is only a `$ref` resolved at compile time: the target is tested straight away, counted
 * against `maxReferenceDepth` (which bounds the recursion, as nesting does elsewhere). `cost`: what entering charges.
 */
function referenceTest(cost: number, target: Subschema): Test {
  return (instance, run, marks) => {
    if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
    if (++run.references > run.maxReferenceDepth) run.limit("maxReferenceDepth");
    const valid = target.test(instance, run, marks);
    run.references--;
    return valid;
  };
}

/** Leaves of a `type` mask only, by cost and mask: most of a schema's leaves, sharing one test each. */
const typeLeafTests = new Map<number, Test>();

/** The boolean path of a leaf that only has a `type` mask (0: none) and charges `cost` on entry. */
function typeLeafTest(cost: number, typeMask: number): Test {
  // Masks have 7 bits; a few costs cover nearly every such leaf (one per keyword, annotations included).
  const key = cost * 128 + typeMask;
  const shared = cost <= 16 ? typeLeafTests.get(key) : undefined;
  if (shared !== undefined) return shared;
  const test: Test =
    typeMask === 0
      ? chargeOnly(cost)
      : (instance, run) => {
          if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
          return (typeBits(instance) & typeMask) !== 0;
        };
  if (cost <= 16) typeLeafTests.set(key, test);
  return test;
}

/** The boolean path of `true` (and of a node not compiled yet): one step, and every instance is valid. */
const CHARGE_ONE: Test = (_instance, run) => {
  if (++run.steps > run.maxSteps) run.limit("maxEvaluationSteps");
  return true;
};

/** A node that accepts everything on the boolean path still charges its entry. */
function chargeOnly(cost: number): Test {
  return (_instance, run) => {
    if ((run.steps += cost) > run.maxSteps) run.limit("maxEvaluationSteps");
    return true;
  };
}

function falseSchemaResult(out: NodeResult, instance: unknown, run: Run): KeywordResult {
  const unit = new KeywordResult(out, "false", "", out.absoluteKeywordLocation);
  unit.valid = false;
  unit.error = "no value is allowed here (the schema is false)";
  if (run.messages !== undefined) renderMessage(run.messages, unit, instance);
  return unit;
}
