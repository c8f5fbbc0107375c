/** The core vocabulary (Core §8): identifiers, references and definitions. */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { $dynamicRef } from "./dynamic-ref.js";
import { $ref } from "./ref.js";

/**
 * Keywords the compiler reads while indexing resources; they evaluate nothing themselves (Core §8.2, §8.1).
 * `definitions` is the older spelling of `$defs` (Validation 2020-12 Appendix A), held like it.
 */
const structural = [
  "$id",
  "$schema",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "definitions",
].map((keyword): KeywordDefinition => ({ keyword, compile: () => undefined }));

export const core: readonly KeywordDefinition[] = [$ref, $dynamicRef, ...structural];
