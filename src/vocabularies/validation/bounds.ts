/** `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum` (Validation §6.2.2–5): numeric bounds. */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { assertion } from "../../engine/evaluate/keyword.js";

function bound(keyword: string, phrase: string, holds: (n: number, limit: number) => boolean): KeywordDefinition {
  return {
    keyword,
    compile(value, ctx) {
      if (typeof value !== "number") return ctx.fail(keyword, `"${keyword}" must be a number`);
      return assertion(
        keyword,
        (instance) => typeof instance !== "number" || holds(instance, value),
        (instance) => ({
          params: { limit: value },
          message: `must be ${phrase} ${value}, got ${String(instance)}`,
        }),
        { pure: true },
      );
    },
  };
}

export const maximum = bound("maximum", "at most", (n, limit) => n <= limit);
export const exclusiveMaximum = bound("exclusiveMaximum", "less than", (n, limit) => n < limit);
export const minimum = bound("minimum", "at least", (n, limit) => n >= limit);
export const exclusiveMinimum = bound("exclusiveMinimum", "greater than", (n, limit) => n > limit);
