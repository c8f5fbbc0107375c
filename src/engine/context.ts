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

  constructor(
    readonly limits: Readonly<Limits>,
    readonly tracksScope: boolean,
    /** Output path only: keep units that neither fail nor annotate (the verbose format). */
    readonly keepAll = false,
  ) {}

  limit(name: keyof Limits, instancePointer?: string): never {
    throw new LimitError(name, this.limits[name], instancePointer === undefined ? {} : { instancePointer });
  }
}

/**
 * Evaluated properties and items of one instance location (Core §11): "all", a prefix count and a
 * sparse set, so `contains` matches can be expressed. Only allocated where an `unevaluated*` keyword reads it.
 */
export class Marks {
  allProps = false;
  props: Set<string> | null = null;
  allItems = false;
  prefix = 0;
  itemSet: Set<number> | null = null;

  addProp(name: string): void {
    (this.props ??= new Set()).add(name);
  }

  addItem(index: number): void {
    (this.itemSet ??= new Set()).add(index);
  }

  hasProp(name: string): boolean {
    return this.allProps || (this.props !== null && this.props.has(name));
  }

  hasItem(index: number): boolean {
    return this.allItems || index < this.prefix || (this.itemSet !== null && this.itemSet.has(index));
  }

  merge(other: Marks): void {
    if (other.allProps) this.allProps = true;
    else if (other.props !== null) for (const p of other.props) this.addProp(p);
    if (other.allItems) this.allItems = true;
    if (other.prefix > this.prefix) this.prefix = other.prefix;
    if (other.itemSet !== null) for (const i of other.itemSet) this.addItem(i);
  }
}
