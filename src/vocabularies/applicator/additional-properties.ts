/**
 * `additionalProperties` (Core §10.3.2.3): properties not named by `properties` nor matched by
 * `patternProperties` must be valid against it; annotates the names it applied to.
 * On the boolean path it also does `patternProperties`' work (each key is tested against each
 * pattern once); `patternProperties` then stays out of that path. The output path keeps both plain.
 */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import type { SchemaNode } from "../../engine/node.js";
import type { CompiledPattern } from "../../engine/regex/index.js";

export const additionalProperties: KeywordDefinition = {
  keyword: "additionalProperties",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("additionalProperties");
    const named = new Set(
      ctx.active("properties") && isObject(ctx.schema["properties"]) ? Object.keys(ctx.schema["properties"]) : [],
    );
    const sources =
      ctx.active("patternProperties") && isObject(ctx.schema["patternProperties"])
        ? Object.keys(ctx.schema["patternProperties"])
        : [];
    // Plain loops: a closure over `ctx` here would keep the whole compilation alive with the evaluator.
    const patterns: CompiledPattern[] = [];
    const patternNodes: SchemaNode[] = [];
    for (const p of sources) {
      patterns.push(ctx.pattern(p, "patternProperties"));
      patternNodes.push(ctx.subschema("patternProperties", p));
    }
    const forbids = node.constant === false;
    const trivial = node.isTrivial;
    // One step per property visited and per pattern its name is tested against.
    const perKey = 1 + patterns.length;
    const isAdditional = (key: string): boolean => {
      if (named.has(key)) return false;
      for (let i = 0; i < patterns.length; i++) if (patterns[i]!.test(key)) return false;
      return true;
    };
    return {
      keyword: "additionalProperties",
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        if (out === null) {
          // for-in walks the enumeration cache without allocating a key array; inherited keys are skipped.
          if (marks !== undefined) marks.allProps = true;
          let count = 0;
          for (const key in instance) {
            if (++count > run.limits.maxObjectProperties) run.limit("maxObjectProperties");
            run.spend(perKey);
            let additional = !named.has(key);
            if (patterns.length === 0 && !additional) continue;
            if (!Object.hasOwn(instance, key)) continue;
            for (let i = 0; i < patterns.length; i++) {
              if (!patterns[i]!.test(key)) continue;
              additional = false;
              if (!checkChild(patternNodes[i]!, instance[key], key, run, null)) return false;
            }
            if (additional && (forbids || (!trivial && !checkChild(node, instance[key], key, run, null)))) return false;
          }
          return true;
        }
        const keys = Object.keys(instance);
        if (keys.length > run.limits.maxObjectProperties) run.limit("maxObjectProperties", out.instanceLocation);
        let valid = true;
        const applied: string[] = [];
        const rejected: string[] = [];
        for (const key of keys) {
          run.spend(perKey);
          if (!isAdditional(key)) continue;
          applied.push(key);
          if (!checkChild(node, instance[key], key, run, forbids ? null : out)) {
            valid = false;
            rejected.push(key);
          }
        }
        if (marks !== undefined) marks.allProps = true;
        if (valid && applied.length > 0) {
          out.hasAnnotation = true;
          out.annotation = applied;
        }
        if (!valid && forbids) {
          out.params = { additional: rejected };
          out.error =
            rejected.length === 1
              ? `property ${JSON.stringify(rejected[0])} is not allowed (additionalProperties is false)`
              : `properties ${rejected.map((k) => JSON.stringify(k)).join(", ")} are not allowed ` +
                "(additionalProperties is false)";
        }
        return valid;
      },
    };
  },
};
