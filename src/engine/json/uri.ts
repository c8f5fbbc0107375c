/** RFC 3986 reference resolution (§5.2), written for schema identifiers: no network, no URL class. */

interface UriParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

const URI_SHAPE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(uri: string): UriParts {
  const m = URI_SHAPE.exec(uri);
  if (m === null) return { scheme: undefined, authority: undefined, path: uri, query: undefined, fragment: undefined };
  return { scheme: m[1], authority: m[2], path: m[3] ?? "", query: m[4], fragment: m[5] };
}

function format(p: UriParts): string {
  let out = "";
  if (p.scheme !== undefined) out += p.scheme + ":";
  if (p.authority !== undefined) out += "//" + p.authority;
  out += p.path;
  if (p.query !== undefined) out += "?" + p.query;
  if (p.fragment !== undefined) out += "#" + p.fragment;
  return out;
}

/** RFC 3986 §5.2.4. */
function removeDotSegments(path: string): string {
  const input = path.split("/");
  const output: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const segment = input[i] as string;
    const last = i === input.length - 1;
    if (segment === ".") {
      if (last) output.push("");
    } else if (segment === "..") {
      if (output.length > 1 || (output.length === 1 && output[0] !== "")) output.pop();
      if (last) output.push("");
    } else {
      output.push(segment);
    }
  }
  return output.join("/");
}

function merge(base: UriParts, refPath: string): string {
  if (base.authority !== undefined && base.path === "") return "/" + refPath;
  const slash = base.path.lastIndexOf("/");
  return slash < 0 ? refPath : base.path.slice(0, slash + 1) + refPath;
}

/** Resolves `reference` against `base` (RFC 3986 §5.2.2). */
export function resolveUri(base: string, reference: string): string {
  const r = parse(reference);
  if (r.scheme !== undefined) return format({ ...r, path: removeDotSegments(r.path) });
  const b = parse(base);
  const t: UriParts = { scheme: b.scheme, authority: undefined, path: "", query: undefined, fragment: r.fragment };
  if (r.authority !== undefined) {
    t.authority = r.authority;
    t.path = removeDotSegments(r.path);
    t.query = r.query;
  } else {
    t.authority = b.authority;
    if (r.path === "") {
      t.path = b.path;
      t.query = r.query !== undefined ? r.query : b.query;
    } else {
      t.path = removeDotSegments(r.path.startsWith("/") ? r.path : merge(b, r.path));
      t.query = r.query;
    }
  }
  return format(t);
}

/** Splits a URI into the part before `#` and the (raw, still percent-encoded) fragment. */
export function splitFragment(uri: string): [base: string, fragment: string] {
  const hash = uri.indexOf("#");
  return hash < 0 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

/** True when `uri` has a scheme (an absolute URI, possibly with a fragment). */
export function hasScheme(uri: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri);
}
