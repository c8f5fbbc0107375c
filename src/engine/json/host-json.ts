/**
 * Checks that a host value is JSON data (docs/guide/boundary.md): symbol keys are ignored; functions,
 * `undefined`, bigint, non-finite numbers, class instances, sparse arrays, cycles, accessor properties and
 * non-enumerable properties are reported with their JSON Pointer, and no getter is ever called, so what is checked
 * is what a later read sees. The walk is iterative, so no depth can overflow the stack, and it stops at the first
 * bound exceeded. An object reached along several paths (a shared subschema) counts as its whole tree expansion, but
 * is walked once: the walk costs what the distinct objects cost.
 */

import { errorMessage } from "../errors.js";
import { codePointLength } from "./json.js";
import { escapeToken } from "./pointer.js";

export interface JsonBounds {
  bytes?: number;
  nodes?: number;
  depth?: number;
  stringLength?: number;
  arrayLength?: number;
  objectProperties?: number;
}

interface JsonMeasure {
  /** The size of the value's JSON text, as the schema limits count it (its tree expansion). */
  bytes: number;
  /** The values of the tree expansion. */
  nodes: number;
  /** Whether some object is reached along more than one path: the value is a DAG, not a tree. */
  shared: boolean;
}

export type JsonCheck =
  | { ok: true; measure: JsonMeasure }
  | {
      ok: false;
      pointer: string;
      message: string;
      bound?: keyof JsonBounds;
      /** What a Proxy trap threw while the value was read. */
      thrown?: unknown;
    };

/** An object on the walk; once `done`, the measures of its tree expansion, for the next path that reaches it. */
interface Frame {
  readonly value: object;
  readonly parent: Frame | undefined;
  /** The member of `parent` this object is (unescaped). */
  readonly key: string;
  readonly depth: number;
  readonly keys: readonly string[];
  readonly isArray: boolean;
  next: number;
  readonly startBytes: number;
  readonly startNodes: number;
  /** Object levels from this one down, itself included. */
  height: number;
  done: boolean;
  bytes: number;
  nodes: number;
}

/**
 * The getter of an own accessor property, without calling it (Annex B `__lookupGetter__`, which allocates nothing
 * and answers at once for an own property); a descriptor read where the platform lacks it.
 */
const lookupGetter = (Object.prototype as { __lookupGetter__?: (key: string) => unknown }).__lookupGetter__;

function isAccessor(object: object, key: string): boolean {
  if (typeof lookupGetter === "function") {
    if (lookupGetter.call(object, key) !== undefined) return true;
  } else if (Object.getOwnPropertyDescriptor(object, key)?.get !== undefined) {
    return true;
  }
  return false;
}

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

function pointerOf(frame: Frame | undefined, key?: string): string {
  const tokens: string[] = key === undefined ? [] : [key];
  for (let f = frame; f !== undefined && f.parent !== undefined; f = f.parent) tokens.push(f.key);
  let pointer = "";
  for (let i = tokens.length - 1; i >= 0; i--) pointer += "/" + escapeToken(tokens[i] as string);
  return pointer;
}

/** The first own string-keyed property of a plain object that `Object.keys` does not list. */
function hiddenName(value: object, keys: readonly string[]): string {
  const listed = new Set(keys);
  return Object.getOwnPropertyNames(value).find((name) => !listed.has(name)) as string;
}

/** Walks `root` and returns the first non-JSON value or exceeded bound found, or the value's measures. */
export function checkJson(root: unknown, bounds: JsonBounds = {}): JsonCheck {
  const measure: JsonMeasure = { bytes: 0, nodes: 0, shared: false };
  // Where the walk is, so that a Proxy trap throwing can be located.
  let at: Frame | undefined;
  let atKey: string | undefined;
  const over = (bound: keyof JsonBounds, frame: Frame | undefined, key?: string): JsonCheck => ({
    ok: false,
    pointer: pointerOf(frame, key),
    bound,
    message: `exceeds the ${bound} bound (${bounds[bound]})`,
  });
  const notJson = (message: string, frame: Frame | undefined, key?: string): JsonCheck => ({
    ok: false,
    pointer: pointerOf(frame, key),
    message,
  });
  /** Counts a value reached from `frame` at `key` (`keyBytes` its member syntax); a problem, or undefined. */
  const count = (value: unknown, keyBytes: number, frame: Frame | undefined, key?: string): JsonCheck | undefined => {
    measure.nodes++;
    measure.bytes += keyBytes + scalarBytes(value);
    if (
      typeof value === "string" &&
      bounds.stringLength !== undefined &&
      value.length > bounds.stringLength &&
      codePointLength(value) > bounds.stringLength
    ) {
      return over("stringLength", frame, key);
    }
    if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over("nodes", frame, key);
    if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over("bytes", frame, key);
    return undefined;
  };
  const seen = new Map<object, Frame>();
  /** Enters an object reached from `parent` at `key` (the root: no parent): a problem, or its frame to walk. */
  const enter = (value: object, parent: Frame | undefined, key: string, keyBytes: number): JsonCheck | Frame => {
    const member = parent === undefined ? undefined : key;
    // The member syntax is the parent's: the expansion of this object is what follows it.
    const startBytes = measure.bytes + keyBytes;
    const startNodes = measure.nodes;
    const counted = count(value, keyBytes, parent, member);
    if (counted !== undefined) return counted;
    const depth = parent === undefined ? 1 : parent.depth + 1;
    if (bounds.depth !== undefined && depth > bounds.depth) return over("depth", parent, member);
    const keys = Object.keys(value);
    const isArray = Array.isArray(value);
    if (isArray) {
      if (keys.length !== value.length) return notJson("a sparse array is not JSON", parent, member);
      if (bounds.arrayLength !== undefined && keys.length > bounds.arrayLength)
        return over("arrayLength", parent, member);
    } else {
      if (Object.getOwnPropertyNames(value).length !== keys.length) {
        const pointer = pointerOf(parent, member) + "/" + escapeToken(hiddenName(value, keys));
        return { ok: false, pointer, message: "a non-enumerable property is not JSON data" };
      }
      if (bounds.objectProperties !== undefined && keys.length > bounds.objectProperties)
        return over("objectProperties", parent, member);
    }
    const frame: Frame = {
      value,
      parent,
      key,
      depth,
      keys,
      isArray,
      next: 0,
      startBytes,
      startNodes,
      height: 1,
      done: false,
      bytes: 0,
      nodes: 0,
    };
    seen.set(value, frame);
    return frame;
  };
  try {
    const problem = describe(root);
    if (problem !== undefined) return notJson(`${problem} is not a JSON value`, undefined);
    if (typeof root !== "object" || root === null) {
      return count(root, 0, undefined) ?? { ok: true, measure };
    }
    const first = enter(root, undefined, "", 0);
    if (!isFrame(first)) return first;
    let frame: Frame | undefined = first;
    while (frame !== undefined) {
      at = frame;
      if (frame.next === frame.keys.length) {
        frame.done = true;
        frame.bytes = measure.bytes - frame.startBytes;
        frame.nodes = measure.nodes - frame.startNodes;
        const parent: Frame | undefined = frame.parent;
        if (parent !== undefined && frame.height + 1 > parent.height) parent.height = frame.height + 1;
        frame = parent;
        continue;
      }
      const key = frame.keys[frame.next++] as string;
      atKey = key;
      const value = frame.value;
      if (isAccessor(value, key)) return notJson("an accessor property (a getter) is not JSON data", frame, key);
      const child = (value as Record<string, unknown>)[key];
      const keyBytes = frame.isArray ? 1 : key.length + 4;
      if (
        typeof child === "string" ||
        typeof child === "boolean" ||
        child === null ||
        (typeof child === "number" && Number.isFinite(child))
      ) {
        const found = count(child, keyBytes, frame, key);
        if (found !== undefined) return found;
        continue;
      }
      const problem = describe(child);
      if (problem !== undefined) {
        const setter = child === undefined && Object.getOwnPropertyDescriptor(value, key)?.set !== undefined;
        const message = setter ? "an accessor property (a setter) is not JSON data" : `${problem} is not a JSON value`;
        return notJson(message, frame, key);
      }
      const object = child as object;
      const known = seen.get(object);
      if (known !== undefined) {
        if (!known.done) return notJson("a cycle in the object graph is not JSON", frame, key);
        // Reached again: its tree expansion counts again, without walking it again.
        measure.shared = true;
        measure.nodes += known.nodes;
        measure.bytes += keyBytes + known.bytes;
        if (bounds.depth !== undefined && frame.depth + known.height > bounds.depth) return over("depth", frame, key);
        if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over("nodes", frame, key);
        if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over("bytes", frame, key);
        if (known.height + 1 > frame.height) frame.height = known.height + 1;
        continue;
      }
      const entered = enter(object, frame, key, keyBytes);
      if (!isFrame(entered)) return entered;
      frame = entered;
      atKey = undefined;
    }
    return { ok: true, measure };
  } catch (e) {
    // A Proxy trap threw: the value cannot be read as data.
    return { ok: false, pointer: pointerOf(at, atKey), message: `could not be read: ${errorMessage(e)}`, thrown: e };
  }
}

function isFrame(value: JsonCheck | Frame): value is Frame {
  return Object.hasOwn(value, "keys");
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
