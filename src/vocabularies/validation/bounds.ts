/** `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum` (Validation §6.2.2–5): numeric bounds. */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { assertion } from "../../engine/evaluate/keyword.js";
import { type NumericRange, UNBOUNDED } from "../../engine/evaluate/verdict-forms.js";

function bound(
  keyword: string,
  phrase: string,
  holds: (n: number, limit: number) => boolean,
  side: keyof NumericRange,
): KeywordDefinition {
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
        { pure: true, range: { ...UNBOUNDED, [side]: value } },
      );
    },
  };
}

export const maximum = bound("maximum", "at most", (n, limit) => n <= limit, "atMost");
export const exclusiveMaximum = bound("exclusiveMaximum", "less than", (n, limit) => n < limit, "below");
export const minimum = bound("minimum", "at least", (n, limit) => n >= limit, "atLeast");
export const exclusiveMinimum = bound("exclusiveMinimum", "greater than", (n, limit) => n > limit, "above");
