/**
 * A compiled schema: its evaluators in order. On the boolean path the node checks a `type` mask
 * inline, then calls simple assertions as plain predicates, then applicators; only applicators need
 * the dynamic scope, nesting bounds and evaluated marks, so only they pay for them. Entering a node
 * counts steps (limits), pushes its resource onto the dynamic scope when that scope is in use, and
 * owns the evaluated marks when one of its keywords reads them (Core §11).
 */

import { Marks, type Run } from "./context.js";
import type { Evaluator } from "./keyword.js";
import type { KeywordResult, NodeResult } from "./output.js";
import type { Resource } from "./resources.js";
import { escapeToken, pointerToFragment } from "./pointer.js";

/** The JSON type bits of a value: an integral number carries both "number" (16) and "integer" (64). */
export function typeBits(value: unknown): number {
  switch (typeof value) {
    case "string":
      return 32;
    case "number":
      return Number.isInteger(value) ? 80 : 16;
    case "boolean":
      return 2;
    case "object":
      return value === null ? 1 : Array.isArray(value) ? 8 : 4;
    default:
      return 0;
  }
}

const FALSE: Evaluator = { keyword: "false", test: () => false, check: () => false };
const NONE: never[] = [];

export class SchemaNode {
  /** Every evaluator, for the output path. */
  private all: Evaluator[] = NONE;
  /** Boolean path: the inline type mask (0: no `type`), predicates, then applicators. */
  private typeMask = 0;
  private tests: ((instance: unknown, run: Run) => boolean)[] = NONE;
  private checks: Evaluator[] = NONE;
  /** True when a keyword of this node reads evaluated marks. */
  private tracks = false;
  private steps = 1;

  constructor(
    readonly absoluteLocation: string,
    readonly resource: Resource,
    /** `true`/`false` for boolean schemas. */
    readonly constant?: boolean,
  ) {
    if (constant === false) this.tests = [FALSE.test!];
  }

  /** Called once by the compiler when the keywords are compiled (after recursive references are wired). */
  setEvaluators(evaluators: Evaluator[], tracks: boolean): void {
    this.all = evaluators;
    this.tracks = tracks;
    this.steps = Math.max(1, evaluators.length);
    const active = evaluators.filter((e) => e.passive !== true);
    for (const e of active) if (e.typeMask !== undefined) this.typeMask = e.typeMask;
    const tests = active
      .filter((e) => e.typeMask === undefined && e.test !== undefined)
      .map((e) => e.test as (instance: unknown, run: Run) => boolean);
    const checks = active.filter((e) => e.typeMask === undefined && e.test === undefined);
    if (tests.length > 0) this.tests = tests;
    if (checks.length > 0) this.checks = checks;
  }

  /** Accepts every instance on the boolean path (`true`, `{}`, annotation-only schemas). */
  get isTrivial(): boolean {
    return this.constant !== false && this.typeMask === 0 && this.tests.length === 0 && this.checks.length === 0;
  }

  /** Whether this node ever reads evaluated marks itself. */
  get readsMarks(): boolean {
    return this.tracks;
  }

  check(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult | null): boolean {
    if ((run.steps += this.steps) > run.maxSteps) run.limit("maxEvaluationSteps", out?.instanceLocation);
    if (out !== null) return this.checkOutput(instance, run, marks, out);
    const mask = this.typeMask;
    if (mask !== 0 && (typeBits(instance) & mask) === 0) return false;
    const tests = this.tests;
    for (let i = 0; i < tests.length; i++)
      if (!(tests[i] as (instance: unknown, run: Run) => boolean)(instance, run)) return false;
    const checks = this.checks;
    if (checks.length === 0) return true;
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth");
    const savedScope = run.scope;
    if (run.tracksScope && (savedScope === null || savedScope.resource !== this.resource)) {
      run.scope = { resource: this.resource, next: savedScope };
    }
    const own = this.tracks ? new Marks() : marks;
    let valid = true;
    for (let i = 0; i < checks.length; i++) {
      if (!(checks[i] as Evaluator).check(instance, run, own, null)) {
        valid = false;
        break;
      }
    }
    if (valid && this.tracks && marks !== undefined) marks.merge(own as Marks, run);
    run.scope = savedScope;
    run.nesting--;
    return valid;
  }

  private checkOutput(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean {
    if (++run.nesting > run.maxNesting) run.limit("maxEvaluationDepth", out.instanceLocation);
    const savedScope = run.scope;
    if (run.tracksScope && (savedScope === null || savedScope.resource !== this.resource)) {
      run.scope = { resource: this.resource, next: savedScope };
    }
    out.absoluteKeywordLocation = this.absoluteLocation;
    const own = this.tracks ? new Marks() : marks;
    let valid = this.constant !== false;
    if (this.constant === false) out.keywords.push(falseSchemaResult(out));
    for (const evaluator of this.all) {
      const unit: KeywordResult = {
        keyword: evaluator.keyword,
        keywordLocation: out.keywordLocation + "/" + escapeToken(evaluator.keyword),
        absoluteKeywordLocation: this.absoluteLocation + "/" + pointerToFragment(escapeToken(evaluator.keyword)),
        instanceLocation: out.instanceLocation,
        valid: true,
        hasAnnotation: false,
        children: [],
      };
      unit.valid = evaluator.check(instance, run, own, unit);
      if (!unit.valid) {
        valid = false;
        unit.hasAnnotation = false;
        if (unit.error === undefined && !unit.children.some((c) => !c.valid)) unit.error = "is not valid";
      }
      if (!run.keepAll) {
        // Units that neither fail nor annotate say nothing in flag/basic/detailed output; dropping them bounds memory.
        if (unit.children.length > 0) unit.children = unit.children.filter((c) => !c.valid || c.keywords.length > 0);
        if (unit.valid && !unit.hasAnnotation && unit.children.length === 0) continue;
      }
      out.keywords.push(unit);
    }
    out.valid = valid;
    if (valid && this.tracks && marks !== undefined) marks.merge(own as Marks, run);
    run.scope = savedScope;
    run.nesting--;
    return valid;
  }
}

function falseSchemaResult(out: NodeResult): KeywordResult {
  return {
    keyword: "false",
    keywordLocation: out.keywordLocation,
    absoluteKeywordLocation: out.absoluteKeywordLocation,
    instanceLocation: out.instanceLocation,
    valid: false,
    error: "no value is allowed here (the schema is false)",
    hasAnnotation: false,
    children: [],
  };
}
