/**
 * The evaluation context: one `Run` per validated instance. It carries the dynamic scope (Core §7.1),
 * the counters behind the limits, and nothing else; evaluated marks travel as an argument.
 */

import { LimitError } from "./errors.js";
import type { Limits } from "./limits.js";
import type { Resource } from "./resources.js";

/** One frame of the dynamic scope: a schema resource entered during evaluation, innermost first. */
export interface ScopeFrame {
  readonly resource: Resource;
  readonly next: ScopeFrame | null;
}

export class Run {
  steps = 0;
  instanceDepth = 0;
  instanceNodes = 0;
  nesting = 0;
  references = 0;
  scope: ScopeFrame | null = null;
  /** Copies of the hot limits, read on every node without a second dereference. */
  readonly maxSteps: number;
  readonly maxNesting: number;
  readonly maxInstanceDepth: number;
  readonly maxInstanceNodes: number;

  constructor(
    readonly limits: Readonly<Limits>,
    readonly tracksScope: boolean,
    /** Output path only: keep units that neither fail nor annotate (the verbose format). */
    readonly keepAll = false,
  ) {
    this.maxSteps = limits.maxEvaluationSteps;
    this.maxNesting = limits.maxEvaluationDepth;
    this.maxInstanceDepth = limits.maxInstanceDepth;
    this.maxInstanceNodes = limits.maxInstanceNodes;
  }

  /**
   * Charges work to `maxEvaluationSteps` (README "Limits"): a node charges one step per keyword it
   * evaluates, and every loop over instance data charges its iterations here, so the limit bounds CPU time.
   */
  spend(steps: number, instancePointer?: string): void {
    if ((this.steps += steps) > this.maxSteps) this.limit("maxEvaluationSteps", instancePointer);
  }

  limit(name: keyof Limits, instancePointer?: string): never {
    throw new LimitError(name, this.limits[name], instancePointer === undefined ? {} : { instancePointer });
  }
}

const NO_NAMES: readonly ReadonlySet<string>[] = [];
const NO_NAME_SET: ReadonlySet<string> = new Set();
const NO_INDICES: ReadonlySet<number> = new Set();

/**
 * Evaluated properties and items of one instance location (Core §11), kept only where an
 * `unevaluated*` keyword reads them: "all", static name sets (a `properties` keyword marks its own
 * key set, no per-instance copy), single names, a prefix count, and single indices (`contains`).
 * Everything is append-only, so a failing branch is undone by truncation (`save`/`restore`), never copied.
 */
export class Marks {
  allProps = false;
  nameSets: ReadonlySet<string>[] = NO_NAMES as ReadonlySet<string>[];
  names: string[] | null = null;
  allItems = false;
  prefix = 0;
  indices: number[] | null = null;

  addNameSet(set: ReadonlySet<string>): void {
    if (this.nameSets === NO_NAMES) this.nameSets = [set];
    else this.nameSets.push(set);
  }

  addProp(name: string): void {
    (this.names ??= []).push(name);
  }

  addItem(index: number): void {
    (this.indices ??= []).push(index);
  }

  /** The names marked one by one, as a set for O(1) lookups: built once per reading, one step per name. */
  nameSet(run: Run): ReadonlySet<string> {
    if (this.names === null || this.names.length === 0) return NO_NAME_SET;
    run.spend(this.names.length);
    return new Set(this.names);
  }

  /** Whether `name` was evaluated; `marked` is this reading's `nameSet`. One step per set probed. */
  hasProp(name: string, marked: ReadonlySet<string>, run: Run): boolean {
    if (this.allProps) return true;
    const sets = this.nameSets;
    run.spend(sets.length + 1);
    for (let i = 0; i < sets.length; i++) if ((sets[i] as ReadonlySet<string>).has(name)) return true;
    return marked.has(name);
  }

  /** The indices marked one by one, as a set for O(1) lookups: built once per reading, one step per index. */
  indexSet(run: Run): ReadonlySet<number> {
    if (this.indices === null || this.indices.length === 0) return NO_INDICES;
    run.spend(this.indices.length);
    return new Set(this.indices);
  }

  /**
   * Takes in the marks of a valid subschema, one step per mark copied. "All" supersedes single marks,
   * so they are not copied then: a later `restore` that clears "all" also truncates everything after it.
   */
  merge(other: Marks, run: Run): void {
    if (other.allProps) this.allProps = true;
    else if (!this.allProps) {
      run.spend(other.nameSets.length + (other.names?.length ?? 0));
      for (const set of other.nameSets) this.addNameSet(set);
      if (other.names !== null) for (const n of other.names) this.addProp(n);
    }
    if (other.allItems) this.allItems = true;
    else if (!this.allItems) {
      if (other.prefix > this.prefix) this.prefix = other.prefix;
      run.spend(other.indices?.length ?? 0);
      if (other.indices !== null) for (const i of other.indices) this.addItem(i);
    }
  }

  /** A checkpoint to `restore` when the branch evaluated after it fails. */
  save(): MarksCheckpoint {
    return {
      allProps: this.allProps,
      nameSets: this.nameSets.length,
      names: this.names?.length ?? 0,
      allItems: this.allItems,
      prefix: this.prefix,
      indices: this.indices?.length ?? 0,
    };
  }

  restore(c: MarksCheckpoint): void {
    this.allProps = c.allProps;
    if (this.nameSets.length > c.nameSets) this.nameSets.length = c.nameSets;
    if (this.names !== null) this.names.length = c.names;
    this.allItems = c.allItems;
    this.prefix = c.prefix;
    if (this.indices !== null) this.indices.length = c.indices;
  }
}

export interface MarksCheckpoint {
  readonly allProps: boolean;
  readonly nameSets: number;
  readonly names: number;
  readonly allItems: boolean;
  readonly prefix: number;
  readonly indices: number;
}
