/** JSON Pointer (RFC 6901) and URI-fragment pointers (RFC 6901 §6). */

export function escapeToken(token: string): string {
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Appends one reference token to a JSON Pointer. */
export function appendPointer(pointer: string, token: string | number): string {
  return pointer + "/" + (typeof token === "number" ? String(token) : escapeToken(token));
}

/** Parses a JSON Pointer into tokens; returns undefined when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  const tokens = pointer.slice(1).split("/");
  for (const t of tokens) if (/~[^01]|~$/.test(t)) return undefined;
  return tokens.map(unescapeToken);
}

/** Decodes the percent-encoding of a URI fragment; undefined when the encoding is broken. */
export function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** Encodes a JSON Pointer for use as a URI fragment (RFC 6901 §6). */
export function pointerToFragment(pointer: string): string {
  if (/^[A-Za-z0-9/$_.~-]*$/.test(pointer)) return pointer;
  return encodeURI(pointer).replace(/#/g, "%23");
}

/** Follows tokens into a JSON value with own-property lookups only; undefined when absent. */
export function getAt(root: unknown, tokens: readonly string[]): { value: unknown } | undefined {
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      const index = Number(token);
      if (index >= current.length) return undefined;
      current = current[index];
    } else if (current !== null && typeof current === "object") {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return { value: current };
}
