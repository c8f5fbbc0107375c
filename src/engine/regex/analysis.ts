/** Static facts about a parsed pattern: nullability, start anchoring, plain-literal shapes. */
import type { Node } from "./ast.js";

/** True when `node` can match the empty string (conservative: lookarounds and backreferences count as nullable). */
export function nullable(node: Node): boolean {
  switch (node.type) {
    case "char":
    case "set":
      return false;
    case "seq":
      return node.items.every(nullable);
    case "alt":
      return node.alts.some(nullable);
    case "group":
      return nullable(node.body);
    case "repeat":
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

/** True when every match must start at index 0 (each path begins with `^`; no multiline flag). */
export function startAnchored(node: Node): boolean {
  switch (node.type) {
    case "assert":
      return node.kind === "^";
    case "seq":
      return node.items.length > 0 && startAnchored(node.items[0]!);
    case "alt":
      return node.alts.every(startAnchored);
    case "group":
      return startAnchored(node.body);
    case "repeat":
      return node.min > 0 && startAnchored(node.body);
    default:
      return false;
  }
}

export interface LiteralShape {
  readonly text: string;
  readonly atStart: boolean;
  readonly atEnd: boolean;
}

/**
 * `^?literal$?` where the literal has no lone surrogates (a lone surrogate in the pattern must not
 * match half of a surrogate pair in the input, which a code-unit search like `includes` would do).
 */
export function literalShape(root: Node): LiteralShape | null {
  const items = root.type === "seq" ? [...root.items] : root.type === "empty" ? [] : [root];
  let atStart = false;
  let atEnd = false;
  if (items.length > 0 && items[0]!.type === "assert" && items[0]!.kind === "^") {
    atStart = true;
    items.shift();
  }
  const last = items[items.length - 1];
  if (last !== undefined && last.type === "assert" && last.kind === "$") {
    atEnd = true;
    items.pop();
  }
  let text = "";
  for (const item of items) {
    if (item.type !== "char" || (item.cp >= 0xd800 && item.cp <= 0xdfff)) return null;
    text += String.fromCodePoint(item.cp);
  }
  return { text, atStart, atEnd };
}

/** True when `node` contains a capturing group, a backreference or a lookaround. */
export function needsBacktracking(node: Node): boolean {
  switch (node.type) {
    case "group":
    case "backref":
    case "look":
      return true;
    case "seq":
      return node.items.some(needsBacktracking);
    case "alt":
      return node.alts.some(needsBacktracking);
    case "repeat":
      return needsBacktracking(node.body);
    default:
      return false;
  }
}
