/** `properties` (Core §10.3.2.1): each named, present property must be valid; annotates the names applied. */

import { hasOwn } from "../../engine/json/json.js";
import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { schemaMap } from "./shared.js";
import { NO_ITEMS } from "../../engine/evaluate/evaluated.js";

export const properties: KeywordDefinition = {
  keyword: "properties",
  phase: 1,
  compile(value, ctx) {
    const entries = schemaMap("properties", value, ctx);
    const names: ReadonlySet<string> = new Set(entries.map(([name]) => name));
    return applicator<Record<string, unknown>>({
      keyword: "properties",
      on: "object",
      annotate: "keys",
      evaluatedProperties: () => ({ all: false, names: [names], patterns: [] }),
      evaluatedItems: () => NO_ITEMS,
      apply(instance, to, marks) {
        marks?.addNameSet(names);
        to.spend(entries.length);
        for (let i = 0; i < entries.length; i++) {
          const [name, node] = entries[i]!;
          if (hasOwn(instance, name) && !to.child(node, instance[name], name, name)) return false;
        }
        return true;
      },
    });
  },
};
