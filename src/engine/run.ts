/**
 * Evaluation: one `Run` per validated instance. It carries the counters behind the limits and the dynamic scope
 * (Core §7.1), and it is the boolean path's way of applying subschemas (`Applier`): the output path has its own
 * applier (`applicator.ts`) that records child results. Evaluated marks travel as an argument.
 */

import { LimitError } from "./errors.js";
import { codePointLength, type StepMeter } from "./json.js";
import { typeBits } from "./types.js";
import type { Limits } from "./limits.js";
import type { Marks } from "./marks.js";
import type { NodeResult } from "./output.js";
import type { RegexMeter } from "./regex/index.js";

/** A compiled subschema as keywords see it: both paths, and what is known of it at compile time. */
export interface Subschema {
  /** Its absolute location (base URI `#` JSON Pointer), for output. */
  readonly absoluteLocation: string;
  /** `true` or `false` for boolean schemas. */
  readonly constant: boolean | undefined;
  /** Accepts every instance on the boolean path (`true`, `{}`, annotation-only schemas). */
  readonly isTrivial: boolean;
  /**
   * Whether the boolean path is only `typeMask` and `holds` (no subschemas, marks or scope): loops over many
   * members then test it inline. Read at evaluation time (a recursive target is compiled last).
   */
  readonly leaf: boolean;
  /** Its `type` mask (0: none), tested inline by whoever tests a leaf. */
  readonly typeMask: number;
  /** Whether it has assertions besides `type`, and all of them as one predicate (`assertionsHold`). */
  readonly asserts: boolean;
  readonly holds: (instance: unknown, run: Run) => boolean;
  /** The steps one test charges (one per keyword). */
  readonly cost: number;
  /** The boolean path: stops at the first failure, builds no strings. */
  test(instance: unknown, run: Run, marks: Marks | undefined): boolean;
  /** The output path: the same verdict, with keyword results, messages and annotations in `out`. */
  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean;
}

/** The compiled `$dynamicAnchor`s of one schema resource, by name. */
export type DynamicAnchors = ReadonlyMap<string, Subschema>;

/**
 * One frame of the dynamic scope, innermost first: a resource entered during evaluation. Only resources that
 * define a `$dynamicAnchor` are pushed, since only they can be a `$dynamicRef`'s target (Core §8.2.3.2).
 */
export interface ScopeFrame {
  readonly anchors: DynamicAnchors;
  readonly next: ScopeFrame | null;
}

/**
 * How an applicator keyword applies its subschemas, the same on both paths. On the boolean path (`Run`) a `false`
 * return means a subschema failed and the keyword stops; on the output path every application is recorded and the
 * return is always `true`, so the keyword visits everything.
 */
export interface Applier {
  /**
   * Applies `node` to `value`, the instance's member at `key`. `at`, a JSON Pointer token, extends the keyword
   * location (`properties` → its name, `prefixItems` → its index); only the output path turns it into text.
   */
  child(node: Subschema, value: unknown, key: string | number, at?: string | number): boolean;
  /** Applies `node` to the instance itself, sharing this location's evaluated marks. */
  inPlace(node: Subschema, instance: unknown, marks: Marks | undefined, at?: string | number): boolean;
  /** Applies `node` to every item of `array` from index `from` on (one member each). */
  eachItem(node: Subschema, array: readonly unknown[], from: number): boolean;
  /** The object's own keys, checked against `maxObjectProperties`; one step each. */
  keys(object: object): string[];
  /** Checks an array's length against `maxArrayLength`. */
  items(array: readonly unknown[]): void;
  /** Charges work the keyword does itself (names probed, entries checked). */
  spend(steps: number): void;
}

export class Run implements Applier, StepMeter, RegexMeter {
  steps = 0;
  instanceDepth = 0;
  instanceNodes = 0;
  nesting = 0;
  references = 0;
  scope: ScopeFrame | null = null;
  /** Copies of the limits read on every node, without a second dereference. */
  readonly maxSteps: number;
  readonly maxNesting: number;
  readonly maxInstanceDepth: number;
  readonly maxInstanceNodes: number;
  readonly maxReferenceDepth: number;
  /** What one regular-expression match may spend (the regex engine charges its work to `steps`). */
  readonly maxRegexSteps: number;

  constructor(
    readonly limits: Readonly<Limits>,
    /** Whether a `$dynamicRef` can read the dynamic scope: only then are frames pushed. */
    readonly tracksScope: boolean,
    /** Output path only: keep units that neither fail nor annotate (the verbose format). */
    readonly keepAll = false,
  ) {
    this.maxSteps = limits.maxEvaluationSteps;
    this.maxNesting = limits.maxEvaluationDepth;
    this.maxInstanceDepth = limits.maxInstanceDepth;
    this.maxInstanceNodes = limits.maxInstanceNodes;
    this.maxReferenceDepth = limits.maxReferenceDepth;
    this.maxRegexSteps = limits.maxRegexSteps;
  }

  /**
   * Charges work to `maxEvaluationSteps` (README "Limits"): a node charges one step per keyword it evaluates, and
   * every loop over instance data charges its iterations here, so the limit bounds CPU time.
   */
  spend(steps: number, instancePointer?: string): void {
    if ((this.steps += steps) > this.maxSteps) this.limit("maxEvaluationSteps", instancePointer);
  }

  /** Whether an evaluation is using this run now (a reused run is taken only when it is not). */
  active = false;

  /** Makes a finished run ready for the next evaluation on the boolean path. */
  reset(): void {
    this.steps = 0;
    this.instanceDepth = 0;
    this.instanceNodes = 0;
    this.nesting = 0;
    this.references = 0;
    this.scope = null;
  }

  limit(name: keyof Limits, instancePointer?: string): never {
    throw new LimitError(name, this.limits[name], instancePointer === undefined ? {} : { instancePointer });
  }

  /** Enters a member of the current instance: one level deeper, one more value visited, one step. */
  enter(instancePointer?: string): void {
    if (++this.steps > this.maxSteps) this.limit("maxEvaluationSteps", instancePointer);
    if (++this.instanceDepth > this.maxInstanceDepth) this.limit("maxInstanceDepth", instancePointer);
    if (++this.instanceNodes > this.maxInstanceNodes) this.limit("maxInstanceNodes", instancePointer);
  }

  child(node: Subschema, value: unknown): boolean {
    if (!node.leaf) {
      this.enter();
      const valid = node.test(value, this, undefined);
      this.instanceDepth--;
      return valid;
    }
    // A leaf inline: what `enter` charges and the leaf's own steps at once, then its type mask and assertions.
    if ((this.steps += node.cost + 1) > this.maxSteps) this.limit("maxEvaluationSteps");
    if (this.instanceDepth + 1 > this.maxInstanceDepth) this.limit("maxInstanceDepth");
    if (++this.instanceNodes > this.maxInstanceNodes) this.limit("maxInstanceNodes");
    const mask = node.typeMask;
    if (mask !== 0 && (typeBits(value) & mask) === 0) return false;
    return !node.asserts || node.holds(value, this);
  }

  inPlace(node: Subschema, instance: unknown, marks: Marks | undefined): boolean {
    return node.test(instance, this, marks);
  }

  /**
   * The index of the first item of `array`, from `from` on, that the leaf subschema `node` accepts (-1: none), each
   * item tried charged as `child` charges it: the loop `contains` makes, without a call per item.
   */
  nextLeafMatch(node: Subschema, array: readonly unknown[], from: number): number {
    const per = node.cost + 1;
    const { typeMask, asserts, holds } = node;
    const { maxSteps, maxInstanceNodes } = this;
    if (from < array.length && this.instanceDepth + 1 > this.maxInstanceDepth) {
      // What the first item would hit, in `child`'s order: its steps, then the depth.
      if ((this.steps += per) > maxSteps) this.limit("maxEvaluationSteps");
      this.limit("maxInstanceDepth");
    }
    // The counters live in locals while no assertion runs (an assertion may charge steps itself).
    let steps = this.steps;
    let nodes = this.instanceNodes;
    let found = -1;
    for (let i = from; i < array.length; i++) {
      if ((steps += per) > maxSteps) {
        this.steps = steps;
        this.limit("maxEvaluationSteps");
      }
      if (++nodes > maxInstanceNodes) {
        this.steps = steps;
        this.limit("maxInstanceNodes");
      }
      const item = array[i];
      if (typeMask !== 0 && (typeBits(item) & typeMask) === 0) continue;
      if (!asserts) {
        found = i;
        break;
      }
      this.steps = steps;
      this.instanceNodes = nodes;
      const holdsHere = holds(item, this);
      steps = this.steps;
      nodes = this.instanceNodes;
      if (holdsHere) {
        found = i;
        break;
      }
    }
    this.steps = steps;
    this.instanceNodes = nodes;
    return found;
  }

  /**
   * The boolean path's array loop: a leaf item schema is one call per item (its composed assertions), with the same
   * accounting as `child` for each item: a step, a value, one level deeper, and the schema's own steps.
   */
  eachItem(node: Subschema, array: readonly unknown[], from: number): boolean {
    if (!node.leaf) {
      for (let i = from; i < array.length; i++) if (!this.child(node, array[i])) return false;
      return true;
    }
    if (array.length <= from) return true;
    if (this.instanceDepth + 1 > this.maxInstanceDepth) this.limit("maxInstanceDepth");
    // Charged in bulk, up front: what `child` and the leaf charge for each item (fail closed if it is too much).
    const items = array.length - from;
    if ((this.steps += items * (node.cost + 1)) > this.maxSteps) this.limit("maxEvaluationSteps");
    if ((this.instanceNodes += items) > this.maxInstanceNodes) this.limit("maxInstanceNodes");
    const { typeMask, holds } = node;
    // One loop per shape of leaf, so that the loop V8 optimises has no branch it does not need.
    if (!node.asserts) {
      if (typeMask === 0) return true;
      for (let i = from; i < array.length; i++) if ((typeBits(array[i]) & typeMask) === 0) return false;
      return true;
    }
    if (typeMask === 0) {
      for (let i = from; i < array.length; i++) if (!holds(array[i], this)) return false;
      return true;
    }
    for (let i = from; i < array.length; i++) {
      const item = array[i];
      if ((typeBits(item) & typeMask) === 0 || !holds(item, this)) return false;
    }
    return true;
  }

  keys(object: object, instancePointer?: string): string[] {
    const keys = Object.keys(object);
    if (keys.length > this.limits.maxObjectProperties) this.limit("maxObjectProperties", instancePointer);
    this.spend(keys.length, instancePointer);
    return keys;
  }

  /** Checks a string against `maxStringLength` (code points) before a keyword scans it. */
  string(value: string, instancePointer?: string): void {
    const max = this.limits.maxStringLength;
    if (value.length > max && codePointLength(value) > max) this.limit("maxStringLength", instancePointer);
  }

  items(array: readonly unknown[], instancePointer?: string): void {
    if (array.length > this.limits.maxArrayLength) this.limit("maxArrayLength", instancePointer);
  }
}
