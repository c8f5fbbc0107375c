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
import type { SchemaNode, VerdictPlan } from "../evaluate/node.js";
import type { Subschema } from "../evaluate/run.js";
import type { CheckForm, ChoiceForm, ConditionForm, MembersForm } from "../evaluate/verdict-forms.js";
import { decide } from "./check.js";
import { ANY, fastNode, NEVER, slotInfo, type FastNode } from "./fast-node.js";
import { Tally, Verdict } from "./tally.js";
import { Bits } from "./values.js";

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
  readonly choices: ChoiceForm[];
  condition: ConditionForm | undefined;
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
    choices: [],
    condition: undefined,
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
    else if (form.kind === "choice") forms.choices.push(form);
    else if (form.kind === "condition") forms.condition = form;
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

/** Whether a node has a list of scalars as data, and which (the first check's; any other stays a test). */
type Listed = Pick<FastNode, "listed"> & Partial<Pick<FastNode, "values">>;

/** The first check told as a list of scalars, as a node's list. */
function listOf(listing: CheckForm | undefined): Listed {
  return listing?.values === undefined ? { listed: false } : { listed: true, values: listing.values };
}

/** Whether a node has numeric bounds, and which. */
type Range = Pick<FastNode, "ranged"> & Partial<Pick<FastNode, "atLeast" | "above" | "atMost" | "below">>;

/** The numeric bounds among a node's checks, as one range (each bound the tightest given). */
function rangeOf(checks: readonly CheckForm[]): Range {
  const ranges = checks.flatMap((c) => (c.range === undefined ? [] : [c.range]));
  if (ranges.length === 0) return { ranged: false };
  return {
    ranged: true,
    atLeast: Math.max(...ranges.map((r) => r.atLeast)),
    above: Math.max(...ranges.map((r) => r.above)),
    atMost: Math.min(...ranges.map((r) => r.atMost)),
    below: Math.min(...ranges.map((r) => r.below)),
  };
}

/** A members form's names, with the names required elsewhere it declares too (`folded`). */
interface Named {
  readonly form: MembersForm;
  readonly names: readonly string[];
  readonly folded: readonly string[];
}

/** Keys from which V8 (Node 20) keeps a `JSON.parse`d object in dictionary mode, where every key is a lookup. */
const DICTIONARY_KEYS = 128;

/** Up to this many names, a member's key is compared with each; beyond, looked up (check.ts). */
const COMPARED_NAMES = 8;

/** A node's own assertions, as `Builder.own` gathers them. */
type Own = Pick<FastNode, "mask" | "test" | "units" | "maxDepth"> & Range & Listed;

/**
 * Whether a node of names is `simple` (fast-node.ts): an object node of fewer names than a dictionary-mode object
 * holds, no pattern, other members unchecked or refused, and nothing else to check.
 */
function simple(named: Named, own: Own, forms: Forms, applied: number): boolean {
  const additional = named.form.additional;
  return (
    named.names.length < DICTIONARY_KEYS &&
    named.form.patterns.length === 0 &&
    (additional === undefined || additional.constant === false) &&
    own.test === undefined &&
    !own.ranged &&
    !own.listed &&
    !forms.items &&
    forms.contains === undefined &&
    applied === 0 &&
    (own.mask & Bits.OBJECT) !== 0
  );
}

/** The fast path of one validator's schema nodes: a record per node, made once. */
class Builder {
  private readonly records = new Map<Subschema, FastNode>();
  /** Fast applications deeper than this are not checked here (the limits' counters could reach theirs). */
  private readonly maxDepth: number;
  /** Nodes run on the accounted path. */
  readonly uncovered = new Set<Subschema>();
  /** The leaf of a name required elsewhere that the walk declares: any JSON data (as `true`). */
  private readonly anyData = fastNode({ leaf: true, inline: true, pure: true, mask: ANY, units: 1 });

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

  /** A node's fields: a constant, a node on the accounted path, a leaf, or a node applying others. */
  private fields(node: Subschema): Partial<FastNode> {
    if (node.constant !== undefined)
      return { leaf: true, inline: true, pure: true, mask: node.constant ? ANY : NEVER, units: 1 };
    const plan = (node as SchemaNode).verdictPlan();
    const forms = plan === undefined || plan.needsRun ? undefined : formsOf(plan.predicates, plan.steps);
    if (plan === undefined || forms === undefined) return this.uncover(node);
    const own = this.own(plan, forms);
    const applied = forms.inPlace.length + forms.choices.length + (forms.condition === undefined ? 0 : 1);
    const members = forms.members;
    if (members === undefined && !forms.items && forms.contains === undefined && applied === 0) {
      const pure = forms.checks.every((c) => c.pure);
      return { ...own, leaf: true, inline: own.test === undefined, pure };
    }
    // Names required beside no declared one, so many that an object holding them all is in dictionary mode: the
    // accounted path probes them and walks the object once, which costs less there than the walk's lookup per key
    // (`required-500`: 14 µs against 24 µs; 50 names: 0.6 µs here against 0.9–1.4 µs there).
    if (members !== undefined && members.names.length === 0 && members.requiredElsewhere.length >= DICTIONARY_KEYS)
      return this.uncover(node);
    const named = members === undefined ? undefined : this.named(members);
    const closed = members?.additional !== undefined && members.additional.constant === false;
    return {
      ...own,
      leaf: false,
      simple: named !== undefined && simple(named, own, forms, applied),
      closed,
      units: own.units + (members?.steps ?? 0),
      ...(named === undefined ? {} : this.members(named)),
      ...(forms.items ? this.items(forms) : {}),
      ...(forms.contains === undefined ? {} : this.contains(forms.contains)),
      ...this.applied(forms),
    };
  }

  /** A node the fast path does not cover: run on the accounted path inside it. */
  private uncover(node: Subschema): Partial<FastNode> {
    this.uncovered.add(node);
    return { leaf: false, accounted: node };
  }

  /**
   * A node's own assertions: its type mask, its numeric range, its list of scalars, its other checks composed, its
   * units.
   */
  private own(plan: VerdictPlan, forms: Forms): Own {
    // Tested before the other checks, so only where they are pure: a metered one may throw, or charge, before it.
    const pure = forms.checks.every((c) => c.pure);
    const listing = pure ? forms.checks.find((c) => c.values !== undefined) : undefined;
    return {
      mask: plan.typeMask === 0 ? ANY : plan.typeMask,
      test: composed(forms.checks.filter((c) => c.range === undefined && c !== listing)),
      ...rangeOf(forms.checks),
      ...listOf(listing),
      units: plan.cost,
      maxDepth: this.maxDepth,
    };
  }

  private contains(form: NonNullable<Forms["contains"]>): Partial<FastNode> {
    return {
      contains: this.record(form.node),
      minContains: form.min,
      maxContains: form.max ?? Infinity,
      maxLength: this.limits.maxArrayLength,
    };
  }

  /** The nodes a node applies to the value in place. */
  private applied(forms: Forms): Partial<FastNode> {
    return {
      inPlace: forms.inPlace.map((n) => this.record(n)),
      choices: forms.choices.map((c) => ({ nodes: c.nodes.map((n) => this.record(n)), least: c.least, most: c.most })),
      condition: forms.condition && {
        if: this.record(forms.condition.condition),
        then: forms.condition.then && this.record(forms.condition.then),
        else: forms.condition.else && this.record(forms.condition.else),
      },
    };
  }

  /**
   * A members form's names required elsewhere, where nothing else applies to the members not declared: declared here
   * too, each with a leaf accepting any JSON data, so that the walk counts them as it meets them instead of probing
   * each afterwards (it charges such a member more than the accounted path does: an upper bound still).
   */
  private named(form: MembersForm): Named {
    const elsewhere = form.requiredElsewhere.filter((name, i, all) => all.indexOf(name) === i);
    if (form.additional !== undefined || elsewhere.length === 0) return { form, names: form.names, folded: [] };
    return { form, names: [...form.names, ...elsewhere], folded: elsewhere };
  }

  private members({ form, names, folded }: Named): Partial<FastNode> {
    const required = [...form.required, ...folded.map(() => true)];
    const nodes = [...form.nodes.map((n) => this.record(n)), ...folded.map(() => this.anyData)];
    return {
      names,
      nodes,
      required,
      // A record still being made (a recursion) is not inline yet: its entry sends the walk to the record.
      slots: nodes.map((n, i) => slotInfo(n, required[i] === true)),
      requiredCount: required.filter(Boolean).length,
      requiredElsewhere: folded.length === 0 ? form.requiredElsewhere : [],
      patterns: form.patterns,
      patternNodes: form.patternNodes.map((n) => this.record(n)),
      additional: form.additional === undefined ? undefined : this.record(form.additional),
      memberUnitsPerKey: form.stepsPerKey,
      index: names.length > COMPARED_NAMES ? new Map(names.map((name, i) => [name, i])) : undefined,
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

/**
 * Calls a validator answers on the accounted path before its fast path is built: building costs about what a hundred
 * small calls do (`npm run bench`, compile against the steady state), which a schema compiled and used a few times
 * would never win back.
 */
export const CALLS_BEFORE_BUILD = 64;

/**
 * The verdict fast path of a compiled schema, built on its `CALLS_BEFORE_BUILD`th call: its root record and the budget
 * its limits allow, or none when the root runs on the accounted path (no gain).
 */
export class FastVerdict {
  private root: FastNode | undefined = undefined;
  /**
   * The run its checks use: the one every fast path of these limits shares, taken when the records are made; a call
   * while it is in use gets one of its own.
   */
  private tally: Tally | undefined = undefined;
  /** Calls left before the build; at 0 it is built, below it there is no fast path. */
  private countdown = CALLS_BEFORE_BUILD;

  constructor(
    private readonly schema: Subschema,
    private readonly limits: Readonly<Limits>,
    /** The tally the fast paths of every validator with these limits share (validator.ts `spareTally`). */
    private readonly shared: Tally,
  ) {}

  /**
   * VALID, INVALID, or UNKNOWN (the accounted path decides). `checked`: the caller has checked the value as JSON data
   * within the instance limits, so the JSON data check is not walked (tally.ts `checked`).
   */
  decide(value: unknown, checked = false): number {
    const root = this.root;
    if (root === undefined) {
      // Built without a fast path (-1), or still counting down.
      if (this.countdown < 0) return Verdict.UNKNOWN;
      return --this.countdown > 0 ? Verdict.UNKNOWN : this.built(value, checked);
    }
    let tally = this.tally as Tally;
    if (tally.active) tally = this.newTally();
    return decide(tally, root, value, checked);
  }

  /** The answer once built now, whatever the countdown (the differential test compares every call). */
  decideNow(value: unknown): number {
    if (this.countdown > 0) this.countdown = 1;
    return this.decide(value);
  }

  /** Builds the records on the call the countdown ends at (once), then decides `value`. */
  private built(value: unknown, checked: boolean): number {
    this.countdown = -1;
    const builder = new Builder(this.limits);
    const record = builder.record(this.schema);
    if (builder.uncovered.has(this.schema)) return Verdict.UNKNOWN;
    this.tally = this.shared;
    this.root = record;
    return this.decide(value, checked);
  }

  /** A tally of its own, for a call while the shared one is in use. */
  private newTally(): Tally {
    return newTally(this.limits);
  }
}

/**
 * A tally for `limits`, with the budget they allow. The validators of one set of limits share one (validator.ts
 * `spareTally`): a single object whose fields stay in cache whichever of a host's many validators runs (a tally per
 * validator cost 400 rotating tools a sixth to a third, `npm run bench -- --only tools-400`, 2026-12-07).
 */
export function newTally(limits: Readonly<Limits>): Tally {
  return new Tally(limits, Math.min(limits.maxEvaluationSteps, limits.maxInstanceNodes, BUDGET_CAP));
}
