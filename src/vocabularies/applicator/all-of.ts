/** `allOf` (Core §10.2.1.1): the instance must be valid against every subschema. */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { indexList } from "../../engine/messages.js";
import { schemaArray } from "./shared.js";

export const allOf: KeywordDefinition = {
  keyword: "allOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("allOf", value, ctx);
    return {
      keyword: "allOf",
      check(instance, run, marks, out) {
        if (out === null) {
          for (let i = 0; i < nodes.length; i++) if (!nodes[i]!.check(instance, run, marks, null)) return false;
          return true;
        }
        const failed: number[] = [];
        nodes.forEach((node, i) => {
          if (!checkInPlace(node, instance, run, marks, out, "/" + i)) failed.push(i);
        });
        if (failed.length === 0) return true;
        out.params = { failed };
        const branches = `${failed.length === 1 ? "branch" : "branches"} ${indexList(failed)}`;
        out.error = `must match all schemas in allOf, failed ${branches}`;
        return false;
      },
    };
  },
};
