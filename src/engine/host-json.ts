/**
 * Checks that a host value is JSON (DESIGN.md "Runtime boundary"): symbol keys are ignored; functions,
 * `undefined`, bigint, non-finite numbers, class instances, sparse arrays and cycles are reported with
 * their JSON Pointer. The walk is iterative, so no depth can overflow the stack, and it stops at the
 * first bound exceeded.
 */

import { codePointLength } from "./json.js";
import { appendPointer } from "./pointer.js";

export interface JsonBounds {
  bytes?: number;
  nodes?: number;
  depth?: number;
  stringLength?: number;
  arrayLength?: number;
  objectProperties?: number;
}

export interface JsonMeasure {
  bytes: number;
  nodes: number;
}

export type JsonCheck =
  | { ok: true; measure: JsonMeasure }
  | { ok: false; pointer: string; message: string; bound?: keyof JsonBounds };

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

/** Walks `root` and returns the first non-JSON value or exceeded bound found, or the value's measures. */
export function checkJson(root: unknown, bounds: JsonBounds = {}): JsonCheck {
  const measure: JsonMeasure = { bytes: 0, nodes: 0 };
  const over = (bound: keyof JsonBounds, pointer: string): JsonCheck => ({ ok: false, pointer, bound, message: `exceeds the ${bound} bound (${bounds[bound]})` });
  const visit = (value: unknown, pointer: string, keyBytes: number): JsonCheck | undefined => {
    const problem = describe(value);
    if (problem !== undefined) return { ok: false, pointer, message: `${problem} is not a JSON value` };
    measure.nodes++;
    measure.bytes += scalarBytes(value) + keyBytes;
    if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over("nodes", pointer);
    if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over("bytes", pointer);
    if (typeof value === "string" && bounds.stringLength !== undefined && value.length > bounds.stringLength && codePointLength(value) > bounds.stringLength) {
      return over("stringLength", pointer);
    }
    return undefined;
  };
  const first = visit(root, "", 0);
  if (first !== undefined) return first;
  if (typeof root !== "object" || root === null) return { ok: true, measure };
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value: root, pointer: "", depth: 1, exit: false }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.exit) {
      ancestors.delete(frame.value);
      continue;
    }
    if (ancestors.has(frame.value)) return { ok: false, pointer: frame.pointer, message: "a cycle in the object graph is not JSON" };
    if (bounds.depth !== undefined && frame.depth > bounds.depth) return over("depth", frame.pointer);
    ancestors.add(frame.value);
    stack.push({ ...frame, exit: true });
    const isArray = Array.isArray(frame.value);
    const keys = Object.keys(frame.value);
    if (isArray && keys.length !== (frame.value as unknown[]).length) return { ok: false, pointer: frame.pointer, message: "a sparse array is not JSON" };
    if (isArray && bounds.arrayLength !== undefined && keys.length > bounds.arrayLength) return over("arrayLength", frame.pointer);
    if (!isArray && bounds.objectProperties !== undefined && keys.length > bounds.objectProperties) return over("objectProperties", frame.pointer);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const value = (frame.value as Record<string, unknown>)[key];
      const pointer = appendPointer(frame.pointer, key);
      const found = visit(value, pointer, isArray ? 1 : key.length + 4);
      if (found !== undefined) return found;
      if (typeof value === "object" && value !== null) stack.push({ value, pointer, depth: frame.depth + 1, exit: false });
    }
  }
  return { ok: true, measure };
}

function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case "string": return value.length + 2;
    case "number": return String(value).length;
    case "boolean": return value ? 4 : 5;
    default: return value === null ? 4 : 2;
  }
}
