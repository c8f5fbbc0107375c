/** Real schema nodes for engine unit tests: one assertion of the test's own, on both paths. */

import type { Evaluator } from "../../../src/engine/evaluate/keyword.js";
import { SchemaNode } from "../../../src/engine/evaluate/node.js";

const NO_ANCHORS = { dynamicAnchors: new Map() };

/**
 * A compiled leaf whose one assertion is `holds`: on the output path a failure says `message` and a pass annotates
 * `"checked"` (so that passing children are kept in the output).
 */
export function leafNode(name: string, holds: (value: unknown) => boolean, message = "is not accepted"): SchemaNode {
  const node = new SchemaNode(`urn:t#/${name}`, NO_ANCHORS, undefined);
  const check: Evaluator = {
    keyword: "check",
    kind: "assertion",
    test: (value) => holds(value),
    evaluate(value, _run, _marks, out) {
      if (!holds(value)) {
        out.error = message;
        return false;
      }
      out.hasAnnotation = true;
      out.annotation = "checked";
      return true;
    },
  };
  node.setEvaluators([check], { typeMask: 0, predicates: [check], steps: [] }, false);
  return node;
}

/** A node whose one applicator step is `step` (not a leaf: members descend into it). */
export function stepNode(name: string, step: Evaluator): SchemaNode {
  const node = new SchemaNode(`urn:t#/${name}`, NO_ANCHORS, undefined);
  node.setEvaluators([step], { typeMask: 0, predicates: [], steps: [step] }, false);
  return node;
}

/** The boolean schemas `true` and `false`. */
export const trueNode = new SchemaNode("urn:t#/true", NO_ANCHORS, true);
export const falseNode = new SchemaNode("urn:t#/false", NO_ANCHORS, false);
