/** `properties` (Core §10.3.2.1): each named, present property must be valid; annotates the names applied. */

import { hasOwn } from "../../engine/json/json.js";
import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import type { Subschema } from "../../engine/evaluate/run.js";
import { schemaMap } from "./shared.js";
import { evaluatesNoItems } from "../../engine/evaluate/evaluated.js";

export const properties: KeywordDefinition = {
  keyword: "properties",
  phase: 1,
  compile(value, ctx) {
    // Names and subschemas side by side (two arrays, not a pair per property: compiled schemas stay small).
    const entries = schemaMap("properties", value, ctx);
    const keys = entries.map(([name]) => name);
    const nodes = entries.map(([, node]) => node);
    const names: ReadonlySet<string> = new Set(keys);
    return applicator<Record<string, unknown>>({
      keyword: "properties",
      on: "object",
      annotate: "keys",
      evaluatedProperties: () => ({ all: false, names: [names], patterns: [] }),
      evaluatedItems: evaluatesNoItems,
      apply(instance, to, marks) {
        marks?.addNameSet(names);
        to.spend(keys.length);
        for (let i = 0; i < keys.length; i++) {
          const name = keys[i] as string;
          if (hasOwn(instance, name) && !to.child(nodes[i] as Subschema, instance[name], name, name)) return false;
        }
        return true;
      },
    });
  },
};
