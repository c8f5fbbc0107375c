/** `not` (Core §10.2.1.4): valid when the subschema is not; its annotations and marks are dropped. */

import { evaluateInPlace } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { evaluatesNoItems, evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";

export const not_: KeywordDefinition = {
  keyword: "not",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("not");
    return {
      keyword: "not",
      kind: "applicator",
      // Its subschema's annotations are dropped (Core §10.2.1.4): it evaluates nothing.
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: evaluatesNoItems,
      verdict: () => ({ kind: "choice", nodes: [node], least: 0, most: 0 }),
      test(instance, run) {
        return !run.inPlace(node, instance, undefined);
      },
      evaluate(instance, run, _marks, out) {
        const matched = evaluateInPlace(node, instance, run, undefined, out);
        out.children.length = 0;
        if (matched) out.error = "must not match the schema in not";
        return !matched;
      },
    };
  },
};
