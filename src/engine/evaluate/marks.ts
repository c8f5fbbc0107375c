/**
 * Evaluated properties and items of one instance location (Core §11), kept only where an `unevaluated*` keyword
 * reads them: "all", static name sets (a `properties` keyword marks its own key set, no per-instance copy), single
 * names, a prefix count, and single indices (`contains`). Everything is append-only, so a failing branch is undone
 * by truncation (`save`/`restore`), never copied. Lookups are O(1): single names and indices are turned into a set
 * once per reading.
 */

import type { StepMeter } from "../json/json.js";

const NO_NAME_SETS: readonly ReadonlySet<string>[] = [];
const NO_NAMES: ReadonlySet<string> = new Set();
const NO_INDICES: ReadonlySet<number> = new Set();

/**
 * What the keywords at one instance location evaluated, for `unevaluatedProperties`/`unevaluatedItems` (Core §11). A
 * keyword gets it only when such a keyword can read it (otherwise `undefined`), and marks what it applied a subschema
 * to: `addProp` per property name, `addItem` per array index (or a name set, a prefix, everything, in one step).
 */
export class Marks {
  /** Every property was evaluated (`additionalProperties`). */
  allProps = false;
  /** @internal */
  nameSets: ReadonlySet<string>[] = NO_NAME_SETS as ReadonlySet<string>[];
  /** @internal */
  names: string[] | null = null;
  /** Every item was evaluated (`items`). */
  allItems = false;
  /** Items below this index were evaluated (`prefixItems`). */
  prefix = 0;
  /** @internal */
  indices: number[] | null = null;

  /** Marks every name of a set the keyword owns (kept, not copied: the set must not change). */
  addNameSet(set: ReadonlySet<string>): void {
    if (this.nameSets === NO_NAME_SETS) this.nameSets = [set];
    else this.nameSets.push(set);
  }

  /** Marks one property name as evaluated. */
  addProp(name: string): void {
    (this.names ??= []).push(name);
  }

  /** Marks one array index as evaluated. */
  addItem(index: number): void {
    (this.indices ??= []).push(index);
  }

  /**
   * @internal
   * Every name marked, as one set for O(1) lookups, one step per name taken in. A single static set and no single
   * names is returned as it is; a union of static sets only is looked up in `unions` (the reading keyword's, filled
   * as the combinations of passing branches are met) before it is built. The steps are the same either way.
   */
  nameSet(meter: StepMeter, unions?: NameSetUnions): ReadonlySet<string> {
    const sets = this.nameSets;
    const names = this.names;
    if (names === null || names.length === 0) {
      if (sets.length === 0) return NO_NAMES;
      if (sets.length === 1) return sets[0] as ReadonlySet<string>;
      if (unions !== undefined) return unions.of(sets, meter);
    }
    const all = new Set<string>(names ?? []);
    meter.spend(all.size);
    return addAll(all, sets, meter);
  }

  /** @internal The indices marked one by one, as a set: built once per reading, one step per index. */
  indexSet(meter: StepMeter): ReadonlySet<number> {
    if (this.indices === null || this.indices.length === 0) return NO_INDICES;
    meter.spend(this.indices.length);
    return new Set(this.indices);
  }

  /**
   * @internal
   * Takes in the marks of a valid subschema, one step per mark copied. "All" supersedes single marks, so they are
   * not copied then: a later `restore` that clears "all" also truncates everything after it.
   */
  merge(other: Marks, meter: StepMeter): void {
    if (other.allProps) this.allProps = true;
    else if (!this.allProps) {
      meter.spend(other.nameSets.length + (other.names?.length ?? 0));
      for (const set of other.nameSets) this.addNameSet(set);
      if (other.names !== null) for (const n of other.names) this.addProp(n);
    }
    if (other.allItems) this.allItems = true;
    else if (!this.allItems) {
      if (other.prefix > this.prefix) this.prefix = other.prefix;
      meter.spend(other.indices?.length ?? 0);
      if (other.indices !== null) for (const i of other.indices) this.addItem(i);
    }
  }

  /** @internal A checkpoint to `restore` when the branch evaluated after it fails. */
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

  /** @internal Undoes every mark made after the checkpoint. */
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

/**
 * The unions of static name sets an `unevaluatedProperties` keyword has read, by the sets they combine: the same
 * branches passing on the next instance give the same union without building it again. At most `capacity`
 * combinations are kept (a schema's combinations of branches can be many); others are built on every reading.
 */
export class NameSetUnions {
  private readonly known: { readonly sets: readonly ReadonlySet<string>[]; readonly union: ReadonlySet<string> }[] = [];

  constructor(private readonly capacity = 16) {}

  of(sets: readonly ReadonlySet<string>[], meter: StepMeter): ReadonlySet<string> {
    for (const { sets: seen, union } of this.known) {
      if (!sameSets(seen, sets)) continue;
      for (const set of sets) meter.spend(set.size);
      return union;
    }
    const union = addAll(new Set<string>(), sets, meter);
    if (this.known.length < this.capacity) this.known.push({ sets: sets.slice(), union });
    return union;
  }
}

/** Whether two lists hold the same sets (the same objects) in the same order. */
function sameSets(a: readonly ReadonlySet<string>[], b: readonly ReadonlySet<string>[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Adds every name of `sets` to `into`, one step per name taken in. */
function addAll(into: Set<string>, sets: readonly ReadonlySet<string>[], meter: StepMeter): Set<string> {
  for (const set of sets) {
    meter.spend(set.size);
    for (const name of set) into.add(name);
  }
  return into;
}
