/** `enum` (Validation §6.1.2): the instance must equal one of the values (JSON equality, 1 equals 1.0). */

import { LimitError } from "../../engine/errors.js";
import { jsonEqual, jsonHash, UNMETERED } from "../../engine/json/json.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { isScalar } from "../../engine/evaluate/verdict-forms.js";
import { meteredAssertion } from "../../engine/evaluate/keyword.js";
import { got, valueList } from "../../engine/output/messages.js";

/** The values bucketed by structural hash; values too deep to hash stay in a list compared one by one. */
function hashedValues(values: readonly unknown[]): { buckets: ReadonlyMap<number, unknown[]>; deep: unknown[] } {
  const buckets = new Map<number, unknown[]>();
  const deep: unknown[] = [];
  for (const v of values) {
    let h: number;
    try {
      h = jsonHash(v, HASH_DEPTH, UNMETERED);
    } catch (e) {
      if (!(e instanceof LimitError)) throw e;
      deep.push(v);
      continue;
    }
    const bucket = buckets.get(h);
    if (bucket === undefined) buckets.set(h, [v]);
    else bucket.push(v);
  }
  return { buckets, deep };
}

const HASH_DEPTH = 64;

/** Values up to which an enum of JSON scalars is told to the verdict fast path as data (compared one by one). */
const LISTED_VALUES = 16;

export const enum_: KeywordDefinition = {
  keyword: "enum",
  compile(value, ctx) {
    if (!Array.isArray(value)) return ctx.fail("enum", `"enum" must be an array`);
    const primitives = new Set<unknown>();
    const structured: unknown[] = [];
    for (const v of value) {
      if (typeof v === "object" && v !== null) structured.push(v);
      else primitives.add(v);
    }
    // Many objects or arrays: look instances up by structural hash instead of comparing each in turn.
    const hashed = structured.length > 8 ? hashedValues(structured) : undefined;
    const allowed = valueList(value);
    return meteredAssertion(
      "enum",
      (instance, run) => {
        if (typeof instance !== "object" || instance === null) return primitives.has(instance);
        if (hashed !== undefined) {
          const bucket = hashed.buckets.get(jsonHash(instance, run.maxInstanceDepth, run));
          if (bucket !== undefined)
            for (let i = 0; i < bucket.length; i++)
              if (jsonEqual(instance, bucket[i], run.maxInstanceDepth, run)) return true;
          for (let i = 0; i < hashed.deep.length; i++)
            if (jsonEqual(instance, hashed.deep[i], run.maxInstanceDepth, run)) return true;
          return false;
        }
        for (let i = 0; i < structured.length; i++)
          if (jsonEqual(instance, structured[i], run.maxInstanceDepth, run)) return true;
        return false;
      },
      (instance) => ({ params: { allowed: value }, message: `must be one of ${allowed}, ${got(instance)}` }),
      // Without objects or arrays the test reads nothing of the meter; a short list of scalars is data as well.
      structured.length > 0
        ? {}
        : { pure: true, ...(value.length <= LISTED_VALUES && value.every(isScalar) ? { values: value } : {}) },
    );
  },
};
