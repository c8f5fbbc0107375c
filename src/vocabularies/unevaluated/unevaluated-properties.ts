/**
 * `unevaluatedProperties` (Core §11.3): properties that no adjacent keyword or valid in-place subschema evaluated
 * must be valid against it. Reads the marks the node collected; marks every property after. When what the other
 * keywords evaluate is known at compile time (`properties`, `patternProperties`, `additionalProperties`, `allOf`,
 * `$ref`, branches that evaluate nothing), the boolean path applies that instead and reads no marks; the output
 * path always reads them (a failing branch's annotations are dropped, and its errors name what it left).
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import { ALL_PROPERTIES, type EvaluatedProperties, evaluatesNoItems } from "../../engine/evaluate/evaluated.js";
import { evaluatedPropertiesOf, type KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { NameSetUnions } from "../../engine/evaluate/marks.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Run } from "../../engine/evaluate/run.js";
import { notAllowed } from "../applicator/additional-properties.js";

/** Whether `key` is among what `known` evaluates (a pattern tested charges its work). */
function evaluated(known: EvaluatedProperties, key: string, run: Run): boolean {
  for (const names of known.names) if (names.has(key)) return true;
  for (const pattern of known.patterns) if ((pattern as CompiledPattern).test(key, run)) return true;
  return false;
}

export const unevaluatedProperties: KeywordDefinition = {
  keyword: "unevaluatedProperties",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedProperties");
    const unions = new NameSetUnions();
    let known: EvaluatedProperties | undefined;
    return applicator<Record<string, unknown>>({
      keyword: "unevaluatedProperties",
      on: "object",
      annotate: "keys",
      quietFalse: true,
      evaluatedProperties: () => ALL_PROPERTIES,
      evaluatedItems: evaluatesNoItems,
      settle(siblings) {
        known = evaluatedPropertiesOf(siblings);
        return known !== undefined;
      },
      apply(instance, to, marks, run) {
        if (known !== undefined && !to.exhaustive) {
          if (!known.all) {
            const keys = to.keys(instance);
            for (const key of keys)
              if (!evaluated(known, key, run) && !to.child(node, instance[key], key)) return false;
          }
          if (marks !== undefined) marks.allProps = true;
          return true;
        }
        if (marks === undefined || marks.allProps) return true;
        const marked = marks.nameSet(run, unions);
        const keys = to.keys(instance);
        to.spend(keys.length); // one step per name looked up among the marked ones
        for (const key of keys) if (!marked.has(key) && !to.child(node, instance[key], key)) return false;
        marks.allProps = true;
        return true;
      },
      describe: (failed) =>
        node.constant === false ? notAllowed(failed as string[], "unevaluatedProperties") : undefined,
    });
  },
};
