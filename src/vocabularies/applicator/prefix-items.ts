/** `prefixItems` (Core §10.3.1.1): item i must be valid against subschema i; annotates the largest index applied. */

import { checkChild } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { schemaArray } from "./shared.js";

export const prefixItems: KeywordDefinition = {
  keyword: "prefixItems",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("prefixItems", value, ctx);
    return {
      keyword: "prefixItems",
      check(instance, run, marks, out) {
        if (!Array.isArray(instance)) return true;
        if (instance.length > run.limits.maxArrayLength) run.limit("maxArrayLength", out?.instanceLocation);
        const n = Math.min(nodes.length, instance.length);
        let valid = true;
        for (let i = 0; i < n; i++) {
          run.spend(1);
          if (!checkChild(nodes[i]!, instance[i], i, run, out, "/" + i)) {
            valid = false;
            if (out === null) return false;
          }
        }
        if (marks !== undefined && n > marks.prefix) marks.prefix = n;
        if (out !== null && valid && n > 0) {
          out.hasAnnotation = true;
          out.annotation = n === instance.length ? true : n - 1;
        }
        return valid;
      },
    };
  },
};
