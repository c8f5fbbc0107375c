/** The unevaluated vocabulary (Core §11). */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { unevaluatedItems } from "./unevaluated-items.js";
import { unevaluatedProperties } from "./unevaluated-properties.js";

export const unevaluated: readonly KeywordDefinition[] = [unevaluatedItems, unevaluatedProperties];
