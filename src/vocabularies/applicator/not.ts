/** `not` (Core §10.2.1.4): valid when the subschema is not; its annotations and marks are dropped. */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";

export const not_: KeywordDefinition = {
  keyword: "not",
  phase: 1,
  compile(_value, ctx) {
    const node = ctx.subschema("not");
    return {
      keyword: "not",
      check(instance, run, _marks, out) {
        if (!checkInPlace(node, instance, run, undefined, out)) {
          if (out !== null) out.children.length = 0;
          return true;
        }
        if (out !== null) {
          out.children.length = 0;
          out.error = "must not match the schema in not";
        }
        return false;
      },
    };
  },
};
