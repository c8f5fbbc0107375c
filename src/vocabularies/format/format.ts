/**
 * `format` (Validation §7): an annotation by default (format-annotation vocabulary); an assertion on strings when
 * the host asks for it or a meta-schema requires format-assertion, annotating as well. The formats are the dialect's
 * and the host's (`formats` option, engine/formats.ts); unknown formats only annotate, unless `strictSchema` refuses.
 */

import { annotation, assertion, type KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { got } from "../../engine/output/messages.js";
import { typeBits } from "../../engine/json/types.js";

export const format: KeywordDefinition = {
  keyword: "format",
  compile(value, ctx) {
    if (typeof value !== "string" || !ctx.formatAssertion) return annotation("format", value);
    const known = ctx.format(value);
    if (known === undefined) return annotation("format", value);
    const { mask, stepsPerUnit, test } = known;
    return assertion(
      "format",
      (instance, run) => {
        if ((typeBits(instance) & mask) === 0) return true;
        // A checker reads a string once: one step per code unit (docs/reference/limits.md); parsing a `regex` costs
        // more.
        if (typeof instance === "string") {
          run.string(instance);
          run.spend(1 + stepsPerUnit * instance.length);
        } else run.spend(1);
        return test(instance);
      },
      (instance) => ({ message: `must be a valid ${value}, ${got(instance)}`, params: { format: value } }),
      { annotation: { value } },
    );
  },
};
