/**
 * `format` (Validation §7): an annotation by default (format-annotation vocabulary); an assertion on
 * strings when the host asks for it or a meta-schema requires format-assertion. Unknown formats only annotate.
 */

import { codePointLength } from "../../engine/json.js";
import { annotation, type KeywordDefinition } from "../../engine/keyword.js";
import { got } from "../../engine/messages.js";
import { formatCheckers } from "./index.js";

export const format: KeywordDefinition = {
  keyword: "format",
  compile(value, ctx) {
    const checker = typeof value === "string" ? formatCheckers.get(value) : undefined;
    if (!ctx.formatAssertion || checker === undefined) return annotation("format", value);
    return {
      keyword: "format",
      check(instance, run, _marks, out) {
        if (typeof instance === "string") {
          if (instance.length > run.limits.maxStringLength && codePointLength(instance) > run.limits.maxStringLength) {
            run.limit("maxStringLength", out?.instanceLocation);
          }
          if (!checker(instance)) {
            if (out !== null) {
              out.params = { format: value };
              out.error = `must be a valid ${String(value)}, ${got(instance)}`;
            }
            return false;
          }
        }
        if (out !== null) {
          out.hasAnnotation = true;
          out.annotation = value;
        }
        return true;
      },
    };
  },
};
