/** `oneOf` (Core §10.2.1.3): valid when exactly one subschema is; only that branch's marks survive. */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { indexList } from "../../engine/messages.js";
import { schemaArray } from "./shared.js";

export const oneOf: KeywordDefinition = {
  keyword: "oneOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("oneOf", value, ctx);
    return {
      keyword: "oneOf",
      check(instance, run, marks, out) {
        if (marks === undefined && out === null) {
          let matched = 0;
          for (let i = 0; i < nodes.length; i++) {
            if (nodes[i]!.check(instance, run, undefined, null) && ++matched > 1) return false;
          }
          return matched === 1;
        }
        const matched: number[] = [];
        nodes.forEach((node, i) => {
          const saved = marks?.save();
          if (checkInPlace(node, instance, run, marks, out, "/" + i)) matched.push(i);
          else if (saved !== undefined) marks!.restore(saved);
        });
        if (matched.length === 1) return true;
        if (out !== null) {
          out.params = { matched };
          out.error =
            matched.length === 0
              ? `must match exactly one schema in oneOf, matched none of ${nodes.length}`
              : `must match exactly one schema in oneOf, matched ${matched.length} (branches ${indexList(matched)})`;
        }
        return false;
      },
    };
  },
};
