/**
 * `unevaluatedItems` (Core §11.2): items that no `prefixItems`, `items`, `contains` or valid in-place subschema
 * evaluated must be valid against it; marks every item after.
 */

import { applicator } from "../../engine/applicator.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const unevaluatedItems: KeywordDefinition = {
  keyword: "unevaluatedItems",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedItems");
    return applicator<unknown[]>({
      keyword: "unevaluatedItems",
      on: "array",
      annotate: "any",
      quietFalse: true,
      apply(instance, to, marks, run) {
        if (marks === undefined || marks.allItems) return true;
        to.items(instance);
        const marked = marks.indexSet(run);
        to.spend(instance.length - marks.prefix);
        for (let i = marks.prefix; i < instance.length; i++)
          if (!marked.has(i) && !to.child(node, instance[i], i)) return false;
        marks.allItems = true;
        return true;
      },
      describe(failed) {
        if (node.constant !== false) return undefined;
        const one = failed.length === 1;
        const message =
          `item${one ? "" : "s"} ${failed.slice(0, 5).join(", ")} ${one ? "is" : "are"} not allowed ` +
          "(unevaluatedItems is false)";
        return { message, params: { unevaluated: failed } };
      },
    });
  },
};
