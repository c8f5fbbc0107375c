/**
 * `unevaluatedProperties` (Core §11.3): properties that no adjacent keyword or valid in-place subschema evaluated
 * must be valid against it. Reads the marks the node collected; marks every property after.
 */

import { applicator } from "../../engine/applicator.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { NameSetUnions } from "../../engine/marks.js";
import { notAllowed } from "../applicator/additional-properties.js";

export const unevaluatedProperties: KeywordDefinition = {
  keyword: "unevaluatedProperties",
  phase: 2,
  readsMarks: true,
  compile(_value, ctx) {
    const node = ctx.subschema("unevaluatedProperties");
    const unions = new NameSetUnions();
    return applicator<Record<string, unknown>>({
      keyword: "unevaluatedProperties",
      on: "object",
      annotate: "keys",
      quietFalse: true,
      apply(instance, to, marks, run) {
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
