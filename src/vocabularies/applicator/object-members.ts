/**
 * Fusion `objectMembers`: the boolean path of `required`, `properties`, `patternProperties` and
 * `additionalProperties` of one schema in one pass (a named optimisation, see `Fusion` in the engine's keyword
 * protocol). Members go through the applier's member primitive. The plain keywords remain the specification: the
 * output path uses them, and a differential test compares both paths on every branch of this one.
 *
 * The instance's own keys and values are listed once (`Object.keys`, `Object.values`: the fastest way to read an
 * object's values whatever shapes the evaluator has seen, and own properties only) and compared with the key layout
 * the last instance had (up to `LAID_OUT_KEYS` keys): its keys in order, and which declared name each is. An object
 * laid out the same way (tool calls mostly are) is checked without a lookup per key and its `required` names are
 * known present; when its members are pure leaves they are entered at once. Each key is tested against each pattern
 * once. A schema of a few names and nothing for other keys probes its names instead (an own-property test and a read
 * each). While layouts keep being missed (instances that keep changing shape, like a meta-schema's), no new ones
 * are made (`LAYOUT_WINDOW`): keys are looked up one by one, and a schema with nothing for other keys reads them
 * without a key list.
 */

import { hasOwn, isObject } from "../../engine/json/json.js";
import type { BooleanStep, CompileContext, Fusion } from "../../engine/evaluate/keyword.js";
import type { Marks } from "../../engine/evaluate/marks.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Run, Subschema } from "../../engine/evaluate/run.js";
import type { MembersForm } from "../../engine/evaluate/verdict-forms.js";

/** What one schema object's member keywords say, compiled. */
interface Members {
  /** `properties`' names in order, their subschemas, and whether `required` lists each. */
  readonly names: readonly string[];
  readonly nodes: readonly Subschema[];
  readonly requiredHere: readonly boolean[];
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

/** The key layout of an instance: its own keys in order, the declared name of each (-1: none). */
interface Layout {
  readonly keys: readonly string[];
  readonly slots: readonly number[];
  /** Whether every `required` name is among the keys. */
  readonly complete: boolean;
  /**
   * What entering every member the layout applies a subschema to charges, when there are no patterns and each is a
   * pure leaf (the applier's `batchSteps`), with that charge per key; -1 otherwise (members are entered one by one).
   */
  readonly batch: number;
  readonly members: number;
  readonly costs: readonly number[];
}

/**
 * Up to this many declared names, and nothing for other keys, each name is probed rather than the keys listed: the
 * verdict fast path decides most plain objects, so what comes here is mostly the branches of `allOf`/`anyOf`/`oneOf`
 * beside `unevaluatedProperties`, which declare a few names of larger objects (the unevaluated workload: 1,267 →
 * 1,070 ns per call with 8 instead of 3).
 */
const PROBED_NAMES = 8;

/** Up to this many keys, an object's values are listed at once (`Object.values`); beyond, read key by key. */
const LISTED_VALUES = 64;

/** Objects with more keys than this are read without a layout: none is made or kept for them. */
const LAID_OUT_KEYS = 1024;

/** How many key layouts are kept: a tool is called with a few sets of arguments, in turn. */
const KEPT_LAYOUTS = 4;

/**
 * Layouts pay off when instances repeat their shapes (tool calls); a schema that meets objects of ever new shapes
 * (a meta-schema's instances, schema objects) would make a layout on almost every call. Every `LAYOUT_WINDOW` layout
 * lookups, when fewer than half found a kept layout, the next `UNLAID_CALLS` instances get no new layout: a kept one
 * still serves, other keys are looked up one by one, and a schema with `properties` and `required` only reads its
 * instances without listing their keys. Then layouts are made again.
 */
const LAYOUT_WINDOW = 32;
const UNLAID_CALLS = 480;

/** Up to this many declared names, a key is looked up by comparing it with each; beyond, in a map. */
const COMPARED_NAMES = 8;

const NONE: never[] = [];

/** Whether two key lists are the same keys in the same order (keys are interned strings: mostly one compare each). */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class ObjectMembers implements BooleanStep {
  /** The declared names by name, when there are too many to compare (`COMPARED_NAMES`). */
  private readonly index: ReadonlyMap<string, number> | undefined;
  /** How many declared names `required` lists. */
  private readonly requiredDeclared: number;
  /** The last instances' layouts, the latest first; each is never changed once made. */
  private layouts: Layout[] = [];
  /**
   * Whether nothing applies to keys other than the declared names (no `patternProperties`, no
   * `additionalProperties`): instances can then be probed or walked without listing their keys.
   */
  private readonly walkable: boolean;
  /** Layout lookups in this window, and how many found a kept layout. */
  private lookups = 0;
  private found = 0;
  /** Instances still to be read without making a layout (see `UNLAID_CALLS`). */
  private unlaid = 0;

  constructor(private readonly m: Members) {
    this.index = m.names.length > COMPARED_NAMES ? new Map(m.names.map((name, i) => [name, i])) : undefined;
    this.requiredDeclared = m.requiredHere.filter(Boolean).length;
    this.walkable = m.additional === undefined && m.patterns.length === 0;
  }

  /**
   * What it applies to which member, as data: each declared name's subschema, each pattern's to the names it matches,
   * `additionalProperties` to the rest; it charges `steps` per object and a step per key where `additionalProperties`
   * applies (the patterns charge their matching).
   */
  verdict(): MembersForm {
    const {
      names,
      nodes,
      requiredHere: required,
      requiredElsewhere,
      patterns,
      patternNodes,
      additional,
      steps,
    } = this.m;
    const stepsPerKey = additional === undefined ? 0 : 1;
    return {
      kind: "members",
      names,
      nodes,
      required,
      requiredElsewhere,
      patterns,
      patternNodes,
      additional,
      steps,
      stepsPerKey,
    };
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if (!isObject(instance)) return true;
    const m = this.m;
    if (marks !== undefined) {
      if (m.nameSet !== undefined) marks.addNameSet(m.nameSet);
      if (m.additional !== undefined) marks.allProps = true;
    }
    run.spend(m.steps);
    if (this.walkable && m.names.length <= PROBED_NAMES) return this.probe(instance, run);
    const unlaid = this.unlaid > 0;
    if (unlaid) {
      this.unlaid--;
      if (this.walkable) return this.walk(instance, run);
    }
    const keys = run.ownKeys(instance);
    if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties");
    // `Object.values` is the fastest read of a small object's values, and far the slowest of a large one (which V8
    // keeps as a dictionary, with no enumeration cache): those are read key by key. So are the values of a host object
    // whose getters change it while it is read (the two lists then disagree).
    let values = keys.length <= LISTED_VALUES ? Object.values(instance) : undefined;
    if (values === undefined || values.length !== keys.length) values = keys.map((key) => instance[key]);
    const own = m.additional === undefined ? marks : undefined;
    // A large object gets no layout (its keys are not retained), nor does a new shape while layouts keep being
    // missed: each key is looked up.
    const layout = keys.length > LAID_OUT_KEYS ? undefined : unlaid ? this.kept(keys) : this.layoutFor(keys, run);
    if (layout === undefined) {
      if (!this.hasRequired(instance)) return false;
      if (m.additional !== undefined) run.spend(keys.length);
      return this.oneByOne(keys, undefined, values, run, own);
    }
    if (!layout.complete) return false;
    if (m.additional !== undefined) run.spend(keys.length);
    if (layout.batch >= 0 && run.enterAll(layout.batch, layout.members)) return this.entered(layout, values, run);
    return this.oneByOne(keys, layout.slots, values, run, own);
  }

  /**
   * Each own key in turn without listing them (for…in; inherited keys are skipped): its declared subschema. Every
   * own key is counted against `maxObjectProperties` before a failure is answered, as when the keys are listed first.
   */
  private walk(instance: Record<string, unknown>, run: Run): boolean {
    const { nodes } = this.m;
    const max = run.limits.maxObjectProperties;
    let valid = this.hasRequired(instance);
    let count = 0;
    for (const key in instance) {
      if (!hasOwn(instance, key)) continue;
      if (++count > max) run.limit("maxObjectProperties");
      if (!valid) continue;
      const slot = this.indexOf(key);
      if (slot < 0) continue;
      const node = nodes[slot] as Subschema;
      if (!node.isTrivial && !run.child(node, instance[key])) valid = false;
    }
    return valid;
  }

  /** Whether every name `required` lists is an own property. */
  private hasRequired(instance: Record<string, unknown>): boolean {
    const { names, requiredHere, requiredElsewhere } = this.m;
    for (let i = 0; i < names.length; i++)
      if (requiredHere[i] === true && !hasOwn(instance, names[i] as string)) return false;
    for (let i = 0; i < requiredElsewhere.length; i++)
      if (!hasOwn(instance, requiredElsewhere[i] as string)) return false;
    return true;
  }

  /** Each declared name in turn, own properties only: its subschema, or a refusal when it is required and absent. */
  private probe(instance: Record<string, unknown>, run: Run): boolean {
    const { names, nodes, requiredHere, requiredElsewhere } = this.m;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (!hasOwn(instance, name)) {
        if (requiredHere[i] === true) return false;
        continue;
      }
      const node = nodes[i] as Subschema;
      if (!node.isTrivial && !run.child(node, instance[name])) return false;
    }
    for (let i = 0; i < requiredElsewhere.length; i++)
      if (!hasOwn(instance, requiredElsewhere[i] as string)) return false;
    return true;
  }

  /** Every member is a pure leaf and entered already: each is tested; what a failure leaves unused is given back. */
  private entered(layout: Layout, values: readonly unknown[], run: Run): boolean {
    const { nodes, additional } = this.m;
    const { slots, costs, batch, members } = layout;
    let used = 0;
    let applied = 0;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      const node = slot >= 0 ? (nodes[slot] as Subschema) : additional;
      if (node === undefined || node.isTrivial) continue;
      used += costs[i] as number;
      applied++;
      if (run.entered(node, values[i])) continue;
      run.refund(batch - used, members - applied);
      return false;
    }
    return true;
  }

  /**
   * Each key in turn: its declared subschema, the subschemas of the patterns it matches (marked one by one when
   * `marks` is given: patterns without `additionalProperties`), and `additionalProperties` when neither applies.
   */
  private oneByOne(
    keys: readonly string[],
    slots: readonly number[] | undefined,
    values: readonly unknown[],
    run: Run,
    marks: Marks | undefined,
  ): boolean {
    const { nodes, patterns, patternNodes, additional } = this.m;
    for (let i = 0; i < keys.length; i++) {
      const slot = slots === undefined ? this.indexOf(keys[i] as string) : (slots[i] as number);
      if (slot >= 0) {
        const node = nodes[slot] as Subschema;
        if (!node.isTrivial && !run.child(node, values[i])) return false;
      }
      let matched = false;
      for (let p = 0; p < patterns.length; p++) {
        if (!(patterns[p] as CompiledPattern).test(keys[i] as string, run)) continue;
        matched = true;
        marks?.addProp(keys[i] as string);
        if (!run.child(patternNodes[p] as Subschema, values[i])) return false;
      }
      if (slot >= 0 || matched || additional === undefined || additional.isTrivial) continue;
      if (!run.child(additional, values[i])) return false;
    }
    return true;
  }

  /** The kept layout of these keys, if one of the last few instances had them. */
  private kept(keys: readonly string[]): Layout | undefined {
    const layouts = this.layouts;
    for (let i = 0; i < layouts.length; i++) if (sameKeys((layouts[i] as Layout).keys, keys)) return layouts[i];
    return undefined;
  }

  /**
   * The layout of these keys: a kept one, or a new one (which becomes the latest); counts the window that decides
   * whether layouts keep being missed (see `UNLAID_CALLS`).
   */
  private layoutFor(keys: readonly string[], run: Run): Layout {
    const kept = this.kept(keys);
    if (kept !== undefined) this.found++;
    if (++this.lookups === LAYOUT_WINDOW) {
      if (this.found * 2 < LAYOUT_WINDOW) this.unlaid = UNLAID_CALLS;
      this.lookups = 0;
      this.found = 0;
    }
    if (kept !== undefined) return kept;
    const layouts = this.layouts;
    const layout = this.layoutOf(keys, run);
    layouts.unshift(layout);
    if (layouts.length > KEPT_LAYOUTS) layouts.pop();
    return layout;
  }

  /** The layout of an instance's own keys, with what entering its members at once charges (see `Layout`). */
  private layoutOf(keys: readonly string[], run: Run): Layout {
    const { nodes, additional, requiredHere, requiredElsewhere, patterns } = this.m;
    let batch = patterns.length === 0 ? 0 : -1;
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
      const steps = run.batchSteps(node);
      batch = steps < 0 || batch < 0 ? -1 : batch + steps;
      members++;
      costs.push(steps);
    }
    // Every required name is an own key: the declared ones are counted, the others looked for among the keys.
    const complete = required === this.requiredDeclared && requiredElsewhere.every((name) => keys.includes(name));
    return { keys, slots, complete, batch, members, costs };
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
    const required = requiredNames(ctx);
    // `required` alone is fused too: its names probed as `required` would, charging the same steps.
    if (!properties && !patterned && !closed && required.length === 0) return undefined;
    const names = properties ? Object.keys(ctx.schema["properties"] as object) : [];
    const listed = new Set(required);
    const declared = new Set(names);
    const patterns: CompiledPattern[] = [];
    const patternNodes: Subschema[] = [];
    for (const source of patterned ? Object.keys(ctx.schema["patternProperties"] as object) : []) {
      patterns.push(ctx.pattern(source, "patternProperties"));
      patternNodes.push(ctx.subschema("patternProperties", source));
    }
    // Empty lists shared: most objects have neither patterns nor required names outside `properties`.
    const elsewhere = [...listed].filter((name) => !declared.has(name));
    return new ObjectMembers({
      names,
      nodes: names.map((name) => ctx.subschema("properties", name)),
      requiredHere: names.map((name) => listed.has(name)),
      nameSet: properties ? declared : undefined,
      requiredElsewhere: elsewhere.length === 0 ? NONE : elsewhere,
      patterns: patterns.length === 0 ? NONE : patterns,
      patternNodes: patternNodes.length === 0 ? NONE : patternNodes,
      additional: closed ? ctx.subschema("additionalProperties") : undefined,
      steps: names.length + required.length,
    });
  },
};
