/** `dependentSchemas` (Core §10.2.2.4): when a property is present, its schema applies to the whole object. */

import { checkInPlace } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import { escapeToken as escape } from "../../engine/pointer.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { schemaMap } from "./shared.js";

export const dependentSchemas: KeywordDefinition = {
  keyword: "dependentSchemas",
  phase: 1,
  compile(value, ctx) {
    const entries = schemaMap("dependentSchemas", value, ctx);
    return {
      keyword: "dependentSchemas",
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        let valid = true;
        for (const [name, node] of entries) {
          run.spend(1);
          if (!Object.hasOwn(instance, name)) continue;
          if (!checkInPlace(node, instance, run, marks, out, "/" + escape(name))) {
            valid = false;
            if (out === null) return false;
          }
        }
        return valid;
      },
    };
  },
};
