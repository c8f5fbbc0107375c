/**
 * `contains` (Core §10.3.1.3) with `minContains`/`maxContains` (Validation §6.4.4–5): counts the items
 * valid against the subschema; annotates their indices, which `unevaluatedItems` sees as evaluated.
 */

import { checkChild } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { plural } from "../../engine/messages.js";

function bound(ctx: Parameters<KeywordDefinition["compile"]>[1], keyword: string): number | undefined {
  if (!ctx.active(keyword)) return undefined;
  const v = ctx.schema[keyword];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    return ctx.fail(keyword, `"${keyword}" must be a non-negative integer`);
  return v;
}

export const contains: KeywordDefinition = {
  keyword: "contains",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("contains");
    const min = bound(ctx, "minContains") ?? 1;
    const max = bound(ctx, "maxContains");
    return {
      keyword: "contains",
      check(instance, run, marks, out) {
        if (!Array.isArray(instance)) return true;
        if (instance.length > run.limits.maxArrayLength) run.limit("maxArrayLength", out?.instanceLocation);
        const quick = marks === undefined && out === null;
        if (quick && min === 0 && max === undefined) return true;
        let count = 0;
        const matched: number[] | undefined = out === null ? undefined : [];
        for (let i = 0; i < instance.length; i++) {
          run.spend(1);
          if (!checkChild(node, instance[i], i, run, out)) {
            // Items that do not match are not errors of contains: their results are dropped at once.
            out?.children.pop();
            continue;
          }
          count++;
          marks?.addItem(i);
          matched?.push(i);
          if (quick && count >= min && max === undefined) return true;
          if (quick && max !== undefined && count > max) return false;
        }
        const valid = count >= min && (max === undefined || count <= max);
        if (out !== null) {
          if (valid) {
            out.hasAnnotation = true;
            out.annotation = count === instance.length && count > 0 ? true : matched;
          } else {
            out.params = { count, min, max };
            out.error =
              count < min
                ? `must contain at least ${plural(min, "item")} matching the contains schema, got ${count}`
                : `must contain at most ${plural(max as number, "item")} matching the contains schema, got ${count}`;
          }
        }
        return valid;
      },
    };
  },
};
