/**
 * URI and JSON Pointer helpers for the draft-07 upgrade: RFC 3986 §5.2 reference resolution,
 * RFC 6901 pointers, and the plain-object helpers that keep keys such as `__proto__` as data.
 */

import { isObject } from "../engine/json.js";
import { appendPointer } from "../engine/pointer.js";
import { resolveUri } from "../engine/uri.js";

export type JsonObject = Record<string, unknown>;

export { isObject };

/** Reads an own property only; inherited names (`constructor`, `__proto__`) read as absent. */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Defines an own, enumerable data property, so a key `__proto__` stays a plain key. */
export function put(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export function childPointer(pointer: string, ...segments: (string | number)[]): string {
  let out = pointer;
  for (const segment of segments) out = appendPointer(out, String(segment));
  return out;
}

/** Decodes a URI fragment that is a JSON Pointer into its segments; undefined when malformed. */
export function fragmentSegments(fragment: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === "") return [];
  if (!decoded.startsWith("/") || /~[^01]|~$/.test(decoded)) return undefined;
  return decoded
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const FRAGMENT_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@]/;

/** Encodes pointer segments as a URI fragment (without the `#`). */
export function segmentsFragment(segments: string[]): string {
  let out = "";
  for (const segment of segments) {
    out += "/";
    for (const ch of segment.replace(/~/g, "~0").replace(/\//g, "~1")) {
      out += FRAGMENT_SAFE.test(ch) ? ch : encodeURIComponent(ch);
    }
  }
  return out;
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
