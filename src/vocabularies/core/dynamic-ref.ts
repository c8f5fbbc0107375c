/**
 * `$dynamicRef` (Core §8.2.3.2): like `$ref`, except that when its static target carries the matching
 * `$dynamicAnchor` (the bookend), the outermost resource in the dynamic scope defining that anchor wins.
 */

import { dynamicReference, reference } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import type { Run, Subschema } from "../../engine/evaluate/run.js";

export const $dynamicRef: KeywordDefinition = {
  keyword: "$dynamicRef",
  phase: 1,
  compile(value, ctx) {
    if (typeof value !== "string") return ctx.fail("$dynamicRef", `"$dynamicRef" must be a string`);
    const { target, anchor } = ctx.dynamicReference(value);
    if (anchor === undefined) return reference("$dynamicRef", target);
    return dynamicReference("$dynamicRef", (run: Run): Subschema => {
      let node = target;
      for (let frame = run.scope; frame !== null; frame = frame.next) {
        run.spend(1);
        const candidate = frame.anchors.get(anchor);
        if (candidate !== undefined) node = candidate;
      }
      return node;
    });
  },
};
