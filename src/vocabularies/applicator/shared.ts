/** Compile-time helpers shared by the applicator keywords. */

import type { CompileContext } from "../../engine/evaluate/keyword.js";
import type { Subschema } from "../../engine/evaluate/run.js";
import { isObject } from "../../engine/json/json.js";

/** Compiles a non-empty array of subschemas (allOf, anyOf, oneOf, prefixItems). */
export function schemaArray(keyword: string, value: unknown, ctx: CompileContext): Subschema[] {
  if (!Array.isArray(value) || (value.length === 0 && keyword !== "prefixItems")) {
    return ctx.fail(keyword, `"${keyword}" must be a non-empty array of schemas`);
  }
  return value.map((_, i) => ctx.subschema(keyword, i));
}

/** Compiles an object of subschemas (properties, patternProperties, dependentSchemas). */
export function schemaMap(keyword: string, value: unknown, ctx: CompileContext): [string, Subschema][] {
  if (!isObject(value)) return ctx.fail(keyword, `"${keyword}" must be an object of schemas`);
  return Object.keys(value).map((name) => [name, ctx.subschema(keyword, name)]);
}
