/** The applicator vocabulary (Core §10). */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { additionalProperties } from "./additional-properties.js";
import { allOf } from "./all-of.js";
import { anyOf } from "./any-of.js";
import { contains } from "./contains.js";
import { dependentSchemas } from "./dependent-schemas.js";
import { else_, if_, then } from "./if.js";
import { items } from "./items.js";
import { not_ } from "./not.js";
import { oneOf } from "./one-of.js";
import { patternProperties } from "./pattern-properties.js";
import { prefixItems } from "./prefix-items.js";
import { properties } from "./properties.js";
import { propertyNames } from "./property-names.js";

export const applicator: readonly KeywordDefinition[] = [
  allOf,
  anyOf,
  oneOf,
  not_,
  if_,
  then,
  else_,
  dependentSchemas,
  prefixItems,
  items,
  contains,
  properties,
  patternProperties,
  additionalProperties,
  propertyNames,
];
