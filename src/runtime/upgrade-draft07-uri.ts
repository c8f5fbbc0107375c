/**
 * URI and JSON Pointer helpers for the draft-07 upgrade: RFC 3986 §5.2 reference resolution,
 * RFC 6901 pointers, and the plain-object helpers that keep keys such as `__proto__` as data.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
  for (const segment of segments) out += "/" + String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
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
  return decoded.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
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

interface UriParts { scheme?: string; authority?: string; path: string; query?: string; fragment?: string }

const URI_RE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(uri: string): UriParts {
  const m = URI_RE.exec(uri) as RegExpExecArray; // every string matches
  const parts: UriParts = { path: m[3] ?? "" };
  if (m[1] !== undefined) parts.scheme = m[1];
  if (m[2] !== undefined) parts.authority = m[2];
  if (m[4] !== undefined) parts.query = m[4];
  if (m[5] !== undefined) parts.fragment = m[5];
  return parts;
}

function removeDotSegments(path: string): string {
  const input = path.split("/");
  const out: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const seg = input[i] as string;
    const last = i === input.length - 1;
    if (seg === ".") {
      if (last) out.push("");
    } else if (seg === "..") {
      if (out.length > 1 || (out.length === 1 && out[0] !== "")) out.pop();
      if (last) out.push("");
    } else {
      out.push(seg);
    }
  }
  return out.join("/");
}

function format(p: UriParts): string {
  let out = p.scheme !== undefined ? p.scheme + ":" : "";
  if (p.authority !== undefined) out += "//" + p.authority;
  out += p.path;
  if (p.query !== undefined) out += "?" + p.query;
  if (p.fragment !== undefined) out += "#" + p.fragment;
  return out;
}

/** Resolves `ref` against the absolute `base` (RFC 3986 §5.2.2). */
export function resolveUri(base: string, ref: string): string {
  const r = parse(ref);
  const b = parse(base);
  const t: UriParts = { path: "" };
  if (r.scheme !== undefined) {
    Object.assign(t, r, { path: removeDotSegments(r.path) });
  } else if (r.authority !== undefined) {
    Object.assign(t, r, { scheme: b.scheme, path: removeDotSegments(r.path) });
  } else {
    t.scheme = b.scheme;
    if (b.authority !== undefined) t.authority = b.authority;
    if (r.path === "") {
      t.path = b.path;
      if (r.query !== undefined) t.query = r.query;
      else if (b.query !== undefined) t.query = b.query;
    } else {
      if (r.path.startsWith("/")) {
        t.path = removeDotSegments(r.path);
      } else {
        const merged = b.authority !== undefined && b.path === ""
          ? "/" + r.path
          : b.path.slice(0, b.path.lastIndexOf("/") + 1) + r.path;
        t.path = removeDotSegments(merged);
      }
      if (r.query !== undefined) t.query = r.query;
    }
    if (r.fragment !== undefined) t.fragment = r.fragment;
  }
  if (r.fragment === undefined) delete t.fragment;
  return format(t);
}

/** Splits a URI at its first `#`; the fragment is undefined when there is no `#`. */
export function splitFragment(uri: string): { document: string; fragment: string | undefined } {
  const hash = uri.indexOf("#");
  return hash < 0 ? { document: uri, fragment: undefined } : { document: uri.slice(0, hash), fragment: uri.slice(hash + 1) };
}
