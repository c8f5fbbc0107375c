/** `pattern` (Validation §6.3.3): the string must match the ECMA-262 `u` regular expression (unanchored). */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { meteredAssertion } from "../../engine/evaluate/keyword.js";
import { got } from "../../engine/output/messages.js";

export const pattern: KeywordDefinition = {
  keyword: "pattern",
  compile(value, ctx) {
    if (typeof value !== "string") return ctx.fail("pattern", `"pattern" must be a string`);
    const compiled = ctx.pattern(value, "pattern");
    return meteredAssertion(
      "pattern",
      (instance, run) => {
        if (typeof instance !== "string") return true;
        run.string(instance);
        return compiled.test(instance, run);
      },
      (instance) => ({
        params: { pattern: value },
        message: `must match the pattern ${JSON.stringify(value)}, ${got(instance)}`,
      }),
    );
  },
};
