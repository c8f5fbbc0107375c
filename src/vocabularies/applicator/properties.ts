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
    return {
      keyword: "properties",
      check(instance, run, marks, out) {
        if (!isObject(instance)) return true;
        marks?.addNameSet(nameSet);
        if (out === null) {
          for (let i = 0; i < checkedNames.length; i++) {
            const name = checkedNames[i] as string;
            if (Object.hasOwn(instance, name) && !checkChild(checkedNodes[i]!, instance[name], name, run, null)) return false;
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
