/**
 * Evaluation: one `Run` per validated instance. It carries the counters behind the limits and the dynamic scope
 * (Core §7.1), and it is the boolean path's way of applying subschemas (`Applier`): the output path has its own
 * applier (`applicator.ts`) with the same operations, recording child results. Evaluated marks travel as an argument.
 */

import type { MessageRenderer } from "../output/error-text.js";
import { isInstance, LimitError } from "../errors.js";
import type { EvaluatedItems, EvaluatedProperties } from "./evaluated.js";
import { codePointLength } from "../json/json.js";
import { escapeToken } from "../json/pointer.js";
import type { Limits } from "../limits.js";
import type { Marks } from "./marks.js";
import type { KeywordResult, Located, NodeResult } from "../output/output.js";
import type { CompiledPattern } from "../regex/index.js";

/** A compiled subschema as keywords see it: what it is, and its two paths. How it is tested is the engine's. */
export interface Subschema {
  /** Its absolute location (base URI `#` JSON Pointer), for output. */
  readonly absoluteLocation: string;
  /** `true` or `false` for boolean schemas. */
  readonly constant: boolean | undefined;
  /** Accepts every instance on the boolean path (`true`, `{}`, annotation-only schemas). */
  readonly isTrivial: boolean;
  /** The boolean path, applied to the instance itself: stops at the first failure, builds no strings. */
  test(instance: unknown, run: Run, marks: Marks | undefined): boolean;
  /** The output path: the same verdict, with keyword results, messages and annotations in `out`. */
  evaluate(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean;
  /**
   * @internal
   * What it evaluates of an object's properties whenever it passes, when known at compile time (`evaluated.ts`).
   */
  evaluatedProperties(): EvaluatedProperties | undefined;
  /** @internal The same for an array's items. */
  evaluatedItems(): EvaluatedItems | undefined;
}

/**
 * @internal What the boolean path's applier asks of a compiled subschema besides (the schema node implements it):
 * the member primitive, written once. Entering a member of the instance charges one step and the subschema's own
 * steps, one level of `maxInstanceDepth` and one value of `maxInstanceNodes`, in that order, whatever the subschema.
 */
export interface Member extends Subschema {
  /** Applies to `value`, a member of the current instance. */
  member(value: unknown, run: Run): boolean;
  /** Applies to every item of `array` from `from` on, one member each; false at the first that fails. */
  eachItem(array: readonly unknown[], from: number, run: Run): boolean;
  /** The index of the first item of `array` from `from` on that passes (-1: none), each item tried a member. */
  firstMatch(array: readonly unknown[], from: number, run: Run): number;
  /**
   * What entering it as a member charges when it is a leaf whose assertions are pure (they charge nothing of their
   * own, so members of it can be entered together); -1 otherwise.
   */
  readonly batchSteps: number;
  /** Tests a member already entered (`Run.enterAll`): a pure leaf's mask and assertions, nothing charged. */
  entered(value: unknown): boolean;
}

const NO_KEYS: string[] = [];

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
 * return of `child`, `inPlace` or `eachItem` means a subschema failed and the keyword stops; on the output path
 * every application is recorded and those return `true`, so the keyword visits everything. `tryInPlace` and
 * `firstMatch` answer truly on both paths: the keywords that call them decide by the answer.
 */
export interface Applier {
  /**
   * Applies `node` to `value`, the instance's member at `key`. `at`, a JSON Pointer token, extends the keyword
   * location (`properties` → its name, `prefixItems` → its index); only the output path turns it into text.
   */
  child(node: Subschema, value: unknown, key: string | number, at?: string | number): boolean;
  /** Applies `node` to the instance itself, sharing this location's evaluated marks. */
  inPlace(node: Subschema, instance: unknown, marks: Marks | undefined, at?: string | number): boolean;
  /**
   * Tries `node` on the instance itself: its evaluated marks are kept only when it passes (what `anyOf`, `oneOf` and
   * `if` need of their branches).
   */
  tryInPlace(node: Subschema, instance: unknown, marks: Marks | undefined, at?: string | number): boolean;
  /** Applies `node` to every item of `array` from index `from` on (one member each). */
  eachItem(node: Subschema, array: readonly unknown[], from: number): boolean;
  /** The index of the first item from `from` on that `node` accepts, or -1; items that fail leave no trace. */
  firstMatch(node: Subschema, array: readonly unknown[], from: number): number;
  /** True on the output path, which must visit everything; false on the boolean path, which may stop early. */
  readonly exhaustive: boolean;
  /** The object's own keys, checked against `maxObjectProperties`; one step each. */
  keys(object: object): string[];
  /** Checks an array's length against `maxArrayLength`. */
  items(array: readonly unknown[]): void;
  /** Charges work the keyword does itself (names probed, entries checked). */
  spend(steps: number): void;
}

/**
 * One evaluation on the boolean path, as a keyword sees it: where it charges its work (`spend`), checks sizes
 * against the limits (`string`, `items`, `keys`) and applies subschemas (the `Applier` operations). A keyword that
 * loops over instance data charges every iteration, so `maxEvaluationSteps` bounds its time as it bounds the
 * engine's. The counters and the dynamic scope are the engine's.
 */
export class Run implements Applier {
  /** @internal */
  steps = 0;
  /** @internal */
  instanceDepth = 0;
  /** @internal */
  instanceNodes = 0;
  /** @internal */
  nesting = 0;
  /** @internal */
  references = 0;
  /** @internal */
  scope: ScopeFrame | null = null;
  /** False: the boolean path may stop at the first failure. */
  readonly exhaustive = false;
  /** @internal Copies of the limits read on every node, without a second dereference. */
  readonly maxSteps: number;
  /** @internal */
  readonly maxNesting: number;
  /** @internal */
  readonly maxInstanceDepth: number;
  /** @internal */
  readonly maxInstanceNodes: number;
  /** @internal */
  readonly maxReferenceDepth: number;
  /** @internal What one regular-expression match may spend (the regex engine charges its work to `steps`). */
  readonly maxRegexSteps: number;

  /** @internal */
  constructor(
    /** The limits in force. */
    readonly limits: Readonly<Limits>,
    /** @internal Whether a `$dynamicRef` can read the dynamic scope: only then are frames pushed. */
    readonly tracksScope: boolean,
    /** @internal Output path only: keep units that neither fail nor annotate (the verbose format). */
    readonly keepAll = false,
    /** @internal Output path only: the host's renderer of failing keywords' messages (`messages` option). */
    readonly messages: MessageRenderer | undefined = undefined,
  ) {
    this.maxSteps = limits.maxEvaluationSteps;
    this.maxNesting = limits.maxEvaluationDepth;
    this.maxInstanceDepth = limits.maxInstanceDepth;
    this.maxInstanceNodes = limits.maxInstanceNodes;
    this.maxReferenceDepth = limits.maxReferenceDepth;
    this.maxRegexSteps = limits.maxRegexSteps;
  }

  /**
   * Charges work to `maxEvaluationSteps` (docs/reference/limits.md): a node charges one step per keyword it evaluates,
   * and every loop over instance data charges its iterations here, so the limit bounds CPU time.
   */
  spend(steps: number, where?: Located): void {
    if ((this.steps += steps) > this.maxSteps) this.limit("maxEvaluationSteps", where);
  }

  /** @internal Whether an evaluation is using this run now (a reused run is taken only when it is not). */
  active = false;

  /**
   * @internal The member name a pattern is being matched against (`matchName`), so that the output path locates a
   * limit hit inside that match at the member (`located`); undefined outside such a match.
   */
  matching: string | undefined = undefined;

  /** @internal Makes a finished run ready for the next evaluation on the boolean path. */
  reset(): void {
    this.matching = undefined;
    this.release();
    this.steps = 0;
    this.instanceDepth = 0;
    this.instanceNodes = 0;
    this.nesting = 0;
    this.references = 0;
    this.scope = null;
  }

  /** @internal Lets go of the instance data the run holds (a reused run outlives the call). */
  release(): void {
    this.keysOf = undefined;
    this.keyList = NO_KEYS;
  }

  /**
   * Throws the `LimitError` of the limit `name` (an `execution_failure`): for a keyword that finds a limit of its
   * own exceeded. `where` (the output path's result) locates it, its text made only now.
   */
  limit(name: keyof Limits, where?: Located): never {
    throw new LimitError(
      name,
      this.limits[name],
      where === undefined ? {} : { instancePointer: where.instanceLocation },
    );
  }

  /**
   * @internal
   * Whether `pattern` matches `name`, a member name of the current instance (`patternProperties`,
   * `additionalProperties`), its work charged here; a limit the match hits is located at that member on the output
   * path (`located`).
   */
  matchName(pattern: CompiledPattern, name: string): boolean {
    this.matching = name;
    const found = pattern.test(name, this);
    this.matching = undefined;
    return found;
  }

  /**
   * @internal
   * Output path: `e`, thrown from inside the keyword of `unit`, as the node rethrows it. A `LimitError` that carries no
   * location (one hit inside a regular-expression match, which knows nothing of locations, or by an assertion that
   * charged or checked without one) is located at the keyword: its instance location (the member whose name was being
   * matched, if any) and keyword location. Anything else is returned unchanged.
   */
  located(e: unknown, unit: KeywordResult): unknown {
    const name = this.matching;
    this.matching = undefined;
    if (!isInstance(e, LimitError) || e.instancePointer !== undefined || e.schemaPointer !== undefined) return e;
    const member = name === undefined ? "" : "/" + escapeToken(name);
    return new LimitError(e.limit, e.value, {
      instancePointer: unit.instanceLocation + member,
      schemaPointer: unit.keywordLocation,
    });
  }

  /**
   * @internal
   * Enters a member of the current instance (the member primitive's accounting, docs/reference/limits.md): `steps`
   * steps (one, and what the subschema charges on entry), one level deeper than here, one more value. A caller that
   * then descends into a subschema which is not a leaf raises `instanceDepth` around it.
   */
  enter(steps: number, where?: Located): void {
    if ((this.steps += steps) > this.maxSteps) this.limit("maxEvaluationSteps", where);
    if (this.instanceDepth >= this.maxInstanceDepth) this.limit("maxInstanceDepth", where);
    if (++this.instanceNodes > this.maxInstanceNodes) this.limit("maxInstanceNodes", where);
  }

  /** Applies `node` to `value`, a member of the instance (see `Applier.child`). */
  child(node: Subschema, value: unknown): boolean {
    return (node as Member).member(value, this);
  }

  /**
   * @internal
   * For a fusion that knows the members it will enter: what entering `node` as a member charges when it is a pure
   * leaf (`Member.batchSteps`); -1 when it is not.
   */
  batchSteps(node: Subschema): number {
    return (node as Member).batchSteps;
  }

  /**
   * @internal
   * Enters `count` members of pure leaves at once, charging `steps` (their `batchSteps`): true when nothing is passed,
   * else false with nothing charged, so that the caller enters them one by one and the limit is hit at the member
   * that hits it. A caller that stops early gives back what it did not use (`refund`): the total is then exactly what
   * entering them one by one charges.
   */
  enterAll(steps: number, count: number): boolean {
    if (count === 0) return true;
    if (this.steps + steps > this.maxSteps || this.instanceNodes + count > this.maxInstanceNodes) return false;
    if (this.instanceDepth >= this.maxInstanceDepth) return false;
    this.steps += steps;
    this.instanceNodes += count;
    return true;
  }

  /** @internal Gives back the steps and members `enterAll` charged for members not applied. */
  refund(steps: number, count: number): void {
    this.steps -= steps;
    this.instanceNodes -= count;
  }

  /** @internal Applies a pure leaf to a member `enterAll` entered. */
  entered(node: Subschema, value: unknown): boolean {
    return (node as Member).entered(value);
  }

  /** Applies `node` to the instance itself (see `Applier.inPlace`). */
  inPlace(node: Subschema, instance: unknown, marks: Marks | undefined): boolean {
    return node.test(instance, this, marks);
  }

  /** Tries `node` on the instance itself, keeping its marks only when it passes (see `Applier.tryInPlace`). */
  tryInPlace(node: Subschema, instance: unknown, marks: Marks | undefined): boolean {
    if (marks === undefined) return node.test(instance, this, undefined);
    const saved = marks.save();
    if (node.test(instance, this, marks)) return true;
    marks.restore(saved);
    return false;
  }

  /** Applies `node` to every item from `from` on (see `Applier.eachItem`). */
  eachItem(node: Subschema, array: readonly unknown[], from: number): boolean {
    return (node as Member).eachItem(array, from, this);
  }

  /** The index of the first item from `from` on that `node` accepts, or -1 (see `Applier.firstMatch`). */
  firstMatch(node: Subschema, array: readonly unknown[], from: number): number {
    return (node as Member).firstMatch(array, from, this);
  }

  /** The object whose keys `ownKeys` listed last, and its keys: sibling keywords that list one object list it once. */
  private keysOf: object | undefined = undefined;
  private keyList: string[] = NO_KEYS;

  /**
   * @internal
   * The object's own enumerable keys, neither checked nor charged (the caller does both): listed once for the
   * sibling keywords that read one object (`Object.keys` of a large object, which V8 keeps as a dictionary, costs
   * about as much as evaluating its members). Keywords only read the list; an object's keys do not change while it
   * is evaluated (it is data).
   */
  ownKeys(object: object): string[] {
    if (object === this.keysOf) return this.keyList;
    const keys = Object.keys(object);
    this.keysOf = object;
    this.keyList = keys;
    return keys;
  }

  /** The object's own enumerable keys, checked against `maxObjectProperties` and charged one step each. */
  keys(object: object, where?: Located): string[] {
    const keys = this.ownKeys(object);
    if (keys.length > this.limits.maxObjectProperties) this.limit("maxObjectProperties", where);
    this.spend(keys.length, where);
    return keys;
  }

  /** Checks a string against `maxStringLength` (code points) before a keyword scans it. */
  string(value: string, where?: Located): void {
    const max = this.limits.maxStringLength;
    if (value.length > max && codePointLength(value) > max) this.limit("maxStringLength", where);
  }

  /** Checks an array's length against `maxArrayLength` before a keyword iterates it. */
  items(array: readonly unknown[], where?: Located): void {
    if (array.length > this.limits.maxArrayLength) this.limit("maxArrayLength", where);
  }
}
