/** The validation vocabulary (Validation §6). */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { exclusiveMaximum, exclusiveMinimum, maximum, minimum } from "./bounds.js";
import { const_ } from "./const.js";
import { dependentRequired } from "./dependent-required.js";
import { enum_ } from "./enum.js";
import { maxItems, minItems } from "./item-count.js";
import { maxLength, minLength } from "./length.js";
import { multipleOf } from "./multiple-of.js";
import { pattern } from "./pattern.js";
import { maxProperties, minProperties } from "./property-count.js";
import { required } from "./required.js";
import { type } from "./type.js";
import { uniqueItems } from "./unique-items.js";

/** `maxContains` / `minContains` are read by `contains` (Validation §6.4.4–5); alone they do nothing. */
const containsBounds = ["maxContains", "minContains"].map((keyword): KeywordDefinition => ({
  keyword,
  compile: () => undefined,
}));

export const validation: readonly KeywordDefinition[] = [
  type,
  enum_,
  const_,
  multipleOf,
  maximum,
  exclusiveMaximum,
  minimum,
  exclusiveMinimum,
  maxLength,
  minLength,
  pattern,
  maxItems,
  minItems,
  uniqueItems,
  ...containsBounds,
  maxProperties,
  minProperties,
  required,
  dependentRequired,
];
