/**
 * Checks that a host value is JSON data (docs/guide/boundary.md): symbol keys are ignored; functions,
 * `undefined`, bigint, non-finite numbers, class instances, sparse arrays, cycles, accessor properties and
 * non-enumerable properties are reported with their JSON Pointer, and no getter is ever called, so what is checked
 * is what a later read sees. The walk is iterative, so no depth can overflow the stack, and it stops at the first
 * bound exceeded. An object reached along several paths (a shared subschema) counts as its whole tree expansion, but
 * is walked once: the walk costs what the distinct objects cost. A schema document is measured by the same walk
 * (`checkJson` given its subschema positions): every value of it counts, keyword values such as `const` included.
 */

import { errorMessage } from "../errors.js";
import { codePointLength } from "./json.js";
import { notJsonKind } from "./json-data.js";
import { escapeToken } from "./pointer.js";
import { walked } from "./walk-count.js";

/** Keywords that hold subschemas and how their values nest: one subschema, an array of them, or a map by name. */
export type SubschemaPositions = ReadonlyMap<string, "schema" | "array" | "map">;

export interface JsonBounds {
  /** The size of the JSON text (the tree expansion's). */
  bytes?: number;
  /** The values of the tree expansion: objects, arrays and scalars, every one. */
  nodes?: number;
  /** The levels of nesting: the root is at level 1, each array or object one level below its parent. */
  depth?: number;
  stringLength?: number;
  arrayLength?: number;
  objectProperties?: number;
}

/**
 * What an object or array is in a schema document: a schema (or any value outside one), the array or map of a
 * keyword that holds subschemas, or a keyword's other data. Values that are not schema documents are all `DATA`.
 */
const SCHEMA = 0;
const HOLDER = 1;
const DATA = 2;
type Role = typeof SCHEMA | typeof HOLDER | typeof DATA;

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
  /** What it is in a schema document (`Role`); `DATA` outside one. */
  readonly role: Role;
  readonly keys: readonly string[];
  readonly isArray: boolean;
  next: number;
  readonly startBytes: number;
  readonly startNodes: number;
  /** Levels from this one down, itself included (a holder adds none). */
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

/**
 * The role of an object or array reached from `parent` at `key`, in a schema document laid out by `positions`: below a
 * schema, the value of a keyword that holds subschemas is their holder (an array for `"array"`, an object for `"map"`)
 * or, for `"schema"`, a schema; below a holder, a schema; anything else is data.
 */
function roleOf(value: object, parent: Frame | undefined, key: string, positions: SubschemaPositions): Role {
  const array = Array.isArray(value);
  if (parent === undefined) return array ? DATA : SCHEMA;
  if (parent.role === HOLDER) return array ? DATA : SCHEMA;
  if (parent.role !== SCHEMA) return DATA;
  switch (positions.get(key)) {
    case "schema":
      return array ? DATA : SCHEMA;
    case "array":
      return array ? HOLDER : DATA;
    case "map":
      return array ? DATA : HOLDER;
    default:
      return DATA;
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

/**
 * Walks `root` and returns the first non-JSON value or exceeded bound found, or the value's measures. With
 * `positions`, `root` is a schema document (Core §4.3) whose subschemas sit where those keywords say, and the depth
 * is the levels below the root schema: each subschema is one level and so is each array or object inside a keyword's
 * value, while the object or array that only holds subschemas (`properties`' object, `allOf`'s array) adds none. So
 * `{ properties: { a: { not: {} } } }` and `{ const: [[1]] }` are both 2 deep.
 */
export function checkJson(root: unknown, bounds: JsonBounds = {}, positions?: SubschemaPositions): JsonCheck {
  const walk = new JsonWalk(bounds, positions);
  try {
    return walk.run(root);
  } catch (e) {
    // A Proxy trap threw: the value cannot be read as data.
    const message = `could not be read: ${errorMessage(e)}`;
    return { ok: false, pointer: pointerOf(walk.at, walk.atKey), message, thrown: e };
  } finally {
    walked(walk.measure.nodes);
  }
}

/** Levels `isDataWithin` walks (an object or array deeper, or a cycle, is left to `checkJson`). */
const QUICK_LEVELS = 32;

/** `isDataWithin`'s bounds, every one a number. */
type QuickBounds = Required<Omit<JsonBounds, "bytes">>;

/** The bounds `isDataWithin` takes: `nodes` must be given (it bounds the walk of an object reached on many paths). */
export type DataBounds = Omit<JsonBounds, "bytes"> & { nodes: number };

/**
 * Whether `value` is JSON data within `bounds` (given without `bytes`), found by a recursive walk that keeps no
 * frames: true only where `checkJson(value, bounds)` answers ok; false for whatever it meets that `checkJson` might
 * refuse (a value that is not JSON data, an accessor, a property `Object.keys` does not list, a bound reached) and for
 * nesting past `QUICK_LEVELS` (a cycle ends there), where `checkJson` decides and locates. An object reached along
 * several paths is walked along each, so its values count as the tree expansion's, as `checkJson` counts them. No
 * getter is called: every property is asked whether it is an accessor before it is read.
 */
export function isDataWithin(value: unknown, bounds: DataBounds): boolean {
  const all: QuickBounds = {
    nodes: bounds.nodes,
    depth: bounds.depth ?? Infinity,
    stringLength: bounds.stringLength ?? Infinity,
    arrayLength: bounds.arrayLength ?? Infinity,
    objectProperties: bounds.objectProperties ?? Infinity,
  };
  let count: number;
  try {
    count = typeof value === "object" && value !== null ? quickCount(value, 1, all, all.nodes) : scalar(value, all);
  } catch {
    // A Proxy trap threw: `checkJson` reports it.
    return false;
  }
  if (count < 0 || count > all.nodes) return false;
  walked(count);
  return true;
}

/** 1 for a scalar that is JSON data within the string bound, else -1. */
function scalar(value: unknown, bounds: QuickBounds): number {
  if (typeof value === "string")
    return value.length > bounds.stringLength && codePointLength(value) > bounds.stringLength ? -1 : 1;
  if (typeof value === "boolean" || value === null) return 1;
  return typeof value === "number" && value - value === 0 ? 1 : -1;
}

/** The values of an object or array at `depth` (itself included), at most `budget`; -1 for anything else. */
function quickCount(value: object, depth: number, bounds: QuickBounds, budget: number): number {
  if (depth > bounds.depth || depth > QUICK_LEVELS) return -1;
  const keys = Object.keys(value);
  let array = false;
  if (Array.isArray(value)) {
    array = true;
    if (keys.length !== value.length || value.length > bounds.arrayLength) return -1;
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return -1;
    if (keys.length > bounds.objectProperties || Object.getOwnPropertyNames(value).length !== keys.length) return -1;
  }
  let count = 1;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (isAccessor(value, key)) return -1;
    const member: unknown = array ? (value as unknown[])[i] : (value as Record<string, unknown>)[key];
    const n =
      typeof member === "object" && member !== null
        ? quickCount(member, depth + 1, bounds, budget - count)
        : scalar(member, bounds);
    if (n < 0) return -1;
    count += n;
    if (count > budget) return -1;
  }
  return count;
}

/**
 * One walk of `checkJson`: the loop over the objects' members (`run`), what each member is (`member`, the kinds of
 * value), and what it counts against the bounds (`count`, `enter`, `reached`).
 */
class JsonWalk {
  readonly measure: JsonMeasure = { bytes: 0, nodes: 0, shared: false };
  /** Where the walk is, so that a Proxy trap throwing can be located. */
  at: Frame | undefined = undefined;
  atKey: string | undefined = undefined;
  /**
   * Each object once per role it is reached in (a role follows from the path: at most three walks of one object); a
   * role's map made when an object is first entered in it (a value that is not a schema document has one role).
   */
  private readonly seen: (Map<object, Frame> | undefined)[] = [undefined, undefined, undefined];

  constructor(
    private readonly bounds: JsonBounds,
    private readonly positions: SubschemaPositions | undefined,
  ) {}

  /** The walk from `root`, depth first, one frame per object entered. */
  run(root: unknown): JsonCheck {
    const problem = notJsonKind(root);
    if (problem !== undefined) return notJson(`${problem} is not a JSON value`, undefined);
    if (typeof root !== "object" || root === null) return this.count(root, 0, undefined) ?? this.done();
    const role = this.positions === undefined ? DATA : roleOf(root, undefined, "", this.positions);
    const first = this.enter(root, undefined, "", role);
    if (!isFrame(first)) return first;
    let frame: Frame | undefined = first;
    while (frame !== undefined) {
      this.at = frame;
      if (frame.next === frame.keys.length) {
        frame = this.leave(frame);
        continue;
      }
      const key = frame.keys[frame.next++] as string;
      this.atKey = key;
      const next = this.member(frame, key);
      if (next === undefined) continue;
      if (!isFrame(next)) return next;
      frame = next;
      this.atKey = undefined;
    }
    return this.done();
  }

  private done(): JsonCheck {
    return { ok: true, measure: this.measure };
  }

  /** Closes a frame whose members are all walked, keeping its measures; the walk goes on in its parent. */
  private leave(frame: Frame): Frame | undefined {
    frame.done = true;
    frame.bytes = this.measure.bytes - frame.startBytes;
    frame.nodes = this.measure.nodes - frame.startNodes;
    const parent = frame.parent;
    if (parent !== undefined) raise(parent, frame.height);
    return parent;
  }

  /**
   * The member `key` of `frame`'s object, by its kind: a scalar counted, a value that is not JSON data (an accessor,
   * a function, undefined...) refused, an object already reached counted again, any other entered. A problem, the
   * frame entered, or undefined to go on.
   */
  private member(frame: Frame, key: string): JsonCheck | Frame | undefined {
    const value = frame.value;
    if (isAccessor(value, key)) return notJson("an accessor property (a getter) is not JSON data", frame, key);
    const child = (value as Record<string, unknown>)[key];
    const keyBytes = memberBytes(frame, key);
    if (
      typeof child === "string" ||
      typeof child === "boolean" ||
      child === null ||
      (typeof child === "number" && Number.isFinite(child))
    ) {
      return this.count(child, keyBytes, frame, key);
    }
    const problem = notJsonKind(child);
    if (problem !== undefined) {
      const setter = child === undefined && Object.getOwnPropertyDescriptor(value, key)?.set !== undefined;
      const message = setter ? "an accessor property (a setter) is not JSON data" : `${problem} is not a JSON value`;
      return notJson(message, frame, key);
    }
    const object = child as object;
    const role = this.positions === undefined ? DATA : roleOf(object, frame, key, this.positions);
    const known = this.seen[role]?.get(object);
    if (known === undefined) return this.enter(object, frame, key, role);
    if (!known.done) return notJson("a cycle in the object graph is not JSON", frame, key);
    return this.reached(known, frame, key, keyBytes);
  }

  /** Counts a value reached from `frame` at `key` (`keyBytes` its member syntax); a problem, or undefined. */
  private count(value: unknown, keyBytes: number, frame: Frame | undefined, key?: string): JsonCheck | undefined {
    const { bounds, measure } = this;
    measure.nodes++;
    measure.bytes += keyBytes + scalarBytes(value);
    if (
      typeof value === "string" &&
      bounds.stringLength !== undefined &&
      value.length > bounds.stringLength &&
      codePointLength(value) > bounds.stringLength
    ) {
      return over(bounds, "stringLength", frame, key);
    }
    if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over(bounds, "nodes", frame, key);
    if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over(bounds, "bytes", frame, key);
    return undefined;
  }

  /** An object walked before reached again from `frame` at `key`: its tree expansion counts again, unwalked. */
  private reached(known: Frame, frame: Frame, key: string, keyBytes: number): JsonCheck | undefined {
    const { bounds, measure } = this;
    measure.shared = true;
    measure.nodes += known.nodes;
    measure.bytes += keyBytes + known.bytes;
    if (bounds.depth !== undefined && frame.depth + known.height > bounds.depth)
      return over(bounds, "depth", frame, key);
    if (bounds.nodes !== undefined && measure.nodes > bounds.nodes) return over(bounds, "nodes", frame, key);
    if (bounds.bytes !== undefined && measure.bytes > bounds.bytes) return over(bounds, "bytes", frame, key);
    raise(frame, known.height);
    return undefined;
  }

  /** Enters an object reached from `parent` at `key` (the root: no parent) in `role`: a problem, or its frame. */
  private enter(value: object, parent: Frame | undefined, key: string, role: Role): JsonCheck | Frame {
    const member = parent === undefined ? undefined : key;
    const keyBytes = parent === undefined ? 0 : memberBytes(parent, key);
    // The member syntax is the parent's: the expansion of this object is what follows it.
    const startBytes = this.measure.bytes + keyBytes;
    const startNodes = this.measure.nodes;
    const counted = this.count(value, keyBytes, parent, member);
    if (counted !== undefined) return counted;
    const level = role === HOLDER ? 0 : 1;
    // A schema document's root schema is level 0: its depth is the levels below it.
    const depth = parent === undefined ? (this.positions === undefined ? 1 : 0) : parent.depth + level;
    if (this.bounds.depth !== undefined && depth > this.bounds.depth) return over(this.bounds, "depth", parent, member);
    const isArray = Array.isArray(value);
    const shape = this.shape(value, isArray, parent, member);
    if (!Array.isArray(shape)) return shape;
    const frame: Frame = {
      value,
      parent,
      key,
      depth,
      role,
      keys: shape,
      isArray,
      next: 0,
      startBytes,
      startNodes,
      height: level,
      done: false,
      bytes: 0,
      nodes: 0,
    };
    (this.seen[role] ??= new Map()).set(value, frame);
    return frame;
  }

  /**
   * The keys of an object or array being entered, or the problem with its shape: a bound it exceeds (its length, its
   * properties), a hole, a property `Object.keys` does not list.
   */
  private shape(
    value: object,
    isArray: boolean,
    parent: Frame | undefined,
    member: string | undefined,
  ): string[] | JsonCheck {
    const { bounds, measure } = this;
    if (isArray) {
      // Bounds first: an array too long for them is refused before its indices are listed.
      const length = (value as unknown[]).length;
      if (bounds.arrayLength !== undefined && length > bounds.arrayLength)
        return over(bounds, "arrayLength", parent, member);
      if (bounds.nodes !== undefined && measure.nodes + length > bounds.nodes)
        return over(bounds, "nodes", parent, member);
    }
    const keys = Object.keys(value);
    if (isArray) {
      if (keys.length !== (value as unknown[]).length) return notJson("a sparse array is not JSON", parent, member);
    } else {
      if (Object.getOwnPropertyNames(value).length !== keys.length) {
        const pointer = pointerOf(parent, member) + "/" + escapeToken(hiddenName(value, keys));
        return { ok: false, pointer, message: "a non-enumerable property is not JSON data" };
      }
      if (bounds.objectProperties !== undefined && keys.length > bounds.objectProperties)
        return over(bounds, "objectProperties", parent, member);
    }
    return keys;
  }
}

/** The bytes of the member syntax before a value at `key` of `frame`: a comma, or a quoted key, a colon and a comma. */
function memberBytes(frame: Frame, key: string): number {
  return frame.isArray ? 1 : key.length + 4;
}

/** The bound `bound` exceeded at `key` of `frame`. */
function over(bounds: JsonBounds, bound: keyof JsonBounds, frame: Frame | undefined, key?: string): JsonCheck {
  return { ok: false, pointer: pointerOf(frame, key), bound, message: `exceeds the ${bound} bound (${bounds[bound]})` };
}

/** A value that is not JSON data at `key` of `frame`. */
function notJson(message: string, frame: Frame | undefined, key?: string): JsonCheck {
  return { ok: false, pointer: pointerOf(frame, key), message };
}

/** A child `below` levels high makes `frame` at least its own level plus those. */
function raise(frame: Frame, below: number): void {
  const height = (frame.role === HOLDER ? 0 : 1) + below;
  if (height > frame.height) frame.height = height;
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
