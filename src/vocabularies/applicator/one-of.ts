/** `oneOf` (Core §10.2.1.3): valid when exactly one subschema is; only that branch's marks survive. */

import { tryInPlace } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { indexList } from "../../engine/output/messages.js";
import { schemaArray } from "./shared.js";
import { choiceItems, choiceProperties } from "../../engine/evaluate/evaluated.js";

export const oneOf: KeywordDefinition = {
  keyword: "oneOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("oneOf", value, ctx);
    return {
      keyword: "oneOf",
      kind: "applicator",
      evaluatedProperties: () => choiceProperties(nodes.map((node) => node.evaluatedProperties())),
      evaluatedItems: () => choiceItems(nodes.map((node) => node.evaluatedItems())),
      verdict: () => ({ kind: "choice", nodes, least: 1, most: 1 }),
      test(instance, run, marks) {
        let matched = 0;
        for (let i = 0; i < nodes.length; i++)
          if (run.tryInPlace(nodes[i]!, instance, marks) && ++matched > 1) return false;
        return matched === 1;
      },
      evaluate(instance, run, marks, out) {
        const matched: number[] = [];
        for (let i = 0; i < nodes.length; i++)
          if (tryInPlace(nodes[i]!, instance, run, marks, out, "/" + i)) matched.push(i);
        if (matched.length === 1) return true;
        out.params = { matched };
        out.error =
          matched.length === 0
            ? `must match exactly one schema in oneOf, matched none of ${nodes.length}`
            : `must match exactly one schema in oneOf, matched ${matched.length} (branches ${indexList(matched)})`;
        return false;
      },
    };
  },
};
