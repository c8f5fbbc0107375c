/** `allOf` (Core §10.2.1.1): the instance must be valid against every subschema. */

import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { indexList } from "../../engine/output/messages.js";
import { schemaArray } from "./shared.js";
import { unionItems, unionProperties } from "../../engine/evaluate/evaluated.js";

export const allOf: KeywordDefinition = {
  keyword: "allOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("allOf", value, ctx);
    return applicator({
      keyword: "allOf",
      evaluatedProperties: () => unionProperties(nodes.map((node) => node.evaluatedProperties())),
      evaluatedItems: () => unionItems(nodes.map((node) => node.evaluatedItems())),
      verdict: () => ({ kind: "in-place", nodes }),
      apply(instance, to, marks) {
        for (let i = 0; i < nodes.length; i++) if (!to.inPlace(nodes[i]!, instance, marks, i)) return false;
        return true;
      },
      describe: (failed) => ({
        message: `must match all schemas in allOf, failed ${failed.length === 1 ? "branch" : "branches"} ${indexList(
          failed as number[],
        )}`,
        params: { failed: failed as number[] },
      }),
    });
  },
};
