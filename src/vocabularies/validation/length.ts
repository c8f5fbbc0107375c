/** `maxLength` / `minLength` (Validation §6.3.1–2): string length in Unicode code points. */

import { codePointLength } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { assertion } from "../../engine/keyword.js";
import { plural } from "../../engine/messages.js";
import { nonNegativeInteger } from "./shared.js";

export const maxLength: KeywordDefinition = {
  keyword: "maxLength",
  compile(value, ctx) {
    const limit = nonNegativeInteger("maxLength", value, ctx);
    return assertion(
      "maxLength",
      (instance) => typeof instance !== "string" || instance.length <= limit || codePointLength(instance) <= limit,
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
      (instance) =>
        typeof instance !== "string" ||
        instance.length >= 2 * limit ||
        (instance.length >= limit && codePointLength(instance) >= limit),
      (instance) => ({
        params: { limit },
        message: `must be at least ${plural(limit, "character")} long, got ${codePointLength(instance as string)}`,
      }),
    );
  },
};
