/**
 * URI and JSON Pointer helpers for the upgrade: RFC 3986 §5.2 reference resolution,
 * RFC 6901 pointers, and the plain-object helpers that keep keys such as `__proto__` as data.
 */

import { isObject } from "../../../engine/json/json.js";
import {
  appendPointer,
  decodeFragment,
  escapeToken,
  parsePointer,
  pointerToFragment,
} from "../../../engine/json/pointer.js";
import { resolveUri } from "../../../engine/json/uri.js";

export type JsonObject = Record<string, unknown>;

export { isObject };

/** Reads an own property only; inherited names (`constructor`, `__proto__`) read as absent. */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function childPointer(pointer: string, ...segments: (string | number)[]): string {
  let out = pointer;
  for (const segment of segments) out = appendPointer(out, segment);
  return out;
}

/** Decodes a URI fragment that is a JSON Pointer (RFC 6901 §6) into its segments; undefined when malformed. */
export function fragmentSegments(fragment: string): string[] | undefined {
  const decoded = decodeFragment(fragment);
  return decoded === undefined ? undefined : parsePointer(decoded);
}

/** Encodes pointer segments as a URI fragment (without the `#`). */
export function segmentsFragment(segments: readonly string[]): string {
  return pointerToFragment(segments.map((segment) => "/" + escapeToken(segment)).join(""));
}

/** Resolves `ref` against the absolute `base` (RFC 3986 §5.2.2), as the engine does. */
export { resolveUri };

/** Splits a URI at its first `#`; the fragment is undefined when there is no `#`. */
export function splitFragment(uri: string): { document: string; fragment: string | undefined } {
  const hash = uri.indexOf("#");
  return hash < 0
    ? { document: uri, fragment: undefined }
    : { document: uri.slice(0, hash), fragment: uri.slice(hash + 1) };
}
