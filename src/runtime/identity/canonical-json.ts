/**
 * The JSON Canonicalization Scheme (RFC 8785): a JSON value as one text, with no whitespace (§3.2.1), strings
 * escaped as §3.2.2.2 requires, numbers as ECMAScript's `Number::toString` writes them (§3.2.2.3) and object
 * members sorted by their names as UTF-16 code-unit sequences (§3.2.3). Only I-JSON data (RFC 7493) has a canonical
 * form: anything else is refused with its JSON Pointer. The walk is iterative and checks the schema limits as it
 * writes (docs/reference/limits.md), so no depth reaches the stack and a value sharing one object many times stops
 * at the byte limit after work proportional to that limit.
 */

import { LimitError, SchemaError } from "../../engine/errors.js";
import { resolveLimits, type Limits } from "../../engine/limits.js";
import { checkOptions, compileOptionChecks } from "../../engine/options.js";
import { child, pointerOf, type Path } from "./path.js";
import type { ErrorCode } from "../errors/codes.js";

/** In a `u` regular expression a well-formed surrogate pair is one code point, so this finds lone surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The RFC 8785 canonical text of a JSON value: the same text for every value that is the same JSON data, whatever
 * the order of its object members or the spelling of its numbers (`1.0` and `1`, `-0` and `0`).
 *
 * Symbol-keyed and non-enumerable properties are left out, as `JSON.stringify` leaves them out. Anything that is
 * not JSON data throws a `SchemaError` of class `validation`, code `not_json`, whose `schemaPointer` is the JSON
 * Pointer of the offending value: a function, `undefined`, a bigint, a symbol, a non-finite number, a class
 * instance (a `Date` too), a sparse array, a cycle, an accessor property, or a string or member name with a lone
 * surrogate (which RFC 8785 §3.2.2.2 and I-JSON forbid). A value shared at several places (a DAG) is fine: it is
 * written at each place.
 *
 * Bounded by the schema limits of `limits` (the rest keep `defaultLimits`): a text longer than `maxSchemaBytes`
 * bytes of UTF-8, or a value nested more than `maxSchemaDepth` arrays and objects below the root, throws a
 * `LimitError` (`execution_failure`, `limit_exceeded`) at the pointer where it was hit. A malformed `limits`
 * throws `options_invalid`. What a hostile object's own proxy traps throw is thrown as it is.
 */
export function canonicalize(value: unknown, limits?: Partial<Limits>): string {
  return canonicalText(value, canonicalLimits(limits));
}

/** Checks a `limits` option as `compile` checks it (docs/reference/limits.md) and completes it with the defaults. */
export function canonicalLimits(limits: Partial<Limits> | undefined): Readonly<Limits> {
  checkOptions(limits === undefined ? undefined : { limits }, compileOptionChecks, "canonical form");
  return resolveLimits(limits);
}

/** A `validation` / `not_json` error at `path`. */
function notJson(path: Path | undefined, what: string): SchemaError<ErrorCode<"identity">> {
  const pointer = pointerOf(path);
  const message = `not JSON at ${JSON.stringify(pointer)}: ${what}`;
  return new SchemaError({ class: "validation", code: "not_json", message, schemaPointer: pointer });
}

/** The value of an own data property; an accessor would run host code on every read, and is not data. */
export function dataValue(property: PropertyDescriptor | undefined, path: Path): unknown {
  if (property === undefined) throw notJson(path, "a member that its object lists but does not have");
  if (!Object.hasOwn(property, "value")) throw notJson(path, "an accessor property (getter or setter) is not data");
  return property.value;
}

/**
 * The `not_json` error at `path` of an object that is not plain data (its prototype is neither `Object.prototype`
 * nor `null`), or undefined.
 */
export function notPlain(value: object, path: Path | undefined): SchemaError<ErrorCode<"identity">> | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return undefined;
  const constructor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  const name: unknown =
    typeof constructor === "function" ? Object.getOwnPropertyDescriptor(constructor, "name")?.value : "";
  return notJson(
    path,
    `an instance of ${typeof name === "string" && name !== "" ? name : "a class"} is not plain JSON data`,
  );
}

/** The canonical text under limits already checked and completed. */
export function canonicalText(value: unknown, limits: Readonly<Limits>): string {
  const text = new Text(limits.maxSchemaBytes);
  const open: Frame[] = [];
  const inside = new Set<object>();
  const start = (v: unknown, path: Path | undefined, depth: number): void => {
    switch (typeof v) {
      case "string":
        return text.string(v, path);
      case "boolean":
        return text.write(v ? "true" : "false", path);
      case "number":
        // Number::toString (ECMA-262 §6.1.6.1.20) is RFC 8785 §3.2.2.3's form, and writes -0 as "0".
        if (!Number.isFinite(v)) throw notJson(path, `the number ${String(v)} is not finite`);
        return text.write(String(v), path);
      case "object":
        if (v === null) return text.write("null", path);
        if (inside.has(v)) throw notJson(path, "a cycle in the object graph");
        if (depth > limits.maxSchemaDepth) {
          throw new LimitError("maxSchemaDepth", limits.maxSchemaDepth, { schemaPointer: pointerOf(path) });
        }
        open.push(opening(v, path, depth, text));
        inside.add(v);
        return;
      default:
        throw notJson(path, `${typeof v === "undefined" ? "undefined" : `a ${typeof v}`} is not a JSON value`);
    }
  };
  start(value, undefined, 0);
  for (let frame = open.at(-1); frame !== undefined; frame = open.at(-1)) {
    if (frame.next === frame.size) {
      text.write(frame.names === undefined ? "]" : "}", frame.path);
      inside.delete(frame.container);
      open.pop();
      continue;
    }
    const index = frame.next++;
    if (index > 0) text.write(",", frame.path);
    if (frame.names === undefined) {
      const path = child(frame.path, String(index));
      const item = Object.getOwnPropertyDescriptor(frame.container, index);
      if (item === undefined) throw notJson(path, "a sparse array has no item here");
      start(dataValue(item, path), path, frame.depth + 1);
    } else {
      const name = frame.names[index] as string;
      const path = child(frame.path, name);
      text.string(name, path, "a member name");
      text.write(":", path);
      start(dataValue(Object.getOwnPropertyDescriptor(frame.container, name), path), path, frame.depth + 1);
    }
  }
  return text.toString();
}

/** An array or object being written: an object's member names in canonical order, `undefined` for an array. */
interface Frame {
  readonly container: object;
  readonly names: readonly string[] | undefined;
  readonly size: number;
  next: number;
  readonly path: Path | undefined;
  readonly depth: number;
}

/**
 * Opens an array or object. Before its names are listed and sorted, the least text it can take (`[]` or `{}`, and
 * per item one byte and a comma, per member `"":0` and a comma) must fit, so one huge container shared many times
 * costs no more than the text it writes.
 */
function opening(container: object, path: Path | undefined, depth: number, text: Text): Frame {
  if (Array.isArray(container)) {
    const size = container.length;
    text.reserve(2 * size + 1, path);
    text.write("[", path);
    return { container, names: undefined, size, next: 0, path, depth };
  }
  const instance = notPlain(container, path);
  if (instance !== undefined) throw instance;
  const names = Object.keys(container);
  text.reserve(5 * names.length + 1, path);
  // The default order compares strings by their UTF-16 code units, which is RFC 8785 §3.2.3's order.
  names.sort();
  text.write("{", path);
  return { container, names, size: names.length, next: 0, path, depth };
}

/** The text written so far and its length in UTF-8 bytes, which may not pass `max`. */
class Text {
  private readonly parts: string[] = [];
  private bytes = 0;

  constructor(private readonly max: number) {}

  /** Fails the byte limit now when `bytes` more cannot fit. */
  reserve(bytes: number, path: Path | undefined): void {
    if (this.bytes + bytes > this.max) throw this.over(path);
  }

  /** Appends ASCII text. */
  write(ascii: string, path: Path | undefined): void {
    this.append(ascii, ascii.length, path);
  }

  /**
   * Appends a string literal. `JSON.stringify` of a string is RFC 8785 §3.2.2.2's escaping (`\b \t \n \f \r \" \\`,
   * other controls as lowercase `\u00xx`, everything else as it is) once lone surrogates are refused.
   */
  string(s: string, path: Path | undefined, what = "a string"): void {
    // A string takes at least as many UTF-8 bytes as UTF-16 code units, so a long one fails before it is read.
    this.reserve(s.length + 2, path);
    if (LONE_SURROGATE.test(s)) throw notJson(path, `${what} with a lone surrogate is not I-JSON (RFC 7493 §2.1)`);
    const literal = JSON.stringify(s);
    this.append(literal, utf8Length(literal), path);
  }

  toString(): string {
    return this.parts.join("");
  }

  private append(text: string, bytes: number, path: Path | undefined): void {
    this.bytes += bytes;
    if (this.bytes > this.max) throw this.over(path);
    this.parts.push(text);
  }

  private over(path: Path | undefined): LimitError {
    return new LimitError("maxSchemaBytes", this.max, { schemaPointer: pointerOf(path) });
  }
}

/** UTF-8 length of a string without lone surrogates (RFC 3629 §3). */
function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
