/**
 * The verdict fast path's protocol (docs/project/performance.md "The verdict fast path"). A fast check answers VALID,
 * INVALID or UNKNOWN for a value; while it runs it adds to `tally.steps` an upper bound of what the accounted path
 * (`SchemaNode.test`) would charge for the same value — steps, and the values the JSON data check visits — so
 * that one comparison at the end proves that no limit can be reached: within the budget, VALID and INVALID are the
 * accounted path's verdict (a check goes on after a failure, so that what it spent bounds whatever the accounted path
 * evaluates before it stops). UNKNOWN, or a tally over the budget, hands the instance to the accounted path, which
 * alone reports limits and locations.
 */

import { LimitError } from "../errors.js";
import type { Meter } from "../evaluate/run.js";
import { codePointLength } from "../json/json.js";
import { defaultLimits, type Limits } from "../limits.js";

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

/** A fast check of `value`, `depth` applications below the root: VALID, INVALID or UNKNOWN. */
export type Fast = (value: unknown, depth: number) => number;

/**
 * The fast path's meter: what its checks have spent (`steps`, in units: steps the accounted path would charge, plus
 * values the JSON data check would visit) and may spend (`maxSteps`, the budget). Assertions that meter their work
 * (`Meter`) charge it here as they charge a run, and throw the same `LimitError`s, which make the answer UNKNOWN. One
 * object, read and written by every check: no run is made per call.
 */
class Tally implements Meter {
  steps = 0;
  maxSteps = 0;
  /** The limits in force and the two the assertions read as fields, always set together (`check.ts` `setLimits`). */
  limits: Readonly<Limits> = defaultLimits;
  maxRegexSteps = defaultLimits.maxRegexSteps;
  maxInstanceDepth = defaultLimits.maxInstanceDepth;
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

export const tally = new Tally();
