/** `dependentSchemas` (Core §10.2.2.4): when a property is present, its schema applies to the whole object. */

import { hasOwn } from "../../engine/json/json.js";
import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { schemaMap } from "./shared.js";
import { choiceProperties, evaluatesNoItems } from "../../engine/evaluate/evaluated.js";

export const dependentSchemas: KeywordDefinition = {
  keyword: "dependentSchemas",
  phase: 1,
  compile(value, ctx) {
    const entries = schemaMap("dependentSchemas", value, ctx);
    return applicator<Record<string, unknown>>({
      keyword: "dependentSchemas",
      on: "object",
      // Which schemas apply depends on which names are present: known only when none evaluates anything.
      evaluatedProperties: () => choiceProperties(entries.map(([, node]) => node.evaluatedProperties())),
      evaluatedItems: evaluatesNoItems,
      apply(instance, to, marks) {
        to.spend(entries.length);
        for (let i = 0; i < entries.length; i++) {
          const [name, node] = entries[i]!;
          if (hasOwn(instance, name) && !to.inPlace(node, instance, marks, name)) return false;
        }
        return true;
      },
    });
  },
};
