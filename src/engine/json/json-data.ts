/**
 * Whether an instance is JSON data (the `Validator`'s rule, docs/guide/engine.md "Values that are not JSON data"):
 * every value in it is a string, a finite number, a boolean, null, an array without holes or an object whose
 * prototype is `Object.prototype` or `null`, and no object contains itself. Symbol-keyed properties are not JSON
 * members and are not looked at. The walk visits each value of the tree once (an object reached along several paths,
 * once per path), at most `maxNodes` of them, so a shared object that expands past them is a limit, never a hang;
 * nesting of any depth is walked iteratively, and a cycle is found where the nesting passes the next power of two.
 */

import { LimitError } from "../errors.js";
import { hasOwn } from "./json.js";

/** What a value is when it is not JSON data by itself (its members aside), for messages; undefined when it is. */
export function notJsonKind(value: unknown): string | undefined {
  switch (typeof value) {
    case "function":
      return "a function";
    case "undefined":
      return "undefined";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "number":
      return Number.isFinite(value) ? undefined : `the non-finite number ${String(value)}`;
    case "object": {
      if (value === null || Array.isArray(value)) return undefined;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name;
      return `an instance of ${typeof name === "string" && name !== "" ? name : "a class"}`;
    }
    default:
      return undefined;
  }
}

/** A value that is not JSON data: where it is (JSON Pointer tokens from the root) and what it is. */
export interface NotJson {
  readonly path: readonly (string | number)[];
  readonly what: string;
}

/** Levels the recursive walk goes down before it hands over to the iterative one (no stack is ever at risk). */
const RECURSION = 64;

/** `shallowCount` results besides a count of values. */
const NOT_JSON = -1;
const HANDED_OVER = -2;

/**
 * The values in `value` (itself included, `budget` at least 1) when all are JSON data; NOT_JSON at the first that is
 * not; HANDED_OVER when it is nested deeper than `levels` or holds more than `budget` values. No allocation.
 */
function shallowCount(value: unknown, levels: number, budget: number): number {
  if (typeof value !== "object") {
    if (typeof value === "string" || typeof value === "boolean") return 1;
    return typeof value === "number" && value - value === 0 ? 1 : NOT_JSON;
  }
  if (value === null) return 1;
  if (levels === 0) return HANDED_OVER;
  let count = 1;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (count >= budget) return HANDED_OVER;
      const n = shallowCount(value[i], levels - 1, budget - count);
      if (n < 0) return n;
      count += n;
    }
    return count;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_JSON;
  for (const key in value) {
    if (!hasOwn(value, key)) continue;
    if (count >= budget) return HANDED_OVER;
    const n = shallowCount((value as Record<string, unknown>)[key], levels - 1, budget - count);
    if (n < 0) return n;
    count += n;
  }
  return count;
}

/**
 * Whether every value of `value` is JSON data. Throws `LimitError` (`maxInstanceNodes`) past `maxNodes` values below
 * the root (as evaluation counts them), a verdict it cannot give.
 */
export function isJsonData(value: unknown, maxNodes: number): boolean {
  if (typeof value !== "object" || value === null) return shallowCount(value, 0, 1) !== NOT_JSON;
  const n = shallowCount(value, RECURSION, maxNodes + 1);
  if (n >= 0) return true;
  return n === NOT_JSON ? false : findNotJson(value, maxNodes) === undefined;
}

/** One array or object on the iterative walk's path, and the next of its members to visit. */
interface Frame {
  readonly value: object;
  /** An object's own enumerable keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  next: number;
}

/** The JSON Pointer tokens of the member each of the first `count` frames is at. */
function tokensOf(path: readonly Frame[], count = path.length): (string | number)[] {
  const tokens: (string | number)[] = [];
  for (let i = 0; i < count; i++) {
    const frame = path[i] as Frame;
    tokens.push(frame.keys === undefined ? frame.next - 1 : (frame.keys[frame.next - 1] as string));
  }
  return tokens;
}

/** The index of the first frame whose object an outer frame holds already (a cycle), or -1. */
function repeated(path: readonly Frame[]): number {
  const seen = new Set<object>();
  for (let i = 0; i < path.length; i++) {
    const value = (path[i] as Frame).value;
    if (seen.has(value)) return i;
    seen.add(value);
  }
  return -1;
}

/**
 * The first value in `value` (itself included, depth first) that is not JSON data, or undefined when there is none.
 * Iterative: any nesting is fine. Throws `LimitError` (`maxInstanceNodes`) past `maxNodes` values below the root.
 */
export function findNotJson(value: unknown, maxNodes: number): NotJson | undefined {
  const path: Frame[] = [];
  let nodes = -1;
  // Where the path is next searched for an object that contains itself: doubling, so searching costs O(values).
  let searchAt = RECURSION;
  let current = value;
  for (;;) {
    if (++nodes > maxNodes) throw new LimitError("maxInstanceNodes", maxNodes);
    const what = notJsonKind(current);
    if (what !== undefined) return { path: tokensOf(path), what };
    if (typeof current === "object" && current !== null) {
      const keys = Array.isArray(current) ? undefined : Object.keys(current);
      path.push({
        value: current,
        keys,
        length: keys === undefined ? (current as unknown[]).length : keys.length,
        next: 0,
      });
      if (path.length >= searchAt) {
        const cycle = repeated(path);
        if (cycle >= 0) return { path: tokensOf(path, cycle), what: "an object that contains itself (a cycle)" };
        searchAt *= 2;
      }
    }
    for (;;) {
      const frame = path[path.length - 1];
      if (frame === undefined) return undefined;
      if (frame.next === frame.length) {
        path.pop();
        continue;
      }
      const at = frame.next++;
      if (frame.keys === undefined) {
        if (!hasOwn(frame.value, String(at))) return { path: tokensOf(path), what: "a hole in a sparse array" };
        current = (frame.value as unknown[])[at];
      } else current = (frame.value as Record<string, unknown>)[frame.keys[at] as string];
      break;
    }
  }
}
