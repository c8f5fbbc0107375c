/**
 * The rules the walk applies to every schema object, in order: references and the dialect first (they decide what
 * the object is), then the root, the keyword allow-list, types and null, `anyOf`, objects and arrays, and values.
 */

import type { Rule } from "./rule.js";
import { keywordUnsupported } from "./keywords.js";
import { dialect, references } from "./references.js";
import { anyOfAlone, arrayItems, closedObjects, requiredAll } from "./objects.js";
import { rootCombinator, rootType } from "./root.js";
import { typeArray, typeNull } from "./types.js";
import { enumValues, format, minItems, patternSyntax, propertyKey } from "./values.js";

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
