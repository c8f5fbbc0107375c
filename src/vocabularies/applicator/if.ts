/**
 * `if`/`then`/`else` (Core §10.2.2): `if` only selects; `then` applies when it matched, `else` when not.
 * The three are evaluated by one evaluator; `then`/`else` keep their own keyword locations in output.
 */

import { checkInPlace } from "../../engine/descend.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import type { SchemaNode } from "../../engine/node.js";
import type { NodeResult } from "../../engine/output.js";

export const if_: KeywordDefinition = {
  keyword: "if",
  phase: 1,
  compile(_value, ctx) {
    const condition = ctx.subschema("if");
    const then = ctx.active("then") ? ctx.subschema("then") : undefined;
    const else_ = ctx.active("else") ? ctx.subschema("else") : undefined;
    return {
      keyword: "if",
      check(instance, run, marks, out) {
        const saved = marks?.save();
        const matched = checkInPlace(condition, instance, run, marks, out);
        if (!matched) {
          if (saved !== undefined) marks!.restore(saved);
          if (out !== null) out.children.length = 0;
        }
        const branch: SchemaNode | undefined = matched ? then : else_;
        if (branch === undefined) return true;
        if (out === null) return branch.check(instance, run, marks, null);
        const name = matched ? "then" : "else";
        const result: NodeResult = {
          keywordLocation: out.keywordLocation.slice(0, -"/if".length) + "/" + name,
          absoluteKeywordLocation: "",
          instanceLocation: out.instanceLocation,
          valid: true,
          keywords: [],
        };
        out.children.push(result);
        return branch.check(instance, run, marks, result);
      },
    };
  },
};

/** `then` and `else` are applied by `if`; alone they do nothing (Core §10.2.2.2–3). */
export const then: KeywordDefinition = { keyword: "then", compile: () => undefined };
export const else_: KeywordDefinition = { keyword: "else", compile: () => undefined };
