/**
 * Fusion `objectMembers`: the boolean path of `required`, `properties`, `patternProperties` and
 * `additionalProperties` of one schema in one pass (a named optimisation, see `Fusion` in the engine's keyword
 * protocol). Members go through the applier's member primitive. The plain keywords remain the specification: the
 * output path uses them, and a differential test compares both paths on every branch of this one.
 *
 * Without patterns, the instance's own keys and values are listed once (`Object.keys`, `Object.values`: the fastest
 * way to read an object's values whatever shapes the evaluator has seen) and compared with the key layout the last
 * instance had (its keys in order, and which declared name each is): an object laid out the same way (tool calls
 * mostly are) is checked without a lookup per key, its `required` names known present, and when its members are
 * pure leaves they are entered at once. With patterns, each declared name is read once, then the own keys (the
 * applier's `keys`) are walked once, each tested against each pattern once.
 */

import { hasOwn, isObject } from "../../engine/json.js";
import type { BooleanStep, CompileContext, Fusion } from "../../engine/keyword.js";
import type { Marks } from "../../engine/marks.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Run, Subschema } from "../../engine/run.js";

/** What one schema object's member keywords say, compiled. */
interface Members {
  /** `properties`' names in order, their subschemas, and whether `required` lists each. */
  readonly names: readonly string[];
  readonly nodes: readonly Subschema[];
  readonly requiredHere: readonly boolean[];
  /** Per name: whether a plain object can inherit it, so that reading it needs the own-property test. */
  readonly inheritable: readonly boolean[];
  /** `properties`' names as a set (the marks an `unevaluatedProperties` reads), undefined without `properties`. */
  readonly nameSet: ReadonlySet<string> | undefined;
  /** The names `required` lists that `properties` does not. */
  readonly requiredElsewhere: readonly string[];
  /** `patternProperties`' patterns and their subschemas. */
  readonly patterns: readonly CompiledPattern[];
  readonly patternNodes: readonly Subschema[];
  /** `additionalProperties`' subschema, when present. */
  readonly additional: Subschema | undefined;
  /** Steps the plain keywords charge for their names (`properties` one per name, `required` one per name). */
  readonly steps: number;
}

/** Up to this many declared names (and no `additionalProperties`), each is read from the instance by name. */
const FEW_READS = 3;

/** Up to this many declared names, a key is looked up by comparing it with each; beyond, in a map. */
const COMPARED_NAMES = 8;

/** Names a plain object inherits (or that reach its prototype): reading them needs the own-property test. */
const INHERITABLE: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"]);

/** Whether two key lists are the same keys in the same order (keys are interned strings: mostly one compare each). */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The key layout of the last instance: its own keys in order, the declared name of each (-1: none). */
interface Layout {
  readonly keys: readonly string[];
  readonly slots: readonly number[];
  /** Whether every `required` name is among the keys. */
  readonly complete: boolean;
  /**
   * What entering every member the layout applies a subschema to charges, when each is a pure leaf (the applier's
   * `batchSteps`), with that charge per key; -1 when one is not (members are then entered one by one).
   */
  readonly batch: number;
  readonly members: number;
  readonly costs: readonly number[];
}

class ObjectMembers implements BooleanStep {
  /** The declared names by name, when there are too many to compare (`COMPARED_NAMES`). */
  private readonly index: ReadonlyMap<string, number> | undefined;
  /** Whether the instance's keys must be walked (patterns or `additionalProperties` to apply). */
  private readonly walks: boolean;
  /** How many declared names `required` lists. */
  private readonly requiredDeclared: number;
  /** The last instance's layout; replaced, never changed, so that an evaluation nested in a walk cannot disturb it. */
  private layout: Layout | undefined;

  constructor(private readonly m: Members) {
    this.index = m.names.length > COMPARED_NAMES ? new Map(m.names.map((name, i) => [name, i])) : undefined;
    this.walks = m.patterns.length > 0 || (m.additional !== undefined && !m.additional.isTrivial);
    this.requiredDeclared = m.requiredHere.filter(Boolean).length;
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if (!isObject(instance)) return true;
    const m = this.m;
    if (marks !== undefined) {
      if (m.nameSet !== undefined) marks.addNameSet(m.nameSet);
      if (m.additional !== undefined) marks.allProps = true;
    }
    run.spend(m.steps);
    // A few names and nothing for the other keys: reading each name costs less than listing the keys and values.
    if (m.patterns.length === 0 && m.additional === undefined && m.names.length <= FEW_READS) {
      return this.declared(instance, run) >= 0 && this.requiredOthers(instance);
    }
    if (m.patterns.length === 0) return this.enumerate(instance, run);
    const present = this.declared(instance, run);
    if (present < 0) return false;
    const required = m.requiredElsewhere;
    for (let i = 0; i < required.length; i++) if (!hasOwn(instance, required[i] as string)) return false;
    if (!this.walks) return true;
    return this.walk(instance, run, m.additional === undefined ? marks : undefined);
  }

  /**
   * Enumerates the instance's keys once against the last layout (see the module comment): each declared key's
   * subschema applies, each other key gets `additionalProperties`; then `required`, known from the layout or checked.
   */
  private enumerate(instance: Record<string, unknown>, run: Run): boolean {
    const { nodes, additional } = this.m;
    const keys = Object.keys(instance);
    if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties");
    const values = Object.values(instance);
    // Only a host object's getters can make the two lists disagree: then each name is read on its own.
    if (values.length !== keys.length) {
      if (this.declared(instance, run) < 0 || !this.requiredOthers(instance)) return false;
      return !this.walks || this.walk(instance, run, undefined);
    }
    let layout = this.layout;
    if (layout === undefined || !sameKeys(layout.keys, keys)) this.layout = layout = this.layoutOf(keys, run);
    const { slots, costs, batch, members } = layout;
    // Pure leaves only: every member is entered at once, and what a failure leaves unused is given back.
    if (batch >= 0 && run.enterAll(batch, members)) {
      let used = 0;
      let applied = 0;
      for (let i = 0; i < keys.length; i++) {
        const slot = slots[i] as number;
        const node = slot >= 0 ? (nodes[slot] as Subschema) : additional;
        if (node === undefined || node.isTrivial) continue;
        used += costs[i] as number;
        applied++;
        if (run.entered(node, values[i])) continue;
        run.refund(batch - used, members - applied);
        return false;
      }
    } else {
      for (let i = 0; i < keys.length; i++) {
        const slot = slots[i] as number;
        const node = slot >= 0 ? (nodes[slot] as Subschema) : additional;
        if (node !== undefined && !node.isTrivial && !run.child(node, values[i])) return false;
      }
    }
    if (additional !== undefined) run.spend(keys.length);
    return layout.complete;
  }

  /** The layout of an instance's own keys, with what entering its members at once charges (see `Layout`). */
  private layoutOf(keys: readonly string[], run: Run): Layout {
    const { nodes, additional, requiredHere } = this.m;
    let batch = 0;
    let members = 0;
    let required = 0;
    const slots: number[] = [];
    const costs: number[] = [];
    for (const key of keys) {
      const slot = this.indexOf(key);
      slots.push(slot);
      if (requiredHere[slot] === true) required++;
      const node = slot >= 0 ? (nodes[slot] as Subschema) : additional;
      if (node === undefined || node.isTrivial) {
        costs.push(0);
        continue;
      }
      const steps = run.batchSteps([node]);
      batch = steps < 0 || batch < 0 ? -1 : batch + steps;
      members++;
      costs.push(steps);
    }
    // Every required name is an own key: the declared ones are counted, the others looked for among the keys.
    const own = new Set(keys);
    const complete = required === this.requiredDeclared && this.m.requiredElsewhere.every((name) => own.has(name));
    return { keys, slots, complete, batch, members, costs };
  }

  /** Whether every `required` name that `properties` does not declare is present (the declared ones are checked). */
  private requiredOthers(instance: Record<string, unknown>): boolean {
    const elsewhere = this.m.requiredElsewhere;
    for (let i = 0; i < elsewhere.length; i++) if (!hasOwn(instance, elsewhere[i] as string)) return false;
    return true;
  }

  /** Reads every declared name once: applies its subschema, or fails a required one. How many were present, or -1. */
  private declared(instance: Record<string, unknown>, run: Run): number {
    const { names, nodes, requiredHere, inheritable } = this.m;
    let present = 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      // JSON has no undefined, so a value read is there exactly when the property is, but for a name an object can
      // inherit (then the own-property test decides) and for an own property a host set to undefined.
      const value = instance[name];
      const here = value === undefined || inheritable[i] === true ? hasOwn(instance, name) : true;
      if (!here) {
        if (requiredHere[i] === true) return -1;
        continue;
      }
      present++;
      const node = nodes[i] as Subschema;
      if (!node.isTrivial && !run.child(node, value)) return -1;
    }
    return present;
  }

  /** The instance's own keys once: each against each pattern, then `additionalProperties` for the undeclared. */
  private walk(instance: Record<string, unknown>, run: Run, marks: Marks | undefined): boolean {
    const { patterns, patternNodes, additional } = this.m;
    const keys = run.keys(instance);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      let matched = false;
      for (let i = 0; i < patterns.length; i++) {
        if (!(patterns[i] as CompiledPattern).test(key, run)) continue;
        matched = true;
        marks?.addProp(key);
        if (!run.child(patternNodes[i] as Subschema, instance[key])) return false;
      }
      if (matched || additional === undefined || additional.isTrivial || this.indexOf(key) >= 0) continue;
      if (!run.child(additional, instance[key])) return false;
    }
    return true;
  }

  /** The index of `key` among the declared names, or -1. */
  private indexOf(key: string): number {
    if (this.index !== undefined) return this.index.get(key) ?? -1;
    const names = this.m.names;
    for (let i = 0; i < names.length; i++) if (names[i] === key) return i;
    return -1;
  }
}

/** The names of a `required` value that is an array of strings (the keyword itself reports a bad one). */
function requiredNames(ctx: CompileContext): readonly string[] {
  const value = ctx.active("required") ? ctx.schema["required"] : undefined;
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : [];
}

export const objectMembers: Fusion = {
  name: "objectMembers",
  keywords: ["required", "properties", "patternProperties", "additionalProperties"],
  compile(ctx: CompileContext): BooleanStep | undefined {
    const properties = ctx.active("properties") && isObject(ctx.schema["properties"]);
    const patterned = ctx.active("patternProperties") && isObject(ctx.schema["patternProperties"]);
    const closed = ctx.active("additionalProperties");
    if (!properties && !patterned && !closed) return undefined;
    const names = properties ? Object.keys(ctx.schema["properties"] as object) : [];
    const required = requiredNames(ctx);
    const listed = new Set(required);
    const declared = new Set(names);
    const patterns: CompiledPattern[] = [];
    const patternNodes: Subschema[] = [];
    for (const source of patterned ? Object.keys(ctx.schema["patternProperties"] as object) : []) {
      patterns.push(ctx.pattern(source, "patternProperties"));
      patternNodes.push(ctx.subschema("patternProperties", source));
    }
    return new ObjectMembers({
      names,
      nodes: names.map((name) => ctx.subschema("properties", name)),
      requiredHere: names.map((name) => listed.has(name)),
      inheritable: names.map((name) => INHERITABLE.has(name)),
      nameSet: properties ? declared : undefined,
      requiredElsewhere: [...listed].filter((name) => !declared.has(name)),
      patterns,
      patternNodes,
      additional: closed ? ctx.subschema("additionalProperties") : undefined,
      steps: names.length + required.length,
    });
  },
};
