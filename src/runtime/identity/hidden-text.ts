/**
 * Hidden text in what a model reads of a tool definition: invisible, reordering and terminal-controlling characters
 * that no well-formed emoji sequence or script explains (`hidden-characters.ts` says which). They are reported with
 * where they are and which they are; nothing is stripped or rewritten.
 */

import type { Limits } from "../../engine/limits.js";
import type { HiddenText } from "../errors/details.js";
import { child, pointerOf, type Path } from "./path.js";
import { hiddenCharacters, mayHide } from "./hidden-characters.js";
import { canonicalModelFacing } from "./tool-identity.js";

export type { HiddenText } from "../errors/details.js";

/**
 * A C0 control as RFC 8785 writes it in a canonical text (`\b`, `\f` or `\u00XX`; tab, line feed and carriage
 * return are not hidden). A `\\b` (an escaped backslash before a `b`) matches too, which only costs a walk.
 */
const ESCAPED_CONTROL = /\\(?:[bf]|u00(?:0[0-8bce-f]|1[0-9a-f]))/;

/**
 * Whether a tool's canonical text may hold a character `hiddenText` reports: when false, `hiddenText` of the tool
 * finds nothing, and the walk is skipped. (A true answer only means the walk must look.)
 */
export function mayHideText(text: string): boolean {
  return mayHide(text) || ESCAPED_CONTROL.test(text);
}

/**
 * Every place in a tool definition's model-facing part whose text holds a hidden character (`hiddenCharacters`: a
 * control, a tag character, a zero-width character, a variation selector, a bidi control or another invisible
 * format character, unless a well-formed emoji sequence or a script that shapes with joiners explains it). Every
 * string is scanned (names, titles, descriptions, schema `title`/`description`, enum and `const`
 * strings, defaults, examples, annotations) and every member name, since property names are shown to the model
 * too; a member name is reported at the pointer of the member it names. One entry per pointer, sorted by pointer.
 *
 * `_meta` is not scanned: it is not part of what the model reads (it is protocol metadata for clients, left out of
 * the canonical form for that reason), and a host that shows it to a model has to pin and check it itself.
 * `revision` and `backend` are the runtime's own and never shown. Bounded and throwing as `canonicalTool`.
 */
export function hiddenText(tool: unknown, limits?: Partial<Limits>): HiddenText[] {
  return hiddenTextIn(JSON.parse(canonicalModelFacing(tool, limits)));
}

/**
 * Every place in a JSON value whose string, or whose member name, holds a hidden character (`hiddenCharacters`), with
 * its pointer into `value` and the distinct code points; one entry per pointer, sorted by pointer. Iterative, so a
 * value of any depth fits; a host bounds the value itself (a tool definition by the identity limits, an MCP answer by
 * the message size). What a tool definition, a tool result or a prompt a model reads is scanned with.
 */
export function hiddenTextIn(value: unknown): HiddenText[] {
  const found = new Map<string, Set<number>>();
  const scan = (text: string, path: Path | undefined): void => {
    const hidden = hiddenCharacters(text);
    if (hidden.length === 0) return;
    const pointer = pointerOf(path);
    const codePoints = found.get(pointer) ?? new Set<number>();
    for (const point of hidden) codePoints.add(point);
    found.set(pointer, codePoints);
  };
  const pending: { value: unknown; path: Path | undefined }[] = [{ value, path: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: at, path } = next;
    if (typeof at === "string") scan(at, path);
    else if (Array.isArray(at))
      at.forEach((item: unknown, i) => pending.push({ value: item, path: child(path, `${i}`) }));
    else if (typeof at === "object" && at !== null) {
      for (const name of Object.keys(at)) {
        const member = child(path, name);
        scan(name, member);
        pending.push({ value: (at as Record<string, unknown>)[name], path: member });
      }
    }
  }
  return [...found]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([pointer, codePoints]) => ({ pointer, codePoints: [...codePoints].sort((a, b) => a - b).map(codePoint) }));
}

/** `U+` and the code point in upper-case hex, at least four digits (The Unicode Standard, Appendix A). */
function codePoint(value: number): string {
  return "U+" + value.toString(16).toUpperCase().padStart(4, "0");
}
