/** `properties` (Core §10.3.2.1): each named, present property must be valid; annotates the names applied. */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { escapeToken } from "../../engine/pointer.js";
import { schemaMap } from "./shared.js";

export const properties: KeywordDefinition = {
  keyword: "properties",
  phase: 1,
  compile(value, ctx) {
    const entries = schemaMap("properties", value, ctx);
    const nameSet: ReadonlySet<string> = new Set(entries.map(([name]) => name));
    const checked = entries.filter(([, node]) => !node.isTrivial);
    const checkedNames = checked.map(([name]) => name);
    const checkedNodes = checked.map(([, node]) => node);
    // A name that no object inherits is present exactly when reading it gives a value (JSON has no
    // undefined), so only names Object.prototype has (and "__proto__") need the own-property test.
    // If the host's prototype is polluted later, a polluted value is validated too: a false
    // rejection at worst, never a false acceptance.
    const inheritable = checkedNames.map((name) => name === "__proto__" || Object.hasOwn(Object.prototype, name));
    return {
      keyword: "properties",
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        marks?.addNameSet(nameSet);
        if (out === null) {
          for (let i = 0; i < checkedNames.length; i++) {
            const name = checkedNames[i] as string;
            const value = instance[name];
            if (value === undefined || (inheritable[i] === true && !Object.hasOwn(instance, name))) continue;
            if (!checkChild(checkedNodes[i]!, value, name, run, null)) return false;
          }
          return true;
        }
        let valid = true;
        const applied: string[] = [];
        for (const [name, node] of entries) {
          if (!Object.hasOwn(instance, name)) continue;
          applied.push(name);
          if (!checkChild(node, instance[name], name, run, out, "/" + escapeToken(name))) valid = false;
        }
        if (valid && applied.length > 0) {
          out.hasAnnotation = true;
          out.annotation = applied;
        }
        return valid;
      },
    };
  },
};
