/** `$ref` (Core §8.2.3.1): applies the referenced schema in place; resolved once, at compile time. */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const $ref: KeywordDefinition = {
  keyword: "$ref",
  phase: 1,
  compile(value, ctx) {
    if (typeof value !== "string") return ctx.fail("$ref", `"$ref" must be a string`);
    const target = ctx.reference(value);
    return {
      keyword: "$ref",
      check(instance, run, marks, out) {
        if (++run.references > run.limits.maxReferenceDepth) run.limit("maxReferenceDepth", out?.instanceLocation);
        const valid = checkInPlace(target, instance, run, marks, out);
        run.references--;
        return valid;
      },
    };
  },
};
