/**
 * Whether an instance is JSON data (the `Validator`'s rule, docs/guide/engine.md "Values that are not JSON data"):
 * every value in it is a string, a finite number, a boolean, null, an array without holes or an object whose
 * prototype is `Object.prototype` or `null`, and no object contains itself. Symbol-keyed properties are not JSON
 * members and are not looked at. The walk visits each value of the tree once (an object reached along several paths,
 * once per path), at most `maxNodes` of them, so a shared object that expands past them is a limit, never a hang;
 * nesting of any depth is walked iteratively, and an object that contains itself is found as the walk descends.
 */

import { LimitError } from "../errors.js";
import { hasOwn } from "./json.js";
import { appendPointer } from "./pointer.js";
import { walked } from "./walk-count.js";

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
export const RECURSION = 64;

/** `shallowCount` results besides a count of values. */
const NOT_JSON = -1;
const HANDED_OVER = -2;

/**
 * The values in `value` (itself included, `budget` at least 1) when all are JSON data; NOT_JSON at the first that is
 * not; HANDED_OVER when it is nested deeper than `levels` or holds more than `budget` values. No allocation.
 */
export function shallowCount(value: unknown, levels: number, budget: number): number {
  const count = countValues(value, levels, budget);
  if (count > 0) walked(count);
  return count;
}

/** `shallowCount`'s walk, which calls itself for what is nested. */
function countValues(value: unknown, levels: number, budget: number): number {
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
      const item: unknown = value[i];
      // Scalars here, without a call each: most members are.
      if (typeof item === "string" || typeof item === "boolean" || item === null) count++;
      else if (typeof item === "number") {
        if (item - item !== 0) return NOT_JSON;
        count++;
      } else {
        const n = countValues(item, levels - 1, budget - count);
        if (n < 0) return n;
        count += n;
      }
    }
    return count;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_JSON;
  for (const key in value) {
    if (!hasOwn(value, key)) continue;
    if (count >= budget) return HANDED_OVER;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === "string" || typeof member === "boolean" || member === null) count++;
    else if (typeof member === "number") {
      if (member - member !== 0) return NOT_JSON;
      count++;
    } else {
      const n = countValues(member, levels - 1, budget - count);
      if (n < 0) return n;
      count += n;
    }
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

/**
 * The iterative walk's path: the arrays and objects from the root down, with, for each, an object's own keys
 * (undefined for an array), its member count and the next member to visit, in parallel arrays (no object per level).
 */
class Path {
  readonly values: object[] = [];
  readonly keys: (readonly string[] | undefined)[] = [];
  readonly lengths: number[] = [];
  readonly nexts: number[] = [];

  get depth(): number {
    return this.values.length;
  }

  push(value: object): void {
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    this.values.push(value);
    this.keys.push(keys);
    this.lengths.push(keys === undefined ? (value as unknown[]).length : keys.length);
    this.nexts.push(0);
  }

  pop(): void {
    this.values.pop();
    this.keys.pop();
    this.lengths.pop();
    this.nexts.pop();
  }

  /** The JSON Pointer tokens of the member each of the first `count` levels is at. */
  tokens(count = this.depth): (string | number)[] {
    const tokens: (string | number)[] = [];
    for (let i = 0; i < count; i++) {
      const keys = this.keys[i];
      const at = (this.nexts[i] as number) - 1;
      tokens.push(keys === undefined ? at : (keys[at] as string));
    }
    return tokens;
  }
}

/**
 * The first value in `value` (itself included, depth first) that is not JSON data, or undefined when there is none.
 * Iterative: any nesting is fine. Throws `LimitError` (`maxInstanceNodes`, located at the value past `maxNodes` values
 * below the root). An
 * object that contains itself makes the path repeat; it is found as Brent's algorithm finds a cycle: each object
 * pushed is compared with one remembered object, which moves down to the newest whenever the path doubles its length
 * since it was remembered (and is forgotten when the walk climbs above it), so the search costs a comparison a level.
 */
export function findNotJson(value: unknown, maxNodes: number): NotJson | undefined {
  const path = new Path();
  let nodes = -1;
  let mark: object | undefined;
  let markDepth = 0;
  let current = value;
  try {
    for (;;) {
      if (++nodes > maxNodes) {
        const instancePointer = path.tokens().reduce<string>((pointer, token) => appendPointer(pointer, token), "");
        throw new LimitError("maxInstanceNodes", maxNodes, { instancePointer });
      }
      const what = notJsonKind(current);
      if (what !== undefined) return { path: path.tokens(), what };
      if (typeof current === "object" && current !== null) {
        if (current === mark) return { path: path.tokens(), what: "an object that contains itself (a cycle)" };
        path.push(current);
        if (path.depth >= 2 * markDepth) {
          mark = current;
          markDepth = path.depth;
        }
      }
      for (;;) {
        const depth = path.depth;
        if (depth === 0) return undefined;
        const top = depth - 1;
        const at = path.nexts[top] as number;
        if (at === path.lengths[top]) {
          path.pop();
          if (depth === markDepth) {
            mark = undefined;
            markDepth = 0;
          }
          continue;
        }
        path.nexts[top] = at + 1;
        const container = path.values[top] as object;
        const keys = path.keys[top];
        if (keys === undefined) {
          current = (container as unknown[])[at];
          // A hole reads as undefined, which is not JSON data either: only then is it told apart.
          if (current === undefined && !hasOwn(container, String(at)))
            return { path: path.tokens(), what: "a hole in a sparse array" };
        } else current = (container as Record<string, unknown>)[keys[at] as string];
        break;
      }
    }
  } finally {
    walked(nodes + 1);
  }
}
