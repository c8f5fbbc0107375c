/** `maxItems` / `minItems` (Validation §6.4.1–2): bounds on the number of array items. */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { assertion } from "../../engine/evaluate/keyword.js";
import { plural } from "../../engine/output/messages.js";
import { nonNegativeInteger } from "./shared.js";

function count(keyword: string, phrase: string, holds: (n: number, limit: number) => boolean): KeywordDefinition {
  return {
    keyword,
    compile(value, ctx) {
      const limit = nonNegativeInteger(keyword, value, ctx);
      return assertion(
        keyword,
        (instance) => !Array.isArray(instance) || holds(instance.length, limit),
        (instance) => ({
          params: { limit },
          message: `must have ${phrase} ${plural(limit, "item")}, got ${(instance as unknown[]).length}`,
        }),
        { pure: true },
      );
    },
  };
}

export const maxItems = count("maxItems", "at most", (n, limit) => n <= limit);
export const minItems = count("minItems", "at least", (n, limit) => n >= limit);
