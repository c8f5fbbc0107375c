/**
 * `unevaluatedProperties` (Core §11.3): properties that no adjacent keyword or valid in-place subschema
 * evaluated must be valid against it. Reads the marks the node collected; marks every property after.
 */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const unevaluatedProperties: KeywordDefinition = {
  keyword: "unevaluatedProperties",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedProperties");
    const forbids = node.constant === false;
    return {
      keyword: "unevaluatedProperties",
      check(instance, run, marks, out) {
        if (!isObject(instance) || marks === undefined) return true;
        if (marks.allProps) return true;
        const keys = Object.keys(instance);
        if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties", out?.instanceLocation);
        const applied: string[] = [];
        const rejected: string[] = [];
        const marked = marks.nameSet(run);
        for (const key of keys) {
          if (marks.hasProp(key, marked, run)) continue;
          applied.push(key);
          if (forbids && out === null) return false;
          if (!checkChild(node, instance[key], key, run, forbids ? null : out)) {
            rejected.push(key);
            if (out === null) return false;
          }
        }
        marks.allProps = true;
        if (out !== null) {
          if (rejected.length === 0 && applied.length > 0) {
            out.hasAnnotation = true;
            out.annotation = applied;
          }
          if (rejected.length > 0 && forbids) {
            out.params = { unevaluated: rejected };
            out.error =
              rejected.length === 1
                ? `property ${JSON.stringify(rejected[0])} is not allowed (unevaluatedProperties is false)`
                : `properties ${rejected.map((k) => JSON.stringify(k)).join(", ")} are not allowed ` +
                  "(unevaluatedProperties is false)";
          }
        }
        return rejected.length === 0;
      },
    };
  },
};
