/** The meta-data vocabulary (Validation §9): annotations only, nothing to evaluate on the boolean path. */

import { annotation, type KeywordDefinition } from "../../engine/evaluate/keyword.js";

export const metaData: readonly KeywordDefinition[] = [
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
].map((keyword): KeywordDefinition => ({ keyword, compile: (value) => annotation(keyword, value) }));
