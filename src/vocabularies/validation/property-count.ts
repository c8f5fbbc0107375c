/** `maxProperties` / `minProperties` (Validation §6.5.1–2): bounds on the number of object properties. */

import { isObject } from "../../engine/json/json.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { meteredAssertion } from "../../engine/evaluate/keyword.js";
import { plural } from "../../engine/output/messages.js";
import { nonNegativeInteger } from "./shared.js";

function count(keyword: string, phrase: string, holds: (n: number, limit: number) => boolean): KeywordDefinition {
  return {
    keyword,
    compile(value, ctx) {
      const limit = nonNegativeInteger(keyword, value, ctx);
      return meteredAssertion(
        keyword,
        (instance, run) => {
          if (!isObject(instance)) return true;
          const count = run.ownKeys(instance).length;
          run.spend(count);
          return holds(count, limit);
        },
        (instance) => ({
          params: { limit },
          message:
            `must have ${phrase} ${plural(limit, "property", "properties")}, ` +
            `got ${Object.keys(instance as object).length}`,
        }),
      );
    },
  };
}

export const maxProperties = count("maxProperties", "at most", (n, limit) => n <= limit);
export const minProperties = count("minProperties", "at least", (n, limit) => n >= limit);
