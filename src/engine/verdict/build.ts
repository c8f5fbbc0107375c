/**
 * Builds the verdict fast path of a compiled schema (docs/project/performance.md "The verdict fast path"), node by
 * node, from what each node's keywords say their boolean paths are (`evaluate/verdict-forms.ts`), into records that
 * check.ts tests. A node whose keywords all have a form is covered; any other node (a keyword without a form, a dynamic
 * scope, evaluated marks) runs on the accounted path inside the fast one. Every check is bounded: each application goes
 * one level deeper, and no level past what the limits allow is checked here, so a recursion through references ends
 * there too.
 */

import type { Limits } from "../limits.js";
import type { BooleanStep, Evaluator } from "../evaluate/keyword.js";
import type { SchemaNode } from "../evaluate/node.js";
import type { Subschema } from "../evaluate/run.js";
import type { CheckForm, MembersForm } from "../evaluate/verdict-forms.js";
import { accounted } from "./accounted.js";
import { decide } from "./check.js";
import { ANY, fastNode, NEVER, type FastNode } from "./fast-node.js";
import { tally, Verdict } from "./tally.js";
import { Bits, jsonBits } from "./values.js";

/** What a node's keywords say, gathered: its checks, and the forms of its applicators. */
interface Forms {
  readonly checks: CheckForm[];
  members: MembersForm | undefined;
  prefix: readonly Subschema[];
  rest: Subschema | undefined;
  from: number;
  items: boolean;
  contains: { node: Subschema; min: number; max: number | undefined } | undefined;
  readonly inPlace: Subschema[];
}

/** The forms of a node's assertions and steps; undefined when one has none. */
function formsOf(predicates: readonly Evaluator[], steps: readonly BooleanStep[]): Forms | undefined {
  const forms: Forms = {
    checks: [],
    members: undefined,
    prefix: [],
    rest: undefined,
    from: 0,
    items: false,
    contains: undefined,
    inPlace: [],
  };
  for (const p of predicates) {
    const form = p.verdict?.();
    if (form === undefined || form.kind !== "check") return undefined;
    forms.checks.push(form);
  }
  for (const step of steps) {
    const form = step.verdict?.();
    if (form === undefined) return undefined;
    if (form.kind === "check") forms.checks.push(form);
    else if (form.kind === "members") {
      if (forms.members !== undefined) return undefined;
      forms.members = form;
    } else if (form.kind === "items") {
      if (form.prefix.length > 0) forms.prefix = form.prefix;
      if (form.rest !== undefined) forms.rest = form.rest;
      forms.from = Math.max(forms.from, form.from);
      forms.items = true;
    } else if (form.kind === "contains") forms.contains = form;
    else forms.inPlace.push(...form.nodes);
  }
  return forms;
}

/** The checks' tests as one (undefined for none); each meters its work. */
function composed(checks: readonly CheckForm[]): FastNode["test"] {
  const tests = checks.map((c) => c.test);
  const [a, b] = tests as [CheckForm["test"], CheckForm["test"]];
  if (tests.length === 0) return undefined;
  if (tests.length === 1) return a;
  if (tests.length === 2) return (v, meter) => a(v, meter) && b(v, meter);
  return (v, meter) => {
    for (let i = 0; i < tests.length; i++) if (!(tests[i] as CheckForm["test"])(v, meter)) return false;
    return true;
  };
}

/** Up to this many names, a member's key is compared with each; beyond, looked up (check.ts). */
const COMPARED_NAMES = 8;

/** The fast path of one validator's schema nodes: a record per node, made once. */
class Builder {
  private readonly records = new Map<Subschema, FastNode>();
  /** Fast applications deeper than this are not checked here (the limits' counters could reach theirs). */
  private readonly maxDepth: number;
  /** Nodes run on the accounted path. */
  readonly uncovered = new Set<Subschema>();

  constructor(private readonly limits: Readonly<Limits>) {
    this.maxDepth = Math.min(limits.maxInstanceDepth, limits.maxEvaluationDepth, limits.maxReferenceDepth, 1_000) - 1;
  }

  /** The record of a node; a reference back to one being made (a recursion) gets that same record. */
  record(node: Subschema): FastNode {
    const known = this.records.get(node);
    if (known !== undefined) return known;
    const record = fastNode({});
    this.records.set(node, record);
    Object.assign(record, this.fields(node));
    return record;
  }

  private fields(node: Subschema): Partial<FastNode> {
    if (node.constant !== undefined)
      return { leaf: true, typeOnly: true, pure: true, mask: node.constant ? ANY : NEVER, units: 1 };
    const plan = (node as SchemaNode).verdictPlan();
    const forms = plan === undefined || plan.needsRun ? undefined : formsOf(plan.predicates, plan.steps);
    if (plan === undefined || forms === undefined) {
      this.uncovered.add(node);
      return { leaf: false, accounted: accounted(node, this.limits) };
    }
    const test = composed(forms.checks);
    const pure = forms.checks.every((c) => c.pure);
    const own = { mask: plan.typeMask === 0 ? ANY : plan.typeMask, test, units: plan.cost, maxDepth: this.maxDepth };
    const members = forms.members;
    const contains = forms.contains;
    if (members === undefined && !forms.items && contains === undefined && forms.inPlace.length === 0) {
      return { ...own, leaf: true, typeOnly: test === undefined, pure };
    }
    // Many names required beside no declared one: the accounted path probes them and walks the object once
    // (`required-500`, a 500-key JSON.parse'd object: 13.4 µs there, 26 µs through the members walk, whose per-key
    // work does not pay when no key has a node of its own).
    if (members !== undefined && members.names.length === 0 && members.requiredElsewhere.length > COMPARED_NAMES) {
      this.uncovered.add(node);
      return { leaf: false, accounted: accounted(node, this.limits) };
    }
    const additional = members?.additional;
    const closed = additional !== undefined && additional.constant === false;
    const simple =
      members !== undefined &&
      members.names.length <= COMPARED_NAMES &&
      members.patterns.length === 0 &&
      (additional === undefined || closed) &&
      test === undefined &&
      !forms.items &&
      contains === undefined &&
      forms.inPlace.length === 0 &&
      (own.mask & Bits.OBJECT) !== 0;
    return {
      ...own,
      leaf: false,
      simple,
      closed,
      units: own.units + (members?.steps ?? 0),
      ...(members === undefined ? {} : this.members(members)),
      ...(forms.items ? this.items(forms) : {}),
      ...(contains === undefined
        ? {}
        : {
            contains: this.record(contains.node),
            minContains: contains.min,
            maxContains: contains.max ?? Infinity,
            maxLength: this.limits.maxArrayLength,
          }),
      inPlace: forms.inPlace.map((n) => this.record(n)),
    };
  }

  private members(form: MembersForm): Partial<FastNode> {
    const wide = form.names.length > COMPARED_NAMES;
    return {
      names: form.names,
      nodes: form.nodes.map((n) => this.record(n)),
      required: form.required,
      requiredCount: form.required.filter(Boolean).length,
      requiredElsewhere: form.requiredElsewhere,
      patterns: form.patterns,
      patternNodes: form.patternNodes.map((n) => this.record(n)),
      additional: form.additional === undefined ? undefined : this.record(form.additional),
      memberUnitsPerKey: form.stepsPerKey,
      index: wide ? new Map(form.names.map((name, i) => [name, i])) : undefined,
      laidKeys: [],
      laidSlots: [],
      maxKeys: this.limits.maxObjectProperties,
    };
  }

  private items(forms: Forms): Partial<FastNode> {
    return {
      items: true,
      prefix: forms.prefix.map((n) => this.record(n)),
      rest: forms.rest === undefined ? undefined : this.record(forms.rest),
      from: forms.from,
      maxLength: this.limits.maxArrayLength,
    };
  }
}

/** Units past which nothing is decided here, whatever the limits (counts stay small integers). */
const BUDGET_CAP = 2 ** 29;

/** The verdict fast path of a compiled schema: its root record and the budget its limits allow. */
export class FastVerdict {
  constructor(
    private readonly root: FastNode,
    private readonly limits: Readonly<Limits>,
    private readonly budget: number,
    /** A root leaf of scalar types, pure, within the budget: it decides every value alone (no tally). */
    private readonly scalar: boolean,
  ) {}

  /** VALID, INVALID, or UNKNOWN (the accounted path decides). */
  decide(value: unknown): number {
    const root = this.root;
    if (!this.scalar) return decide(root, value, this.limits, this.budget);
    // What it charges is fixed, and a value that is not JSON data is no instance it accepts.
    const test = root.test;
    return (jsonBits(value) & root.mask) !== 0 && (test === undefined || test(value, tally))
      ? Verdict.VALID
      : Verdict.INVALID;
  }
}

/** The verdict fast path of a compiled schema, or undefined when its root runs on the accounted path (no gain). */
export function buildVerdict(root: Subschema, limits: Readonly<Limits>): FastVerdict | undefined {
  const builder = new Builder(limits);
  const record = builder.record(root);
  if (builder.uncovered.has(root)) return undefined;
  const budget = Math.min(limits.maxEvaluationSteps, limits.maxInstanceNodes, BUDGET_CAP);
  const scalar = record.pure && (record.mask & (Bits.OBJECT | Bits.ARRAY)) === 0 && record.units <= budget;
  return new FastVerdict(record, limits, budget, scalar);
}
