/**
 * `format` (Validation §7): an annotation by default (format-annotation vocabulary); an assertion on strings when
 * the host asks for it or a meta-schema requires format-assertion, annotating as well. Unknown formats only annotate.
 */

import { annotation, assertion, type KeywordDefinition } from "../../engine/keyword.js";
import { got } from "../../engine/messages.js";
import { formatCheckers } from "./index.js";

export const format: KeywordDefinition = {
  keyword: "format",
  compile(value, ctx) {
    const checker = typeof value === "string" ? formatCheckers.get(value) : undefined;
    if (!ctx.formatAssertion || checker === undefined) return annotation("format", value);
    return assertion(
      "format",
      (instance, run) => {
        if (typeof instance !== "string") return true;
        run.string(instance);
        return checker(instance);
      },
      (instance) => ({ message: `must be a valid ${String(value)}, ${got(instance)}`, params: { format: value } }),
      { annotation: { value } },
    );
  },
};
