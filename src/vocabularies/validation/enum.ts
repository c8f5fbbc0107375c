/** `enum` (Validation §6.1.2): the instance must equal one of the values (JSON equality, 1 equals 1.0). */

import { jsonEqual, preview } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { assertion } from "../../engine/keyword.js";
import { got } from "../../engine/messages.js";

export const enum_: KeywordDefinition = {
  keyword: "enum",
  compile(value, ctx) {
    if (!Array.isArray(value)) return ctx.fail("enum", `"enum" must be an array`);
    const primitives = new Set<unknown>();
    const structured: unknown[] = [];
    for (const v of value) {
      if (typeof v === "object" && v !== null) structured.push(v);
      else primitives.add(v);
    }
    const allowed = value.length <= 5 ? value.map((v) => preview(v, 30)).join(", ") : `${value.length} allowed values`;
    return assertion("enum", ctx, (instance) => {
      if (typeof instance !== "object" || instance === null) return primitives.has(instance);
      for (let i = 0; i < structured.length; i++) if (jsonEqual(instance, structured[i])) return true;
      return false;
    }, (instance) => ({ params: { allowed: value }, message: `must be one of ${allowed}, ${got(instance)}` }));
  },
};
