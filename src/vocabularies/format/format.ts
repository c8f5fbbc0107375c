/**
 * `format` (Validation §7): an annotation by default (format-annotation vocabulary); an assertion on strings when
 * the host asks for it or a meta-schema requires format-assertion, annotating as well. Unknown formats only annotate.
 */

import { annotation, assertion, type KeywordDefinition } from "../../engine/keyword.js";
import { got } from "../../engine/messages.js";
import { formatCheckers } from "./index.js";

/** Steps per code unit of a `format: "regex"` string: the pattern parser does several steps' work per unit. */
const REGEX_STEPS_PER_UNIT = 8;

export const format: KeywordDefinition = {
  keyword: "format",
  compile(value, ctx) {
    const checker = typeof value === "string" ? formatCheckers.get(value) : undefined;
    if (!ctx.formatAssertion || checker === undefined) return annotation("format", value);
    // A checker reads the string once: one step per code unit (README "Limits"); parsing a `regex` costs more.
    const perUnit = value === "regex" ? REGEX_STEPS_PER_UNIT : 1;
    return assertion(
      "format",
      (instance, run) => {
        if (typeof instance !== "string") return true;
        run.string(instance);
        run.spend(1 + perUnit * instance.length);
        return checker(instance);
      },
      (instance) => ({ message: `must be a valid ${String(value)}, ${got(instance)}`, params: { format: value } }),
      { annotation: { value } },
    );
  },
};
