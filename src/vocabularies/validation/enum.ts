/** `enum` (Validation §6.1.2): the instance must equal one of the values (JSON equality, 1 equals 1.0). */

import { LimitError } from "../../engine/errors.js";
import { canonicalKey, jsonEqual, preview } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { assertion } from "../../engine/keyword.js";
import { got } from "../../engine/messages.js";

/** Canonical keys of the values; values too deep to key stay in a list compared one by one. */
function keyedValues(values: readonly unknown[]): { keys: ReadonlySet<string>; deep: unknown[] } {
  const keys = new Set<string>();
  const deep: unknown[] = [];
  for (const v of values) {
    try {
      keys.add(canonicalKey(v, KEY_DEPTH));
    } catch (e) {
      if (!(e instanceof LimitError)) throw e;
      deep.push(v);
    }
  }
  return { keys, deep };
}

const KEY_DEPTH = 64;

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
    // Many objects or arrays: look instances up by canonical key instead of comparing each in turn.
    const keyed = structured.length > 8 ? keyedValues(structured) : undefined;
    const allowed = value.length <= 5 ? value.map((v) => preview(v, 30)).join(", ") : `${value.length} allowed values`;
    return assertion("enum", ctx, (instance, run) => {
      if (typeof instance !== "object" || instance === null) return primitives.has(instance);
      if (keyed !== undefined) {
        if (keyed.keys.has(canonicalKey(instance, run.maxInstanceDepth))) return true;
        for (let i = 0; i < keyed.deep.length; i++) if (jsonEqual(instance, keyed.deep[i])) return true;
        return false;
      }
      for (let i = 0; i < structured.length; i++) if (jsonEqual(instance, structured[i])) return true;
      return false;
    }, (instance) => ({ params: { allowed: value }, message: `must be one of ${allowed}, ${got(instance)}` }));
  },
};
