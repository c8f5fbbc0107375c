/** The core vocabulary (Core §8): identifiers, references and definitions. */

import type { KeywordDefinition } from "../../engine/keyword.js";
import { $dynamicRef } from "./dynamic-ref.js";
import { $ref } from "./ref.js";

/** Keywords the compiler reads while indexing resources; they evaluate nothing themselves (Core §8.2, §8.1). */
const structural = ["$id", "$schema", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment", "$defs"].map(
  (keyword): KeywordDefinition => ({ keyword, compile: () => undefined }),
);

export const core: readonly KeywordDefinition[] = [$ref, $dynamicRef, ...structural];
