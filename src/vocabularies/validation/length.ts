/** `maxLength` / `minLength` (Validation §6.3.1–2): string length in Unicode code points. */

import { codePointLength } from "../../engine/json/json.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { assertion } from "../../engine/evaluate/keyword.js";
import { plural } from "../../engine/output/messages.js";
import type { Run } from "../../engine/evaluate/run.js";
import { nonNegativeInteger } from "./shared.js";

/**
 * The length in code points, charged one step per 32 code units counted (docs/reference/limits.md: counting is the
 * cheapest loop over a string, and a schema can ask for it many times).
 */
function countedLength(s: string, run: Run): number {
  run.spend(1 + (s.length >>> 5));
  return codePointLength(s);
}

export const maxLength: KeywordDefinition = {
  keyword: "maxLength",
  compile(value, ctx) {
    const limit = nonNegativeInteger("maxLength", value, ctx);
    return assertion(
      "maxLength",
      (instance, run) =>
        typeof instance !== "string" || instance.length <= limit || countedLength(instance, run) <= limit,
      (instance) => ({
        params: { limit },
        message: `must be at most ${plural(limit, "character")} long, got ${codePointLength(instance as string)}`,
      }),
    );
  },
};

export const minLength: KeywordDefinition = {
  keyword: "minLength",
  compile(value, ctx) {
    const limit = nonNegativeInteger("minLength", value, ctx);
    return assertion(
      "minLength",
      (instance, run) =>
        typeof instance !== "string" ||
        instance.length >= 2 * limit ||
        (instance.length >= limit && countedLength(instance, run) >= limit),
      (instance) => ({
        params: { limit },
        message: `must be at least ${plural(limit, "character")} long, got ${codePointLength(instance as string)}`,
      }),
    );
  },
};
