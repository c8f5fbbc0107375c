/**
 * `items` (Core §10.3.1.2): every item after those `prefixItems` covers must be valid; annotates `true` when applied.
 */

import { checkChild } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { plural } from "../../engine/messages.js";

export const items: KeywordDefinition = {
  keyword: "items",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("items");
    const prefix =
      ctx.active("prefixItems") && Array.isArray(ctx.schema["prefixItems"])
        ? (ctx.schema["prefixItems"] as unknown[]).length
        : 0;
    const forbidsAll = node.constant === false;
    return {
      keyword: "items",
      check(instance, run, marks, out) {
        if (!Array.isArray(instance)) return true;
        if (instance.length > run.limits.maxArrayLength) run.limit("maxArrayLength", out?.instanceLocation);
        if (forbidsAll && out === null) return instance.length <= prefix;
        let valid = true;
        for (let i = prefix; i < instance.length; i++) {
          run.spend(1);
          if (!checkChild(node, instance[i], i, run, out)) {
            valid = false;
            if (out === null) return false;
          }
        }
        if (marks !== undefined) marks.allItems = true;
        if (out !== null) {
          if (valid && instance.length > prefix) {
            out.hasAnnotation = true;
            out.annotation = true;
          }
          if (!valid && forbidsAll) {
            out.children.length = 0;
            out.params = { limit: prefix, count: instance.length };
            out.error = `must have at most ${plural(prefix, "item")}, got ${instance.length}`;
          }
        }
        return valid;
      },
    };
  },
};
