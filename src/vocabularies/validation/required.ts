/** `required` (Validation §6.5.3): every listed property must be present (own properties only). */

import { hasOwn, isObject } from "../../engine/json/json.js";
import { meteredAssertion, type KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { quoteList } from "../../engine/output/messages.js";
import { stringArray } from "./shared.js";

export const required: KeywordDefinition = {
  keyword: "required",
  compile(value, ctx) {
    const names = stringArray("required", value, ctx);
    if (names.length === 0) return undefined;
    return meteredAssertion(
      "required",
      (instance, run) => {
        if (!isObject(instance)) return true;
        run.spend(names.length);
        for (let i = 0; i < names.length; i++) if (!hasOwn(instance, names[i]!)) return false;
        return true;
      },
      (instance) => {
        const missing = names.filter((n) => !hasOwn(instance as object, n));
        return {
          message:
            missing.length === 1
              ? `must have required property ${JSON.stringify(missing[0])}`
              : `must have required properties ${quoteList(missing)}`,
          params: { missing },
        };
      },
    );
  },
};
