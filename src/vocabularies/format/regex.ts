/**
 * ECMA-262 §22.2.1 Pattern with the "u" flag (Validation §7.2.3), decided by the same parser that
 * compiles `pattern` and `patternProperties`, so a string valid as `format: regex` is a pattern this
 * library accepts, whatever the JavaScript runtime's own syntax extensions. Parsing is linear.
 */

import { RegexSyntaxError } from "../../engine/regex/index.js";
import { parsePattern } from "../../engine/regex/parser.js";

export function regex(value: string): boolean {
  try {
    parsePattern(value);
    return true;
  } catch (e) {
    if (e instanceof RegexSyntaxError) return false;
    // Anything else (a LimitError for nesting beyond the parser's bound) is not a verdict.
    throw e;
  }
}
