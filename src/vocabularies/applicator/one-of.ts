/** `oneOf` (Core §10.2.1.3): valid when exactly one subschema is; only that branch's marks survive. */

import { Marks } from "../../engine/context.js";
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
      absoluteKeywordLocation: ctx.locationOf("oneOf"),
      check(instance, run, marks, out) {
        if (marks === undefined && out === null) {
          let matched = 0;
          for (let i = 0; i < nodes.length; i++) {
            if (nodes[i]!.check(instance, run, undefined, null) && ++matched > 1) return false;
          }
          return matched === 1;
        }
        const matched: number[] = [];
        let kept: Marks | undefined;
        nodes.forEach((node, i) => {
          const branch = marks === undefined ? undefined : new Marks();
          if (checkInPlace(node, instance, run, branch, out, "/" + i)) {
            matched.push(i);
            kept = branch;
          }
        });
        if (matched.length === 1) {
          if (kept !== undefined) marks!.merge(kept);
          return true;
        }
        if (out !== null) {
          out.params = { matched };
          out.error = matched.length === 0
            ? `must match exactly one schema in oneOf, matched none of ${nodes.length}`
            : `must match exactly one schema in oneOf, matched ${matched.length} (branches ${indexList(matched)})`;
        }
        return false;
      },
    };
  },
};
