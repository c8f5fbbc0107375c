/**
 * Values as the verdict fast path reads them: their JSON type bits (0 for what is not JSON data by itself), and the
 * JSON data check of values no subschema applies to, charged to the tally (json/json-data.ts walks them).
 */

import { RECURSION, shallowCount } from "../json/json-data.js";
import { type Tally, Verdict } from "./tally.js";

/** The type bits the fast path tests by name (json/types.ts). */
export const enum Bits {
  NUMBER = 16,
  /** An integral number's own bit; `jsonBits` gives such a number `NUMBER` too. */
  INTEGER = 64,
  OBJECT = 4,
  ARRAY = 8,
}

/**
 * The JSON type bits of a value (json/types.ts: an integral number carries "number" and "integer"), 0 when it is not
 * JSON data by itself (a non-finite number, undefined, a function, a bigint, a symbol). An object's prototype is
 * checked where its members are read.
 */
export function jsonBits(value: unknown): number {
  if (typeof value === "string") return 32;
  if (typeof value === "number") return Number.isInteger(value) ? 80 : value - value === 0 ? 16 : 0;
  if (typeof value === "boolean") return 2;
  if (typeof value === "object") return value === null ? 1 : Array.isArray(value) ? Bits.ARRAY : Bits.OBJECT;
  return 0;
}

/** Whether an object's prototype lets it be JSON data (`Object.prototype` or none). */
export function plain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The JSON data check of a member no subschema applies to: VALID, charging it and every value below it, or UNKNOWN
 * (not JSON data, nested too deep to walk here, or past the budget). Nothing is walked for a value checked before.
 */
export function walkMember(tally: Tally, value: unknown): number {
  if (tally.checked) {
    tally.steps++;
    return Verdict.VALID;
  }
  if (typeof value !== "object" || value === null) {
    if (jsonBits(value) === 0) return Verdict.UNKNOWN;
    tally.steps++;
    return Verdict.VALID;
  }
  const left = tally.maxSteps - tally.steps;
  const count = left < 1 ? -1 : shallowCount(value, RECURSION, left);
  if (count < 0) return Verdict.UNKNOWN;
  tally.steps += count;
  return Verdict.VALID;
}

/**
 * The JSON data check of the members of an object or array that a check accepted as a whole: VALID, charging
 * `perValue` for each value below it, or UNKNOWN. Nothing is walked (or charged) for a value checked before.
 */
export function walkBelow(tally: Tally, value: object, perValue: number): number {
  if (tally.checked) return Verdict.VALID;
  const left = tally.maxSteps - tally.steps;
  const count = left < 1 ? -1 : shallowCount(value, RECURSION, left + 1);
  if (count < 0) return Verdict.UNKNOWN;
  tally.steps += (count - 1) * perValue;
  return Verdict.VALID;
}
