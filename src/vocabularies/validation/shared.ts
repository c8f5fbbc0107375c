/** Compile-time helpers shared by the validation keywords. */

import type { CompileContext } from "../../engine/evaluate/keyword.js";

/** A non-negative integer keyword value (1.0 counts as an integer, Validation §6). */
export function nonNegativeInteger(keyword: string, value: unknown, ctx: CompileContext): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    return ctx.fail(keyword, `"${keyword}" must be a non-negative integer`);
  }
  return value;
}

/** An array of strings (`required`, `dependentRequired` values; uniqueness is the meta-schema's check). */
export function stringArray(keyword: string, value: unknown, ctx: CompileContext): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    return ctx.fail(keyword, `"${keyword}" must be an array of strings`);
  return value as string[];
}
