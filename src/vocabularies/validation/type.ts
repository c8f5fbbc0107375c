/**
 * `type` (Validation §6.1.1): the instance's JSON type must be one of those listed ("integer" matches integral
 * numbers).
 */

import { assertion, type KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { TYPE_BITS as BITS, typeBits } from "../../engine/json/types.js";
import { typeName } from "../../engine/output/messages.js";

export const type: KeywordDefinition = {
  keyword: "type",
  compile(value, ctx) {
    const names = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
    let mask = 0;
    for (const name of names) {
      if (typeof name !== "string" || !Object.hasOwn(BITS, name))
        return ctx.fail("type", `"type" has an unknown type name ${JSON.stringify(name)}`);
      mask |= BITS[name] as number;
    }
    if (names.length === 0) return ctx.fail("type", `"type" must be a type name or a non-empty array of them`);
    const expected = names.length === 1 ? String(names[0]) : `one of ${names.join(", ")}`;
    // A number with a fraction where only integers are allowed: say so, not "got number".
    const integersOnly = (mask & BITS["integer"]!) !== 0 && (mask & BITS["number"]!) === 0;
    return assertion(
      "type",
      (instance) => (typeBits(instance) & mask) !== 0,
      (instance) => ({
        params: { expected: names, actual: typeName(instance) },
        message:
          integersOnly && typeof instance === "number" && Number.isFinite(instance)
            ? `must be ${expected}, got ${instance} (a fraction, not an integer)`
            : `must be ${expected}, got ${typeName(instance)}`,
      }),
      { typeMask: mask, pure: true },
    );
  },
};
