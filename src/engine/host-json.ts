/**
 * Checks that a host value is JSON (README "The MCP tool-call boundary"): symbol keys are ignored; functions,
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

interface JsonMeasure {
  bytes: number;
  nodes: number;
}

export type JsonCheck =
  { ok: true; measure: JsonMeasure } | { ok: false; pointer: string; message: string; bound?: keyof JsonBounds };

function describe(value: unknown): string | undefined {
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
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
      return `an instance of ${typeof name === "string" && name !== "" ? name : "a class"}`;
    }
    default:
      return undefined;
  }
}

/** Walks `root` and returns the first non-JSON value or exceeded bound found, or the value's measures. */
export function checkJson(root: unknown, bounds: JsonBounds = {}): JsonCheck {
  const measure: JsonMeasure = { bytes: 0, nodes: 0 };
  const over = (bound: keyof JsonBounds, pointer: string): JsonCheck => ({
    ok: false,
    pointer,
    bound,
    message: `exceeds the ${bound} bound (${bounds[bound]})`,
  });
  const visit = (value: unknown, pointer: string, keyBytes: number): JsonCheck | undefined => {
    const problem = describe(value);
    if (problem !== undefined) return { ok: false, pointer, message: `${problem} is not a JSON value` };
    measure.nodes++;
    measure.bytes += scalarBytes(value) + keyBytes;
    if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over("nodes", pointer);
    if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over("bytes", pointer);
    if (
      typeof value === "string" &&
      bounds.stringLength !== undefined &&
      value.length > bounds.stringLength &&
      codePointLength(value) > bounds.stringLength
    ) {
      return over("stringLength", pointer);
    }
    return undefined;
  };
  const first = visit(root, "", 0);
  if (first !== undefined) return first;
  if (typeof root !== "object" || root === null) return { ok: true, measure };
  // Iterative depth-first walk: `values[i]` is entered when pushed and left when its marker comes back.
  const ancestors = new Set<object>();
  const values: object[] = [root];
  const pointers: string[] = [""];
  const depths: number[] = [1];
  const leaving: boolean[] = [false];
  while (values.length > 0) {
    const value = values.pop() as object;
    const pointer = pointers.pop() as string;
    const depth = depths.pop() as number;
    if (leaving.pop() === true) {
      ancestors.delete(value);
      continue;
    }
    if (ancestors.has(value)) return { ok: false, pointer, message: "a cycle in the object graph is not JSON" };
    if (bounds.depth !== undefined && depth > bounds.depth) return over("depth", pointer);
    ancestors.add(value);
    values.push(value);
    pointers.push(pointer);
    depths.push(depth);
    leaving.push(true);
    const isArray = Array.isArray(value);
    const keys = Object.keys(value);
    if (isArray && keys.length !== value.length) return { ok: false, pointer, message: "a sparse array is not JSON" };
    if (isArray && bounds.arrayLength !== undefined && keys.length > bounds.arrayLength)
      return over("arrayLength", pointer);
    if (!isArray && bounds.objectProperties !== undefined && keys.length > bounds.objectProperties)
      return over("objectProperties", pointer);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child = (value as Record<string, unknown>)[key];
      if (typeof child !== "object" || child === null) {
        if (
          typeof child === "string" ||
          typeof child === "boolean" ||
          child === null ||
          (typeof child === "number" && Number.isFinite(child))
        ) {
          measure.nodes++;
          measure.bytes += scalarBytes(child) + (isArray ? 1 : key.length + 4);
          if (
            typeof child === "string" &&
            bounds.stringLength !== undefined &&
            child.length > bounds.stringLength &&
            codePointLength(child) > bounds.stringLength
          ) {
            return over("stringLength", appendPointer(pointer, key));
          }
          if (bounds.nodes !== undefined && measure.nodes > bounds.nodes)
            return over("nodes", appendPointer(pointer, key));
          if (bounds.bytes !== undefined && measure.bytes > bounds.bytes)
            return over("bytes", appendPointer(pointer, key));
          continue;
        }
      }
      const childPointer = appendPointer(pointer, key);
      const found = visit(child, childPointer, isArray ? 1 : key.length + 4);
      if (found !== undefined) return found;
      if (typeof child === "object" && child !== null) {
        values.push(child);
        pointers.push(childPointer);
        depths.push(depth + 1);
        leaving.push(false);
      }
    }
  }
  return { ok: true, measure };
}

function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return String(value).length;
    case "boolean":
      return value ? 4 : 5;
    default:
      return value === null ? 4 : 2;
  }
}
