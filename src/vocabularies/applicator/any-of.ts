/**
 * `anyOf` (Core §10.2.1.2): valid when at least one subschema is. Stops at the first match only when
 * nobody listens for evaluated marks or output; marks of failing branches are discarded.
 */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { schemaArray } from "./shared.js";

export const anyOf: KeywordDefinition = {
  keyword: "anyOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("anyOf", value, ctx);
    return {
      keyword: "anyOf",
      check(instance, run, marks, out) {
        if (marks === undefined && out === null) {
          for (let i = 0; i < nodes.length; i++) if (nodes[i]!.check(instance, run, undefined, null)) return true;
          return false;
        }
        let valid = false;
        nodes.forEach((node, i) => {
          const saved = marks?.save();
          if (checkInPlace(node, instance, run, marks, out, "/" + i)) valid = true;
          else if (saved !== undefined) marks!.restore(saved);
        });
        if (!valid && out !== null) {
          out.params = { branches: nodes.length };
          out.error = `must match at least one schema in anyOf, matched none of ${nodes.length}`;
        }
        return valid;
      },
    };
  },
};
