/** `propertyNames` (Core §10.3.2.4): every property name, as a string instance, must be valid against the schema. */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const propertyNames: KeywordDefinition = {
  keyword: "propertyNames",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("propertyNames");
    return {
      keyword: "propertyNames",
      check(instance, run, _marks, out) {
        if (!isObject(instance)) return true;
        const keys = Object.keys(instance);
        if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties", out?.instanceLocation);
        let valid = true;
        for (const key of keys) {
          run.spend(1);
          if (!checkChild(node, key, key, run, out)) {
            valid = false;
            if (out === null) return false;
          }
        }
        // Property names are not instance locations with values: their subschema's annotations are dropped.
        if (out !== null) out.children = out.children.filter((c) => !c.valid);
        return valid;
      },
    };
  },
};
