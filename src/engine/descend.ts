/** Applying a compiled subschema to a child of the instance, or in place, with the limits that guard depth. */

import type { Marks, Run } from "./context.js";
import type { SchemaNode } from "./node.js";
import { childResult, type KeywordResult } from "./output.js";
import { escapeToken } from "./pointer.js";

/** Applies `node` to `value`, the child `key` of the current instance. */
export function checkChild(
  node: SchemaNode,
  value: unknown,
  key: string | number,
  run: Run,
  out: KeywordResult | null,
  keywordSuffix = "",
): boolean {
  if (++run.instanceDepth > run.limits.maxInstanceDepth) run.limit("maxInstanceDepth", out?.instanceLocation);
  if (++run.instanceNodes > run.limits.maxInstanceNodes) run.limit("maxInstanceNodes", out?.instanceLocation);
  if (out === null) {
    const valid = node.check(value, run, undefined, null);
    run.instanceDepth--;
    return valid;
  }
  const child = childResult(out, keywordSuffix, "/" + (typeof key === "number" ? String(key) : escapeToken(key)));
  const valid = node.check(value, run, undefined, child);
  // A passing child that says nothing is dropped now rather than after the keyword (as the node would),
  // so a loop over a large instance does not hold a result per item.
  if (valid && child.keywords.length === 0 && !run.keepAll) out.children.pop();
  run.instanceDepth--;
  return valid;
}

/** Applies `node` to the current instance location (allOf, $ref, if, ...). */
export function checkInPlace(
  node: SchemaNode,
  instance: unknown,
  run: Run,
  marks: Marks | undefined,
  out: KeywordResult | null,
  keywordSuffix = "",
): boolean {
  return node.check(instance, run, marks, out === null ? null : childResult(out, keywordSuffix, ""));
}
