/**
 * Where subschemas sit in a schema object (Core §9.2: `$id` and anchors count only there), and the tolerant
 * index of the `$id`s embedded in registry documents that no reference has reached yet.
 */

import type { SubschemaPositions } from "../json/host-json.js";
import { isObject } from "../json/json.js";
import { resolveUri, splitFragment } from "../json/uri.js";

/** Calls `visit` with each subschema of `schema` and the keyword (and array index or map key) that holds it. */
export function forEachSubschema(
  schema: Readonly<Record<string, unknown>>,
  positions: SubschemaPositions,
  visit: (child: unknown, keyword: string, member?: string | number) => void,
): void {
  for (const keyword of Object.keys(schema)) {
    const shape = positions.get(keyword);
    if (shape === undefined) continue;
    const child = schema[keyword];
    if (shape === "schema") visit(child, keyword);
    else if (shape === "array" && Array.isArray(child)) child.forEach((c, i) => visit(c, keyword, i));
    else if (shape === "map" && isObject(child)) for (const k of Object.keys(child)) visit(child[k], keyword, k);
  }
}

/**
 * The absolute URIs that the `$id`s in `document` (retrieved from `uri`) declare. This scan cannot fail: values that
 * are not JSON, cycles, throwing getters and malformed identifiers are skipped, never reported, because a document no
 * reference reaches must not change a compile's outcome (docs/guide/engine.md "What it does"). The document a reference
 * does reach is then compiled and checked in full.
 */
export function embeddedIds(document: unknown, uri: string, positions: SubschemaPositions): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const pending: { value: unknown; base: string }[] = [{ value: document, base: uri }];
  try {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { value, base } = next;
      if (!isObject(value) || seen.has(value)) continue;
      seen.add(value);
      let here = base;
      const id = Object.hasOwn(value, "$id") ? value["$id"] : undefined;
      if (typeof id === "string") {
        const [idBase, fragment] = splitFragment(resolveUri(base, id));
        if (fragment === "") {
          here = idBase;
          found.push(idBase);
        }
      }
      forEachSubschema(value, positions, (child) => pending.push({ value: child, base: here }));
    }
  } catch {
    // A hostile host value (a throwing getter or proxy trap): the identifiers found so far stand.
  }
  return found;
}
