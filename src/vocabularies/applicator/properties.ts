/** `properties` (Core §10.3.2.1): each named, present property must be valid; annotates the names applied. */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import type { SchemaNode } from "../../engine/node.js";
import { escapeToken } from "../../engine/pointer.js";
import { schemaMap } from "./shared.js";

/** From this many declared (non-trivial) names on, the instance's own keys are walked instead. */
const MANY = 8;

export const properties: KeywordDefinition = {
  keyword: "properties",
  phase: 1,
  compile(value, ctx) {
    const entries = schemaMap("properties", value, ctx);
    const nameSet: ReadonlySet<string> = new Set(entries.map(([name]) => name));
    const nodes = entries.map(([, node]) => node);
    const checkedNames: string[] = [];
    const checkedNodes: SchemaNode[] = [];
    for (const [name, node] of entries) {
      if (node.isTrivial) continue;
      checkedNames.push(name);
      checkedNodes.push(node);
    }
    // A name that no object inherits is present exactly when reading it gives a value (JSON has no
    // undefined), so only names Object.prototype has (and "__proto__") need the own-property test.
    // If the host's prototype is polluted later, a polluted value is validated too: a false
    // rejection at worst, never a false acceptance.
    const inheritable = checkedNames.map((name) => name === "__proto__" || Object.hasOwn(Object.prototype, name));
    // With many declared names (meta-schemas, big tool schemas) and few given (typical arguments),
    // walking the instance's keys is cheaper than probing every name; it gives up past `checked.length` keys.
    const byName = checkedNames.length >= MANY ? new Map(checkedNames.map((name, i) => [name, i])) : undefined;
    return {
      keyword: "properties",
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        marks?.addNameSet(nameSet);
        if (out === null) {
          if (byName !== undefined) {
            let seen = 0;
            let complete = true;
            for (const key in instance) {
              run.spend(1);
              if (++seen > checkedNames.length) {
                complete = false;
                break;
              }
              const i = byName.get(key);
              if (i === undefined || !Object.hasOwn(instance, key)) continue;
              if (!checkChild(checkedNodes[i]!, instance[key], key, run, null)) return false;
            }
            if (complete) return true;
          }
          run.spend(checkedNames.length);
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
        run.spend(nameSet.size);
        let i = 0;
        for (const name of nameSet) {
          const node = nodes[i++] as SchemaNode;
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
