/**
 * `unevaluatedItems` (Core §11.2): items that no `prefixItems`, `items`, `contains` or valid in-place
 * subschema evaluated must be valid against it; marks every item after.
 */

import { checkChild } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const unevaluatedItems: KeywordDefinition = {
  keyword: "unevaluatedItems",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedItems");
    const forbids = node.constant === false;
    return {
      keyword: "unevaluatedItems",
      check(instance, run, marks, out) {
        if (!Array.isArray(instance) || marks === undefined || marks.allItems) return true;
        if (instance.length > run.limits.maxArrayLength) run.limit("maxArrayLength", out?.instanceLocation);
        const rejected: number[] = [];
        let applied = false;
        const marked = marks.indexSet(run);
        for (let i = marks.prefix; i < instance.length; i++) {
          run.spend(1);
          if (marked.has(i)) continue;
          applied = true;
          if (forbids && out === null) return false;
          if (!checkChild(node, instance[i], i, run, forbids ? null : out)) {
            rejected.push(i);
            if (out === null) return false;
          }
        }
        marks.allItems = true;
        if (out !== null) {
          if (rejected.length === 0 && applied) {
            out.hasAnnotation = true;
            out.annotation = true;
          }
          if (rejected.length > 0 && forbids) {
            out.params = { unevaluated: rejected };
            const one = rejected.length === 1;
            out.error =
              `item${one ? "" : "s"} ${rejected.slice(0, 5).join(", ")} ${one ? "is" : "are"} not allowed ` +
              "(unevaluatedItems is false)";
          }
        }
        return rejected.length === 0;
      },
    };
  },
};
