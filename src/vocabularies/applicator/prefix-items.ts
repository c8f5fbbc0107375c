/** `prefixItems` (Core §10.3.1.1): item i must be valid against subschema i; annotates the largest index applied. */

import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { schemaArray } from "./shared.js";
import { evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";

export const prefixItems: KeywordDefinition = {
  keyword: "prefixItems",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("prefixItems", value, ctx);
    return applicator<unknown[]>({
      keyword: "prefixItems",
      on: "array",
      annotate: "largest-index",
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: () => ({ all: false, prefix: nodes.length }),
      verdict: () => ({ kind: "items", prefix: nodes, rest: undefined, from: nodes.length }),
      apply(instance, to, marks) {
        to.items(instance);
        const n = Math.min(nodes.length, instance.length);
        if (marks !== undefined && n > marks.prefix) marks.prefix = n;
        for (let i = 0; i < n; i++) if (!to.child(nodes[i]!, instance[i], i, i)) return false;
        return true;
      },
    });
  },
};
