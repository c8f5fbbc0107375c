/**
 * Locations inside a value as persistent linked lists of reference tokens, turned into a JSON Pointer (RFC 6901)
 * only when one is reported, so a walk of any depth builds no pointer text on the way.
 */

import { appendPointer } from "../../engine/json/pointer.js";

/** One reference token and the location of its container; `undefined` is the root. */
export interface Path {
  /** Where the container of this location is; `undefined` when it is the root. */
  readonly parent: Path | undefined;
  /** The member name or array index (as decimal text) of this location in its container, unescaped. */
  readonly token: string;
}

/** The location of `token` inside `parent`. */
export function child(parent: Path | undefined, token: string): Path {
  return { parent, token };
}

/** The JSON Pointer of a location (`""` for the root), with `~` and `/` escaped (RFC 6901 §3). */
export function pointerOf(path: Path | undefined): string {
  const tokens: string[] = [];
  for (let at = path; at !== undefined; at = at.parent) tokens.push(at.token);
  let pointer = "";
  for (let i = tokens.length - 1; i >= 0; i--) pointer = appendPointer(pointer, tokens[i] as string);
  return pointer;
}
