/**
 * `propertyNames` (Core §10.3.2.4): every property name, as a string instance, must be valid against the schema.
 * Names are not instance locations with values, so the subschema's annotations are dropped.
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { evaluatesNoItems, evaluatesNoProperties } from "../../engine/evaluate/evaluated.js";

export const propertyNames: KeywordDefinition = {
  keyword: "propertyNames",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("propertyNames");
    return applicator<Record<string, unknown>>({
      keyword: "propertyNames",
      on: "object",
      failuresOnly: true,
      evaluatedProperties: evaluatesNoProperties,
      evaluatedItems: evaluatesNoItems,
      apply(instance, to) {
        for (const key of to.keys(instance)) if (!to.child(node, key, key)) return false;
        return true;
      },
    });
  },
};
