/**
 * A subschema the fast path does not cover, run on the accounted path inside it: its node's boolean path on a run of
 * its own, started as deep as the fast path is (an upper bound of the accounted path's own counters there), whose steps
 * are then charged to the fast path's tally. A limit it hits is no verdict: UNKNOWN, so that the whole instance is
 * evaluated on the accounted path, which reports it where it is.
 */

import { isInstance, LimitError } from "../errors.js";
import type { Subschema } from "../evaluate/run.js";
import { Run } from "../evaluate/run.js";
import { type Tally, Verdict } from "./tally.js";
import { jsonBits, walkBelow } from "./values.js";

/**
 * Runs `node` on the accounted path, applied to the value in place at `depth` (as a member, its entry is charged by
 * the member's caller), on the tally's spare run (or a new one, if a call meanwhile holds it); the value it accepts is
 * then checked as JSON data.
 */
export function accounted(tally: Tally, node: Subschema, value: unknown, depth: number): number {
  let run = (tally.spare ??= new Run(tally.limits, false));
  if (run.active) run = new Run(tally.limits, false);
  else run.reset();
  run.active = true;
  // At `depth` fast applications below the root, no accounted counter is higher than `depth`.
  run.instanceDepth = depth;
  run.nesting = depth;
  run.references = depth;
  let valid: boolean;
  try {
    valid = node.test(value, run, undefined);
  } catch (e) {
    if (isInstance(e, LimitError) || e instanceof RangeError) return Verdict.UNKNOWN;
    throw e;
  } finally {
    run.release();
    run.active = false;
  }
  tally.steps += run.steps;
  if (!valid) return Verdict.INVALID;
  if (typeof value === "object" && value !== null) return walkBelow(tally, value, 1);
  return jsonBits(value) === 0 ? Verdict.UNKNOWN : Verdict.VALID;
}
