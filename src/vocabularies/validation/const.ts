/** `const` (Validation §6.1.3): the instance must equal the value (JSON equality). */

import { jsonEqual, preview } from "../../engine/json/json.js";
import type { Meter } from "../../engine/evaluate/run.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { meteredAssertion } from "../../engine/evaluate/keyword.js";
import { isScalar } from "../../engine/evaluate/verdict-forms.js";
import { got } from "../../engine/output/messages.js";

export const const_: KeywordDefinition = {
  keyword: "const",
  compile(value) {
    const structured = typeof value === "object" && value !== null;
    const holds = structured
      ? (instance: unknown, run: Meter) => jsonEqual(instance, value, run.maxInstanceDepth, run)
      : (instance: unknown) => instance === value;
    const describe = (instance: unknown): { params: { allowed: unknown }; message: string } => ({
      params: { allowed: value },
      message: `must be ${preview(value)}, ${got(instance)}`,
    });
    // A JSON scalar is told to the verdict fast path as data too (a list of one).
    const listed = isScalar(value) ? { values: [value] } : {};
    return meteredAssertion("const", holds, describe, { pure: !structured, ...listed });
  },
};
