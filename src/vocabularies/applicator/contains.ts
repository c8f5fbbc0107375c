/**
 * `contains` (Core §10.3.1.3) with `minContains`/`maxContains` (Validation §6.4.4–5): counts the items
 * valid against the subschema; annotates their indices, which `unevaluatedItems` sees as evaluated.
 */

import { outputApplier } from "../../engine/evaluate/applicator.js";
import type { Marks } from "../../engine/evaluate/marks.js";
import type { Applier } from "../../engine/evaluate/run.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { plural } from "../../engine/output/messages.js";
import { evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";

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
    /**
     * Counts the matching items through the applier's `firstMatch` (one primitive on both paths); `indices` collects
     * them for the annotation. The boolean path stops as soon as the bounds decide, unless marks are read.
     */
    const scan = (instance: unknown[], to: Applier, marks: Marks | undefined, indices?: number[]): number => {
      let count = 0;
      for (let i = to.firstMatch(node, instance, 0); i >= 0; i = to.firstMatch(node, instance, i + 1)) {
        count++;
        indices?.push(i);
        if (marks !== undefined) marks.addItem(i);
        else if (!to.exhaustive && (max === undefined ? count >= min : count > max)) break;
      }
      return count;
    };
    const holds = (count: number): boolean => count >= min && (max === undefined || count <= max);
    return {
      keyword: "contains",
      kind: "applicator",
      // The items it marks are those that match: known only at evaluation.
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: () => undefined,
      verdict: () => ({ kind: "contains", node, min, max }),
      test(instance, run, marks) {
        if (!Array.isArray(instance)) return true;
        run.items(instance);
        if (marks === undefined && min === 0 && max === undefined) return true;
        return holds(scan(instance, run, marks));
      },
      evaluate(instance, run, marks, out) {
        if (!Array.isArray(instance)) return true;
        run.items(instance, out);
        const matched: number[] = [];
        const count = scan(instance, outputApplier(run, out), marks, matched);
        if (holds(count)) {
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
