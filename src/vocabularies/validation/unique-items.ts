/** `uniqueItems` (Validation §6.4.3): no two items are equal (JSON equality); primitives through a Set. */

import type { Meter } from "../../engine/evaluate/run.js";
import { canonicalJson, jsonEqual, jsonHash } from "../../engine/json/json.js";
import { meteredAssertion, type KeywordDefinition } from "../../engine/evaluate/keyword.js";

/** Items sharing one structural hash: the first one, then (after a collision) all of them by canonical text. */
type Bucket = number | Map<string, number>;

/**
 * The indices of the first duplicate pair, or undefined when all items are unique. Primitives go
 * through a Map; objects and arrays are bucketed by a structural hash (any key order, JSON numbers). The
 * hash is not collision-resistant, so a bucket that receives a second, unequal value switches to exact
 * canonical-text keys: every item is hashed once and compared or keyed at most once, linear in the array
 * whatever its values, and every value visited is charged to the step limit.
 */
function firstDuplicate(items: readonly unknown[], run: Meter): [number, number] | undefined {
  run.items(items);
  const seen = new Map<unknown, number>();
  const buckets = new Map<number, Bucket>();
  for (let i = 0; i < items.length; i++) {
    run.spend(1);
    const item = items[i];
    if (typeof item !== "object" || item === null) {
      const j = seen.get(item);
      if (j !== undefined) return [j, i];
      seen.set(item, i);
      continue;
    }
    const hash = jsonHash(item, run.maxInstanceDepth, run);
    const bucket = buckets.get(hash);
    if (bucket === undefined) {
      buckets.set(hash, i);
      continue;
    }
    let exact: Map<string, number>;
    if (typeof bucket === "number") {
      if (jsonEqual(items[bucket], item, run.maxInstanceDepth, run)) return [bucket, i];
      exact = new Map([[canonicalJson(items[bucket], run), bucket]]);
      buckets.set(hash, exact);
    } else {
      exact = bucket;
    }
    const key = canonicalJson(item, run);
    const j = exact.get(key);
    if (j !== undefined) return [j, i];
    exact.set(key, i);
  }
  return undefined;
}

export const uniqueItems: KeywordDefinition = {
  keyword: "uniqueItems",
  compile(value, ctx) {
    if (typeof value !== "boolean") return ctx.fail("uniqueItems", `"uniqueItems" must be a boolean`);
    if (!value) return undefined;
    return meteredAssertion(
      "uniqueItems",
      (instance, run) => !Array.isArray(instance) || instance.length < 2 || firstDuplicate(instance, run) === undefined,
      (instance, run) => {
        const [i, j] = firstDuplicate(instance as unknown[], run)!;
        return {
          message: `must not contain duplicate items, items ${i} and ${j} are equal`,
          params: { duplicates: [i, j] },
        };
      },
    );
  },
};
