/**
 * `anyOf` (Core §10.2.1.2): valid when at least one subschema is. Stops at the first match only when
 * nobody listens for evaluated marks or output; marks of failing branches are discarded.
 */

import { tryInPlace } from "../../engine/evaluate/applicator.js";
import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { got, valueList } from "../../engine/output/messages.js";
import { preview } from "../../engine/json/json.js";
import type { KeywordResult, NodeResult } from "../../engine/output/output.js";
import { schemaArray } from "./shared.js";
import { choiceItems, choiceProperties } from "../../engine/evaluate/evaluated.js";

export const anyOf: KeywordDefinition = {
  keyword: "anyOf",
  phase: 1,
  compile(value, ctx) {
    const nodes = schemaArray("anyOf", value, ctx);
    return {
      keyword: "anyOf",
      kind: "applicator",
      evaluatedProperties: () => choiceProperties(nodes.map((node) => node.evaluatedProperties())),
      evaluatedItems: () => choiceItems(nodes.map((node) => node.evaluatedItems())),
      verdict: () => ({ kind: "choice", nodes, least: 1, most: Infinity }),
      test(instance, run, marks) {
        if (marks === undefined) {
          for (let i = 0; i < nodes.length; i++) if (run.inPlace(nodes[i]!, instance, undefined)) return true;
          return false;
        }
        // Every branch is evaluated: each valid one's marks count.
        let valid = false;
        for (let i = 0; i < nodes.length; i++) if (run.tryInPlace(nodes[i]!, instance, marks)) valid = true;
        return valid;
      },
      evaluate(instance, run, marks, out) {
        let valid = false;
        for (let i = 0; i < nodes.length; i++)
          if (tryInPlace(nodes[i]!, instance, run, marks, out, "/" + i)) valid = true;
        if (valid) return true;
        const allowed = alternatives(out);
        out.params = allowed === undefined ? { branches: nodes.length } : { branches: nodes.length, ...allowed };
        out.error =
          allowed === undefined
            ? `must match at least one schema in anyOf, matched none of ${nodes.length}`
            : `must be ${describe(allowed)}, ${got(instance)}`;
        return false;
      },
    };
  },
};

interface Alternatives {
  values: unknown[];
  types: string[];
}

/**
 * When every branch failed on exactly one `enum`, `const` or `type` at this instance location (at least one
 * of them a value list, as `type` in the meta-schema: a simple type name or an array of them), the values
 * and types that would have matched; otherwise undefined and the generic message stands.
 */
function alternatives(out: KeywordResult): Alternatives | undefined {
  const found: Alternatives = { values: [], types: [] };
  for (const branch of out.children) {
    const leaves: KeywordResult[] = [];
    if (!failures(branch, out.instanceLocation, leaves) || leaves.length !== 1) return undefined;
    const leaf = leaves[0] as KeywordResult;
    const params = leaf.params ?? {};
    if (leaf.keyword === "enum" && Array.isArray(params.allowed)) found.values.push(...(params.allowed as unknown[]));
    else if (leaf.keyword === "const") found.values.push(params.allowed);
    else if (leaf.keyword === "type" && params.expected !== undefined) found.types.push(...params.expected);
    else return undefined;
  }
  return found.values.length > 0 ? found : undefined;
}

/** Collects the failing keywords without failing children under `node`, if all are at instance location `at`. */
function failures(node: NodeResult, at: string, into: KeywordResult[]): boolean {
  for (const k of node.keywords) {
    if (k.valid) continue;
    const failing = k.children.filter((c) => !c.valid);
    if (failing.length === 0) {
      if (k.instanceLocation !== at) return false;
      into.push(k);
    }
    for (const c of failing) if (c.instanceLocation !== at || !failures(c, at, into)) return false;
  }
  return true;
}

function describe({ values, types }: Alternatives): string {
  const parts = [values.length === 1 ? preview(values[0], 30) : `one of ${valueList(values)}`];
  if (types.length > 0) parts.push(`of type ${[...new Set(types)].join(" or ")}`);
  return parts.join(" or ");
}
