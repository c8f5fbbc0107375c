/**
 * `additionalProperties` (Core §10.3.2.3): properties not named by `properties` nor matched by
 * `patternProperties` must be valid against it; annotates the names it applied to. Against `false`, the message
 * lists the names that are not allowed.
 */

import { applicator } from "../../engine/evaluate/applicator.js";
import { isObject } from "../../engine/json/json.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import type { CompiledPattern } from "../../engine/regex/index.js";
import type { Run } from "../../engine/evaluate/run.js";
import { ALL_PROPERTIES, evaluatesNoItems } from "../../engine/evaluate/evaluated.js";

export const additionalProperties: KeywordDefinition = {
  keyword: "additionalProperties",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("additionalProperties");
    const declared = ctx.active("properties") ? ctx.schema["properties"] : undefined;
    const named = new Set(isObject(declared) ? Object.keys(declared) : []);
    const sources = ctx.active("patternProperties") ? ctx.schema["patternProperties"] : undefined;
    const patterns: CompiledPattern[] = [];
    if (isObject(sources)) for (const p of Object.keys(sources)) patterns.push(ctx.pattern(p, "patternProperties"));
    const isAdditional = (key: string, run: Run): boolean => {
      if (named.has(key)) return false;
      for (let i = 0; i < patterns.length; i++) if (run.matchName(patterns[i]!, key)) return false;
      return true;
    };
    return applicator<Record<string, unknown>>({
      keyword: "additionalProperties",
      on: "object",
      annotate: "keys",
      quietFalse: true,
      evaluatedProperties: () => ALL_PROPERTIES,
      evaluatedItems: evaluatesNoItems,
      apply(instance, to, marks, run) {
        if (marks !== undefined) marks.allProps = true;
        const keys = to.keys(instance);
        for (const key of keys) if (isAdditional(key, run) && !to.child(node, instance[key], key)) return false;
        return true;
      },
      describe: (failed) =>
        node.constant === false ? notAllowed(failed as string[], "additionalProperties") : undefined,
    });
  },
};

/** The message of an `additionalProperties`/`unevaluatedProperties` of `false`: the names it rejects. */
export function notAllowed(
  rejected: readonly string[],
  keyword: "additionalProperties" | "unevaluatedProperties",
): { message: string; params: { additional: readonly string[] } | { unevaluated: readonly string[] } } {
  const names = rejected.map((k) => JSON.stringify(k)).join(", ");
  const message =
    rejected.length === 1
      ? `property ${names} is not allowed (${keyword} is false)`
      : `properties ${names} are not allowed (${keyword} is false)`;
  return { message, params: keyword === "additionalProperties" ? { additional: rejected } : { unevaluated: rejected } };
}
