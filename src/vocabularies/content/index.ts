/** The content vocabulary (Validation §8). */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { contentEncoding, contentMediaType, contentSchema } from "./content.js";

export const content: readonly KeywordDefinition[] = [contentEncoding, contentMediaType, contentSchema];
