/** `$ref` (Core §8.2.3.1): applies the referenced schema in place; resolved once, at compile time. */

import { reference } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";

export const $ref: KeywordDefinition = {
  keyword: "$ref",
  phase: 1,
  compile(value, ctx) {
    if (typeof value !== "string") return ctx.fail("$ref", `"$ref" must be a string`);
    return reference("$ref", ctx.reference(value));
  },
};
