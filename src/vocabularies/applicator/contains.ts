/**
 * `contains` (Core §10.3.1.3) with `minContains`/`maxContains` (Validation §6.4.4–5): counts the items
 * valid against the subschema; annotates their indices, which `unevaluatedItems` sees as evaluated.
 */

import { evaluateChild } from "../../engine/applicator.js";
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
    const describe = (count: number): string =>
      count < min
        ? `must contain at least ${plural(min, "item")} matching the contains schema, got ${count}`
        : `must contain at most ${plural(max as number, "item")} matching the contains schema, got ${count}`;
    return {
      keyword: "contains",
      kind: "applicator",
      test(instance, run, marks) {
        if (!Array.isArray(instance)) return true;
        run.items(instance);
        if (marks === undefined && min === 0 && max === undefined) return true;
        let count = 0;
        const leaf = node.leaf;
        for (let i = 0; i < instance.length; i++) {
          if (leaf) {
            i = run.nextLeafMatch(node, instance, i);
            if (i < 0) break;
          } else if (!run.child(node, instance[i])) continue;
          count++;
          if (marks !== undefined) marks.addItem(i);
          else if (max === undefined ? count >= min : count > max) return max === undefined;
        }
        return count >= min && (max === undefined || count <= max);
      },
      evaluate(instance, run, marks, out) {
        if (!Array.isArray(instance)) return true;
        run.items(instance, out.instanceLocation);
        const matched: number[] = [];
        for (let i = 0; i < instance.length; i++) {
          // Items that do not match are not errors of contains: their results are dropped at once.
          if (!evaluateChild(node, instance[i], i, run, out)) out.children.pop();
          else {
            matched.push(i);
            marks?.addItem(i);
          }
        }
        const count = matched.length;
        if (count >= min && (max === undefined || count <= max)) {
          out.hasAnnotation = true;
          out.annotation = count === instance.length && count > 0 ? true : matched;
          return true;
        }
        out.params = max === undefined ? { count, min } : { count, min, max };
        out.error = describe(count);
        return false;
      },
    };
  },
};
