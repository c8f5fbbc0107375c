/** `dependentRequired` (Validation §6.5.4): when a property is present, the listed properties must be too. */

import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { quoteList } from "../../engine/messages.js";
import { stringArray } from "./shared.js";

export const dependentRequired: KeywordDefinition = {
  keyword: "dependentRequired",
  compile(value, ctx) {
    if (!isObject(value))
      return ctx.fail("dependentRequired", `"dependentRequired" must be an object of string arrays`);
    // A plain loop: a closure over `ctx` here would keep the whole compilation alive with the evaluator.
    const entries: (readonly [string, string[]])[] = [];
    for (const name of Object.keys(value)) entries.push([name, stringArray("dependentRequired", value[name], ctx)]);
    return {
      keyword: "dependentRequired",
      check(instance, run, _marks, out) {
        if (!isObject(instance)) return true;
        for (const [name, needs] of entries) {
          run.spend(1);
          if (!Object.hasOwn(instance, name)) continue;
          run.spend(needs.length);
          const missing = needs.filter((n) => !Object.hasOwn(instance, n));
          if (missing.length === 0) continue;
          if (out !== null) {
            out.params = { property: name, missing };
            out.error = `must have ${quoteList(missing)} when ${JSON.stringify(name)} is present`;
          }
          return false;
        }
        return true;
      },
    };
  },
};
