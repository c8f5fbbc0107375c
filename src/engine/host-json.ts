/**
 * Checks that a host value is JSON (DESIGN.md "Runtime boundary"): symbol keys are ignored; functions,
 * `undefined`, bigint, non-finite numbers, class instances and cycles are reported with their JSON Pointer.
 * The walk is iterative, so depth alone cannot overflow the stack; it also measures the value.
 */

import { appendPointer } from "./pointer.js";

export interface JsonProblem {
  pointer: string;
  message: string;
}

export interface JsonMeasure {
  bytes: number;
  nodes: number;
  depth: number;
}

interface Frame {
  value: object;
  pointer: string;
  depth: number;
  exit: boolean;
}

function describe(value: unknown): string | undefined {
  switch (typeof value) {
    case "function": return "a function";
    case "undefined": return "undefined";
    case "bigint": return "a bigint";
    case "symbol": return "a symbol";
    case "number": return Number.isFinite(value) ? undefined : `the non-finite number ${String(value)}`;
    case "object": {
      if (value === null || Array.isArray(value)) return undefined;
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
      return `an instance of ${typeof name === "string" && name !== "" ? name : "a class"}`;
    }
    default: return undefined;
  }
}

/** Walks `root`; returns the first non-JSON value found, or the measures of the value. */
export function checkJson(root: unknown, stopAt?: Partial<JsonMeasure>): JsonProblem | JsonMeasure {
  const measure: JsonMeasure = { bytes: 0, nodes: 0, depth: 0 };
  const rootProblem = describe(root);
  if (rootProblem !== undefined) return { pointer: "", message: `${rootProblem} is not a JSON value` };
  measure.nodes = 1;
  measure.bytes = scalarBytes(root);
  if (typeof root !== "object" || root === null) return measure;
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value: root, pointer: "", depth: 1, exit: false }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.exit) { ancestors.delete(frame.value); continue; }
    if (ancestors.has(frame.value)) return { pointer: frame.pointer, message: "a cycle in the object graph is not JSON" };
    ancestors.add(frame.value);
    stack.push({ ...frame, exit: true });
    if (frame.depth > measure.depth) measure.depth = frame.depth;
    const entries: [string | number, unknown][] = Array.isArray(frame.value)
      ? frame.value.map((v, i) => [i, v])
      : Object.keys(frame.value).map((k) => [k, (frame.value as Record<string, unknown>)[k]]);
    if (Array.isArray(frame.value) && frame.value.length !== Object.keys(frame.value).length) {
      return { pointer: frame.pointer, message: "a sparse array is not JSON" };
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i] as [string | number, unknown];
      const pointer = appendPointer(frame.pointer, key);
      const problem = describe(value);
      if (problem !== undefined) return { pointer, message: `${problem} is not a JSON value` };
      measure.nodes++;
      measure.bytes += scalarBytes(value) + (typeof key === "string" ? key.length + 4 : 1);
      if (stopAt !== undefined && exceeded(measure, stopAt)) return measure;
      if (typeof value === "object" && value !== null) stack.push({ value, pointer, depth: frame.depth + 1, exit: false });
    }
  }
  return measure;
}

function exceeded(m: JsonMeasure, stop: Partial<JsonMeasure>): boolean {
  return (stop.bytes !== undefined && m.bytes > stop.bytes) || (stop.nodes !== undefined && m.nodes > stop.nodes);
}

function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case "string": return value.length + 2;
    case "number": return String(value).length;
    case "boolean": return value ? 4 : 5;
    default: return value === null ? 4 : 2;
  }
}

export function isJsonProblem(r: JsonProblem | JsonMeasure): r is JsonProblem {
  return Object.hasOwn(r, "message");
}
