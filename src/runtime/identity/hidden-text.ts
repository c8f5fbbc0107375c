/**
 * Invisible and reordering characters in what a model reads of a tool definition (Unicode UAX #44 properties):
 * `Default_Ignorable_Code_Point` (tag characters, zero-width characters, variation selectors and other invisible
 * format characters), `Bidi_Control`, and every other character of general category `Cf`. They are reported with
 * where they are and which they are; nothing is stripped or rewritten.
 */

import type { Limits } from "../../engine/limits.js";
import type { HiddenText } from "../errors/details.js";
import { child, pointerOf, type Path } from "./path.js";
import { canonicalTool } from "./tool-identity.js";

export type { HiddenText } from "../errors/details.js";

const HIDDEN = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}]/u;
const EVERY_HIDDEN = new RegExp(HIDDEN.source, "gu");

/**
 * Whether a text holds any character `hiddenText` reports. On a tool's canonical text (whose escapes are all of
 * characters that are not hidden) it says whether `hiddenText` of the tool finds anything, without walking it.
 */
export function mayHideText(text: string): boolean {
  return HIDDEN.test(text);
}

/**
 * Every place in a tool definition's model-facing part whose text holds an invisible or reordering character: a
 * `Default_Ignorable_Code_Point` (which covers the tag characters U+E0000–U+E007F, zero-width characters, variation
 * selectors and other invisible format characters), a `Bidi_Control`, or any other character of general category
 * `Cf`. Every string is scanned (names, titles, descriptions, schema `title`/`description`, enum and `const`
 * strings, defaults, examples, annotations) and every member name, since property names are shown to the model
 * too; a member name is reported at the pointer of the member it names. One entry per pointer, sorted by pointer.
 *
 * `_meta` is not scanned: it is not part of what the model reads (it is protocol metadata for clients, left out of
 * the canonical form for that reason), and a host that shows it to a model has to pin and check it itself.
 * `revision` and `backend` are the runtime's own and never shown. Bounded and throwing as `canonicalTool`.
 */
export function hiddenText(tool: unknown, limits?: Partial<Limits>): HiddenText[] {
  const data: unknown = JSON.parse(canonicalTool(tool, limits));
  const found = new Map<string, Set<number>>();
  const scan = (text: string, path: Path | undefined): void => {
    if (!HIDDEN.test(text)) return;
    const pointer = pointerOf(path);
    const codePoints = found.get(pointer) ?? new Set<number>();
    for (const [character] of text.matchAll(EVERY_HIDDEN)) codePoints.add(character.codePointAt(0) as number);
    found.set(pointer, codePoints);
  };
  const pending: { value: unknown; path: Path | undefined }[] = [{ value: data, path: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") scan(value, path);
    else if (Array.isArray(value))
      value.forEach((item: unknown, i) => pending.push({ value: item, path: child(path, `${i}`) }));
    else if (typeof value === "object" && value !== null) {
      for (const name of Object.keys(value)) {
        const at = child(path, name);
        scan(name, at);
        pending.push({ value: (value as Record<string, unknown>)[name], path: at });
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
