/** `uniqueItems` (Validation §6.4.3): no two items are equal (JSON equality); primitives through a Set. */

import { jsonEqual, jsonHash } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import type { Run } from "../../engine/context.js";

/**
 * The indices of the first duplicate pair, or undefined when all items are unique. Primitives go
 * through a Map; objects and arrays are bucketed by a structural hash (any key order, JSON numbers), so
 * the check stays linear, and each candidate pair is confirmed with JSON equality.
 */
export function firstDuplicate(items: readonly unknown[], run: Run): [number, number] | undefined {
  if (items.length > run.limits.maxArrayLength) run.limit("maxArrayLength");
  const seen = new Map<unknown, number>();
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === "object" && item !== null) {
      const key = jsonHash(item, run.limits.maxInstanceDepth);
      const bucket = buckets.get(key);
      if (bucket === undefined) {
        buckets.set(key, [i]);
        continue;
      }
      for (const j of bucket) if (jsonEqual(items[j], item, run.maxInstanceDepth)) return [j, i];
      bucket.push(i);
    } else {
      const j = seen.get(item);
      if (j !== undefined) return [j, i];
      seen.set(item, i);
    }
  }
  return undefined;
}

export const uniqueItems: KeywordDefinition = {
  keyword: "uniqueItems",
  compile(value, ctx) {
    if (typeof value !== "boolean") return ctx.fail("uniqueItems", `"uniqueItems" must be a boolean`);
    if (!value) return undefined;
    return {
      keyword: "uniqueItems",
      check(instance, run, _marks, out) {
        if (!Array.isArray(instance) || instance.length < 2) return true;
        const dup = firstDuplicate(instance, run);
        if (dup === undefined) return true;
        if (out !== null) {
          out.params = { duplicates: dup };
          out.error = `must not contain duplicate items, items ${dup[0]} and ${dup[1]} are equal`;
        }
        return false;
      },
    };
  },
};
