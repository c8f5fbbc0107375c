/**
 * A compiled schema: its evaluators in order. Entering a node counts steps and nesting (limits),
 * pushes its resource onto the dynamic scope when that scope is in use, and owns the evaluated
 * marks when one of its keywords reads them (Core §11).
 */

import { Marks, type Run } from "./context.js";
import type { Evaluator } from "./keyword.js";
import type { KeywordResult, NodeResult } from "./output.js";
import type { Resource } from "./resources.js";
import { escapeToken } from "./pointer.js";

export class SchemaNode {
  /** Evaluators with work on the boolean path. */
  private fast: Evaluator[] = [];
  /** Every evaluator, for the output path. */
  private all: Evaluator[] = [];
  /** True when a keyword of this node reads evaluated marks. */
  private tracks = false;
  private steps = 1;

  constructor(
    readonly absoluteLocation: string,
    readonly resource: Resource,
    /** `true`/`false` for boolean schemas. */
    readonly constant?: boolean,
  ) {}

  /** Called once by the compiler when the keywords are compiled (after recursive references are wired). */
  setEvaluators(evaluators: Evaluator[], tracks: boolean): void {
    this.all = evaluators;
    this.fast = evaluators.filter((e) => e.passive !== true);
    this.tracks = tracks;
    this.steps = Math.max(1, evaluators.length);
  }

  get isTrivial(): boolean {
    return this.constant === true || (this.constant === undefined && this.fast.length === 0);
  }

  check(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult | null): boolean {
    if ((run.steps += this.steps) > run.limits.maxEvaluationSteps) run.limit("maxEvaluationSteps", out?.instanceLocation);
    if (++run.nesting > run.limits.maxEvaluationDepth) run.limit("maxEvaluationDepth", out?.instanceLocation);
    const savedScope = run.scope;
    if (run.tracksScope && (savedScope === null || savedScope.resource !== this.resource)) {
      run.scope = { resource: this.resource, next: savedScope };
    }
    const own = this.tracks ? new Marks() : marks;
    let valid: boolean;
    if (out === null) {
      valid = this.constant ?? this.checkFast(instance, run, own);
    } else {
      out.absoluteKeywordLocation = this.absoluteLocation;
      valid = this.constant ?? this.checkOutput(instance, run, own, out);
      if (this.constant === false) out.keywords.push(falseSchemaResult(out));
      out.valid = valid;
    }
    if (valid && this.tracks && marks !== undefined) marks.merge(own as Marks);
    run.scope = savedScope;
    run.nesting--;
    return valid;
  }

  private checkFast(instance: unknown, run: Run, marks: Marks | undefined): boolean {
    const fast = this.fast;
    for (let i = 0; i < fast.length; i++) {
      if (!(fast[i] as Evaluator).check(instance, run, marks, null)) return false;
    }
    return true;
  }

  private checkOutput(instance: unknown, run: Run, marks: Marks | undefined, out: NodeResult): boolean {
    let valid = true;
    for (const evaluator of this.all) {
      const unit: KeywordResult = {
        keyword: evaluator.keyword,
        keywordLocation: out.keywordLocation + "/" + escapeToken(evaluator.keyword),
        absoluteKeywordLocation: evaluator.absoluteKeywordLocation,
        instanceLocation: out.instanceLocation,
        valid: true,
        hasAnnotation: false,
        children: [],
      };
      unit.valid = evaluator.check(instance, run, marks, unit);
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
