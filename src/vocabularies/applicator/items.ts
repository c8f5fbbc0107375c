/**
 * `items` (Core §10.3.1.2): every item after those `prefixItems` covers must be valid; annotates `true` when
 * applied. Against `false`, the message says how many items are allowed.
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { plural } from "../../engine/output/messages.js";
import { ALL_ITEMS, evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";

export const items: KeywordDefinition = {
  keyword: "items",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("items");
    const prefix =
      ctx.active("prefixItems") && Array.isArray(ctx.schema["prefixItems"])
        ? (ctx.schema["prefixItems"] as unknown[]).length
        : 0;
    return applicator<unknown[]>({
      keyword: "items",
      on: "array",
      annotate: "any",
      quietFalse: true,
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: () => ALL_ITEMS,
      verdict: () => ({ kind: "items", prefix: [], rest: node, from: prefix }),
      apply(instance, to, marks) {
        to.items(instance);
        if (marks !== undefined) marks.allItems = true;
        return to.eachItem(node, instance, prefix);
      },
      describe: (_failed, instance) =>
        node.constant === false
          ? {
              message: `must have at most ${plural(prefix, "item")}, got ${instance.length}`,
              params: { limit: prefix, count: instance.length },
            }
          : undefined,
    });
  },
};
