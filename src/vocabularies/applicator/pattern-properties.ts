/**
 * `patternProperties` (Core §10.3.2.2): properties whose names match a pattern must be valid against its schema;
 * annotates the names applied.
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Subschema } from "../../engine/evaluate/run.js";
import { schemaMap } from "./shared.js";
import { evaluatesNoItems } from "../../engine/evaluate/evaluated.js";

export const patternProperties: KeywordDefinition = {
  keyword: "patternProperties",
  phase: 1,
  compile(value, ctx) {
    // A plain loop: a closure over `ctx` here would keep the whole compilation alive with the evaluator.
    const entries: (readonly [CompiledPattern, Subschema, string])[] = [];
    for (const [source, node] of schemaMap("patternProperties", value, ctx))
      entries.push([ctx.pattern(source, "patternProperties"), node, source]);
    return applicator<Record<string, unknown>>({
      keyword: "patternProperties",
      on: "object",
      annotate: "keys",
      repeatsKeys: entries.length > 1,
      evaluatedProperties: () => ({ all: false, names: [], patterns: entries.map(([pattern]) => pattern) }),
      evaluatedItems: evaluatesNoItems,
      apply(instance, to, marks, run) {
        const keys = to.keys(instance);
        // Each pattern a name is tested against charges its work (docs/reference/limits.md); a limit is located at the
        // name.
        for (const key of keys) {
          for (const [pattern, node, suffix] of entries) {
            if (!run.matchName(pattern, key)) continue;
            marks?.addProp(key);
            if (!to.child(node, instance[key], key, suffix)) return false;
          }
        }
        return true;
      },
    });
  },
};
