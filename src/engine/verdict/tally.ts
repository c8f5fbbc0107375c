/**
 * The verdict fast path's protocol (docs/project/performance.md "The verdict fast path"). A fast check answers VALID,
 * INVALID or UNKNOWN for a value; while it runs it adds to its tally's `steps` an upper bound of what the accounted
 * path (`SchemaNode.test`) would charge for the same value — steps, and the values the JSON data check visits — so
 * that one comparison at the end proves that no limit can be reached: within the budget, VALID and INVALID are the
 * accounted path's verdict (a check goes on after a failure, so that what it spent bounds whatever the accounted path
 * evaluates before it stops). UNKNOWN, or a tally over the budget, hands the instance to the accounted path, which
 * alone reports limits and locations.
 */

import { LimitError } from "../errors.js";
import type { Meter, Run } from "../evaluate/run.js";
import { codePointLength } from "../json/json.js";
import type { Limits } from "../limits.js";
import type { FastNode } from "./fast-node.js";

/**
 * A fast check's answer. A const enum, so every use is a literal: hot loops read no module binding. Answers combine
 * with `|`: UNKNOWN wins over INVALID, INVALID over VALID.
 */
export const enum Verdict {
  VALID = 0,
  INVALID = 1,
  /** Not decided here (a value that is not JSON data, a limit that may be reached, a subtree's limit error). */
  UNKNOWN = 2,
}

/**
 * One fast check's run, threaded through every check as the accounted path threads `Run`: what its checks have spent
 * (`steps`, in units: steps the accounted path would charge, plus values the JSON data check would visit) and may
 * spend (`maxSteps`, the budget), the limits in force, and the member an object walk leaves to the check loop. The
 * assertions that meter their work (`Meter`) charge it as they charge a run, and throw the same `LimitError`s, which
 * make the answer UNKNOWN. The fast paths of every validator with the same limits share one, reused call after call
 * (validator.ts `spareTally`); a call made while it runs (a host getter validating meanwhile) gets a run of its own.
 */
export class Tally implements Meter {
  steps = 0;
  /** The two limits the assertions read as fields. */
  readonly maxRegexSteps: number;
  readonly maxInstanceDepth: number;
  /**
   * The member the last object walk left to `check`'s loop, and its value: set only as the walk returns, and taken at
   * once (no host code runs between).
   */
  next: FastNode | undefined = undefined;
  nextValue: unknown = undefined;
  /** Whether a check is running on this tally (a call meanwhile takes another). */
  active = false;
  /** The run the nodes on the accounted path reuse (accounted.ts), made when first needed. */
  spare: Run | undefined = undefined;

  constructor(
    readonly limits: Readonly<Limits>,
    /** The budget: past it, nothing is decided here. */
    readonly maxSteps: number,
  ) {
    this.maxRegexSteps = limits.maxRegexSteps;
    this.maxInstanceDepth = limits.maxInstanceDepth;
  }
  /**
   * Whether the value was checked as JSON data within the instance limits before (by the boundary): then the JSON data
   * check of what no subschema applies to walks nothing (values.ts), and a member costs one unit, as a scalar does.
   */
  checked = false;

  spend(steps: number): void {
    if ((this.steps += steps) > this.maxSteps) this.limit("maxEvaluationSteps");
  }

  string(value: string): void {
    const max = this.limits.maxStringLength;
    if (value.length > max && codePointLength(value) > max) this.limit("maxStringLength");
  }

  items(array: readonly unknown[]): void {
    if (array.length > this.limits.maxArrayLength) this.limit("maxArrayLength");
  }

  ownKeys(object: object): string[] {
    return Object.keys(object);
  }

  limit(name: keyof Limits): never {
    throw new LimitError(name, this.limits[name]);
  }
}
