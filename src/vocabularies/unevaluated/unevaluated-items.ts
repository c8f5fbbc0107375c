/**
 * `unevaluatedItems` (Core §11.2): items that no `prefixItems`, `items`, `contains` or valid in-place subschema
 * evaluated must be valid against it; marks every item after. When what the other keywords evaluate is known at
 * compile time (`prefixItems`, `items`, `allOf`, `$ref`, branches that evaluate nothing: not `contains`), the
 * boolean path applies that instead and reads no marks; the output path always reads them.
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import { ALL_ITEMS, type EvaluatedItems, evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";
import { evaluatedItemsOf, type KeywordDefinition } from "../../engine/evaluate/keyword.js";

export const unevaluatedItems: KeywordDefinition = {
  keyword: "unevaluatedItems",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedItems");
    let known: EvaluatedItems | undefined;
    return applicator<unknown[]>({
      keyword: "unevaluatedItems",
      on: "array",
      annotate: "any",
      quietFalse: true,
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: () => ALL_ITEMS,
      settle(siblings) {
        known = evaluatedItemsOf(siblings);
        return known !== undefined;
      },
      apply(instance, to, marks, run) {
        if (known !== undefined && !to.exhaustive) {
          if (!known.all) {
            to.items(instance);
            if (!to.eachItem(node, instance, known.prefix)) return false;
          }
          if (marks !== undefined) marks.allItems = true;
          return true;
        }
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
