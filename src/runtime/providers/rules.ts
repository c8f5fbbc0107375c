/**
 * The rules the walk applies to every schema object, in order: references and the dialect first (they decide what
 * the object is), then the root, the keyword allow-list, types and null, `anyOf`, objects and arrays, and values.
 */

import type { Rule } from "./rule-types.js";
import { keywordUnsupported } from "./rules-keywords.js";
import { dialect, references } from "./rules-references.js";
import { anyOfAlone, arrayItems, closedObjects, requiredAll } from "./rules-objects.js";
import { rootCombinator, rootType } from "./rules-root.js";
import { typeArray, typeNull } from "./rules-types.js";
import { enumValues, format, minItems, patternSyntax, propertyKey } from "./rules-values.js";

export const RULES: readonly Rule[] = [
  dialect,
  references,
  rootType,
  rootCombinator,
  keywordUnsupported,
  typeArray,
  typeNull,
  anyOfAlone,
  closedObjects,
  requiredAll,
  arrayItems,
  format,
  enumValues,
  minItems,
  patternSyntax,
  propertyKey,
];
