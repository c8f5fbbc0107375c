/** `dependentRequired` (Validation §6.5.4): when a property is present, the listed properties must be too. */

import { hasOwn, isObject } from "../../engine/json/json.js";
import { meteredAssertion, type KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { quoteList } from "../../engine/output/messages.js";
import { stringArray } from "./shared.js";

export const dependentRequired: KeywordDefinition = {
  keyword: "dependentRequired",
  compile(value, ctx) {
    if (!isObject(value))
      return ctx.fail("dependentRequired", `"dependentRequired" must be an object of string arrays`);
    // A plain loop: a closure over `ctx` here would keep the whole compilation alive with the evaluator.
    const entries: (readonly [string, string[]])[] = [];
    for (const name of Object.keys(value)) entries.push([name, stringArray("dependentRequired", value[name], ctx)]);
    const missingOf = (instance: Record<string, unknown>, needs: readonly string[]): string[] =>
      needs.filter((n) => !hasOwn(instance, n));
    return meteredAssertion(
      "dependentRequired",
      (instance, run) => {
        if (!isObject(instance)) return true;
        run.spend(entries.length);
        for (const [name, needs] of entries) {
          if (!hasOwn(instance, name)) continue;
          run.spend(needs.length);
          for (const n of needs) if (!hasOwn(instance, n)) return false;
        }
        return true;
      },
      (instance) => {
        const object = instance as Record<string, unknown>;
        const [name, needs] = entries.find(([n, ns]) => hasOwn(object, n) && missingOf(object, ns).length > 0)!;
        const missing = missingOf(object, needs);
        return {
          message: `must have ${quoteList(missing)} when ${JSON.stringify(name)} is present`,
          params: { property: name, missing },
        };
      },
    );
  },
};
