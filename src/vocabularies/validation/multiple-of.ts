/**
 * `multipleOf` (Validation §6.2.1): instance / value must be an integer, decided in decimal where binary
 * floating point would lie (0.07 is a multiple of 0.01; 1e308 against 0.123456789 does not overflow).
 */

import { Decimal } from "decimal.js";
import type { KeywordDefinition } from "../../engine/keyword.js";
import { assertion } from "../../engine/keyword.js";

/** Enough digits to hold the exact quotient of any two doubles (exponents −324…308, 17 significant digits). */
const Exact = Decimal.clone({ precision: 1_000 });

function isMultipleOf(instance: number, divisor: number): boolean {
  if (Number.isInteger(instance) && Number.isInteger(divisor)) return instance % divisor === 0;
  return new Exact(instance).mod(new Exact(divisor)).isZero();
}

export const multipleOf: KeywordDefinition = {
  keyword: "multipleOf",
  compile(value, ctx) {
    if (typeof value !== "number" || !(value > 0))
      return ctx.fail("multipleOf", `"multipleOf" must be a number greater than 0`);
    return assertion(
      "multipleOf",
      (instance) => typeof instance !== "number" || isMultipleOf(instance, value),
      (instance) => ({
        params: { multipleOf: value },
        message: `must be a multiple of ${value}, got ${String(instance)}`,
      }),
    );
  },
};
