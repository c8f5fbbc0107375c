/**
 * Fusion `objectMembers`: the boolean path of `properties`, `patternProperties` and `additionalProperties` of one
 * schema in one pass (a named optimisation, see `Fusion` in the engine's keyword protocol). With only `properties`
 * it probes the declared names, skipping subschemas that accept everything; otherwise it walks the instance's keys
 * once, without allocating a key array, testing each name against each pattern once. The plain keywords remain the
 * specification: the output path uses them, and the property tests compare both paths.
 */

import { hasOwn, isObject } from "../../engine/json.js";
import type { BooleanStep, CompileContext, Fusion } from "../../engine/keyword.js";
import type { Marks } from "../../engine/marks.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Run, Subschema } from "../../engine/run.js";

class ObjectMembers implements BooleanStep {
  /** Per checked name: whether a plain object can inherit it, so reading it needs the own-property test. */
  private readonly inheritable: readonly boolean[];

  constructor(
    /** `properties`' names (for marks), undefined without `properties`. */
    private readonly names: ReadonlySet<string> | undefined,
    /** Declared names whose subschema can fail, and those subschemas. */
    private readonly checkedNames: readonly string[],
    private readonly checkedNodes: readonly Subschema[],
    /** The declared names by name, kept only when there are more than a few (else `allNames` is searched). */
    private readonly byName: ReadonlyMap<string, Subschema> | undefined,
    /** Every declared name and its subschema, in order: a few names are found faster by comparison than hashing. */
    private readonly allNames: readonly string[],
    private readonly allNodes: readonly Subschema[],
    private readonly patterns: readonly CompiledPattern[],
    private readonly patternNodes: readonly Subschema[],
    private readonly additional: Subschema | undefined,
  ) {
    this.inheritable = checkedNames.map((name) => INHERITABLE.has(name));
  }

  test(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    if (!isObject(instance)) return true;
    if (marks !== undefined) {
      if (this.names !== undefined) marks.addNameSet(this.names);
      if (this.additional !== undefined) marks.allProps = true;
    }
    if (this.additional === undefined && this.patterns.length === 0) return this.probeNames(instance, run);
    return this.walkKeys(instance, run, this.additional === undefined ? marks : undefined);
  }

  private probeNames(instance: Record<string, unknown>, run: Run): boolean {
    const names = this.checkedNames;
    run.spend(this.allNames.length);
    // With many declared names (meta-schemas, big tool schemas) and few given (typical arguments), looking the
    // instance's own keys up is cheaper than probing every name; past `names.length` keys, probing is.
    if (names.length >= MANY_NAMES) {
      let seen = 0;
      let complete = true;
      for (const key in instance) {
        if (++seen > names.length) {
          complete = false;
          break;
        }
        const node = this.declared(key);
        if (node === undefined || node.isTrivial || !hasOwn(instance, key)) continue;
        if (!run.child(node, instance[key])) return false;
      }
      if (complete) return true;
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      // JSON has no undefined, so reading gives a value exactly when the property is present, except for names
      // an object can inherit; for those the own-property test decides.
      const value = instance[name];
      if (value === undefined || (this.inheritable[i] === true && !hasOwn(instance, name))) continue;
      if (!run.child(this.checkedNodes[i] as Subschema, value)) return false;
    }
    return true;
  }

  /** The subschema `properties` declares for `key`, if any. */
  private declared(key: string): Subschema | undefined {
    if (this.byName !== undefined) return this.byName.get(key);
    const names = this.allNames;
    for (let i = 0; i < names.length; i++) if (names[i] === key) return this.allNodes[i];
    return undefined;
  }

  /** `marks` given only when single names must be marked (patterns without `additionalProperties`). */
  private walkKeys(instance: Record<string, unknown>, run: Run, marks: Marks | undefined): boolean {
    const { patterns, patternNodes, additional } = this;
    const max = run.limits.maxObjectProperties;
    let count = 0;
    // for-in walks the enumeration cache without allocating a key array. It also yields enumerable keys a host
    // added to a prototype: those are never taken for additional properties (own keys only), and a named or
    // matched one is validated like an own value, a false rejection at worst, never a false acceptance.
    for (const key in instance) {
      if (++count > max) run.limit("maxObjectProperties");
      // One step per key; each pattern it is tested against charges its own work (README "Limits").
      if (++run.steps > run.maxSteps) run.limit("maxEvaluationSteps");
      const named = this.declared(key);
      let matched = named !== undefined;
      if (named !== undefined) {
        if (!named.isTrivial && !run.child(named, instance[key])) return false;
        if (patterns.length === 0) continue;
      }
      for (let i = 0; i < patterns.length; i++) {
        if (!(patterns[i] as CompiledPattern).test(key, run)) continue;
        matched = true;
        marks?.addProp(key);
        if (!run.child(patternNodes[i] as Subschema, instance[key])) return false;
      }
      if (matched || additional === undefined || additional.isTrivial || !hasOwn(instance, key)) continue;
      if (!run.child(additional, instance[key])) return false;
    }
    return true;
  }
}

/** Up to this many declared names, a key is looked up by comparing it with each. */
const FEW_NAMES = 8;

/** From this many declared names that can fail on, the instance's keys are looked up instead of probing names. */
const MANY_NAMES = 6;

/** Names a plain object inherits (or that reach its prototype): reading them needs the own-property test. */
const INHERITABLE: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"]);

export const objectMembers: Fusion = {
  name: "objectMembers",
  keywords: ["properties", "patternProperties", "additionalProperties"],
  compile(ctx: CompileContext): BooleanStep | undefined {
    const hasProperties = ctx.active("properties") && isObject(ctx.schema["properties"]);
    const hasPatterns = ctx.active("patternProperties") && isObject(ctx.schema["patternProperties"]);
    const hasAdditional = ctx.active("additionalProperties");
    // A few `properties` alone are probed just as fast by the keyword itself: no second structure is kept for them.
    const declared = hasProperties ? Object.keys(ctx.schema["properties"] as object).length : 0;
    if (!hasPatterns && !hasAdditional && declared < MANY_NAMES) return undefined;
    const byName = new Map<string, Subschema>();
    const checkedNames: string[] = [];
    const checkedNodes: Subschema[] = [];
    if (hasProperties) {
      for (const name of Object.keys(ctx.schema["properties"] as object)) {
        const node = ctx.subschema("properties", name);
        byName.set(name, node);
        if (node.isTrivial) continue;
        checkedNames.push(name);
        checkedNodes.push(node);
      }
    }
    const patterns: CompiledPattern[] = [];
    const patternNodes: Subschema[] = [];
    if (hasPatterns) {
      for (const source of Object.keys(ctx.schema["patternProperties"] as object)) {
        patterns.push(ctx.pattern(source, "patternProperties"));
        patternNodes.push(ctx.subschema("patternProperties", source));
      }
    }
    return new ObjectMembers(
      hasProperties ? new Set(byName.keys()) : undefined,
      checkedNames,
      checkedNodes,
      byName.size > FEW_NAMES ? byName : undefined,
      [...byName.keys()],
      [...byName.values()],
      patterns,
      patternNodes,
      hasAdditional ? ctx.subschema("additionalProperties") : undefined,
    );
  },
};
