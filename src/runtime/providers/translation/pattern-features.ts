/**
 * Which regular-expression features a `pattern` uses (Validation §6.3.3: ECMA-262 `u` mode), read from the
 * engine's parse tree rather than the source text, so that `\\b` (an escaped backslash, then `b`) or `[(?=]`
 * (a class) are never mistaken for a word boundary or a lookahead.
 */

import { parsePattern } from "../../../engine/regex/parser.js";
import type { Node } from "../../../engine/regex/ast.js";
import type { PatternRules } from "../profiles/profile.js";

/** The first feature of `pattern` that `refused` names, `"invalid"` when it does not parse, or undefined. */
export function refusedFeature(pattern: string, refused: PatternRules): string | undefined {
  let root: Node;
  try {
    root = parsePattern(pattern).root;
  } catch {
    return "invalid";
  }
  const stack: { node: Node; inRepeat: boolean }[] = [{ node: root, inRepeat: false }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, inRepeat } = next;
    switch (node.type) {
      case "look":
        if (refused.lookaround) return node.behind ? "lookbehind" : "lookahead";
        stack.push({ node: node.body, inRepeat });
        break;
      case "backref":
        if (refused.backreferences) return "backreference";
        break;
      case "assert":
        if ((node.kind === "b" || node.kind === "B") && refused.wordBoundaries) return `\\${node.kind}`;
        break;
      case "repeat": {
        const counted = !(node.max === Infinity && node.min <= 1) && !(node.min === 0 && node.max === 1);
        if (counted && inRepeat && refused.nestedCounts) return "nested counted repetition";
        stack.push({ node: node.body, inRepeat: true });
        break;
      }
      case "group":
        stack.push({ node: node.body, inRepeat });
        break;
      case "seq":
        for (const item of node.items) stack.push({ node: item, inRepeat });
        break;
      case "alt":
        for (const alt of node.alts) stack.push({ node: alt, inRepeat });
        break;
      default:
        break;
    }
  }
  return undefined;
}
