/**
 * `if`/`then`/`else` (Core §10.2.2): `if` only selects; `then` applies when it matched, `else` when not. The three
 * are evaluated by one evaluator; `then`/`else` keep their own keyword locations in output.
 */

import { tryInPlace } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import type { Subschema } from "../../engine/evaluate/run.js";
import { choiceItems, choiceProperties } from "../../engine/evaluate/evaluated.js";

export const if_: KeywordDefinition = {
  keyword: "if",
  phase: 1,
  compile(_value, ctx) {
    const condition = ctx.subschema("if");
    const then = ctx.active("then") ? ctx.subschema("then") : undefined;
    const else_ = ctx.active("else") ? ctx.subschema("else") : undefined;
    const branches = [condition, ...(then === undefined ? [] : [then]), ...(else_ === undefined ? [] : [else_])];
    return {
      keyword: "if",
      kind: "applicator",
      evaluatedProperties: () => choiceProperties(branches.map((node) => node.evaluatedProperties())),
      evaluatedItems: () => choiceItems(branches.map((node) => node.evaluatedItems())),
      verdict: () => ({ kind: "condition", condition, then, else: else_ }),
      test(instance, run, marks) {
        const matched = run.tryInPlace(condition, instance, marks);
        const branch: Subschema | undefined = matched ? then : else_;
        return branch === undefined || run.inPlace(branch, instance, marks);
      },
      evaluate(instance, run, marks, out) {
        const matched = tryInPlace(condition, instance, run, marks, out);
        if (!matched) out.children.length = 0;
        const branch: Subschema | undefined = matched ? then : else_;
        if (branch === undefined) return true;
        // `then`/`else` are siblings of `if`: their results carry their own keyword location.
        return branch.evaluate(instance, run, marks, out.applySibling(matched ? "then" : "else"));
      },
    };
  },
};

/** `then` and `else` are applied by `if`; alone they do nothing (Core §10.2.2.2–3). */
export const then: KeywordDefinition = { keyword: "then", compile: () => undefined };
export const else_: KeywordDefinition = { keyword: "else", compile: () => undefined };
