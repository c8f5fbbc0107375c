/**
 * `$dynamicRef` (Core §8.2.3.2): like `$ref`, except that when its static target carries the matching
 * `$dynamicAnchor` (the bookend), the outermost resource in the dynamic scope defining that anchor wins.
 */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import type { SchemaNode } from "../../engine/node.js";

export const $dynamicRef: KeywordDefinition = {
  keyword: "$dynamicRef",
  phase: 1,
  compile(value, ctx) {
    if (typeof value !== "string") return ctx.fail("$dynamicRef", `"$dynamicRef" must be a string`);
    const { target, anchor } = ctx.dynamicReference(value);
    return {
      keyword: "$dynamicRef",
      check(instance, run, marks, out) {
        let node: SchemaNode = target;
        if (anchor !== undefined) {
          for (let frame = run.scope; frame !== null; frame = frame.next) {
            run.spend(1);
            const candidate = frame.resource.dynamicAnchors.get(anchor);
            if (candidate !== undefined) node = candidate;
          }
        }
        if (++run.references > run.limits.maxReferenceDepth) run.limit("maxReferenceDepth", out?.instanceLocation);
        const valid = checkInPlace(node, instance, run, marks, out);
        run.references--;
        return valid;
      },
    };
  },
};
