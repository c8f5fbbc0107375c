/** `patternProperties` (Core §10.3.2.2): properties whose names match a pattern must be valid against its schema. */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { escapeToken } from "../../engine/pointer.js";
import type { SchemaNode } from "../../engine/node.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import { schemaMap } from "./shared.js";

export const patternProperties: KeywordDefinition = {
  keyword: "patternProperties",
  phase: 1,
  compile(value, ctx) {
    // A plain loop: a closure over `ctx` here would keep the whole compilation alive with the evaluator.
    const entries: (readonly [CompiledPattern, SchemaNode, string])[] = [];
    for (const [source, node] of schemaMap("patternProperties", value, ctx))
      entries.push([ctx.pattern(source, "patternProperties"), node, escapeToken(source)]);
    const perKey = Math.max(1, entries.length);
    return {
      keyword: "patternProperties",
      // With additionalProperties beside it, that keyword does this work on the boolean path.
      passive: ctx.active("additionalProperties"),
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        const keys = Object.keys(instance);
        if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties", out?.instanceLocation);
        let valid = true;
        const applied: string[] | undefined = out === null ? undefined : [];
        for (const key of keys) {
          // One step per pattern a name is tested against.
          run.spend(perKey);
          let matched = false;
          for (const [pattern, node, suffix] of entries) {
            if (!pattern.test(key)) continue;
            if (!matched) {
              matched = true;
              marks?.addProp(key);
              applied?.push(key);
            }
            if (!checkChild(node, instance[key], key, run, out, "/" + suffix)) {
              valid = false;
              if (out === null) return false;
            }
          }
        }
        if (out !== null && valid && applied!.length > 0) {
          out.hasAnnotation = true;
          out.annotation = applied;
        }
        return valid;
      },
    };
  },
};
