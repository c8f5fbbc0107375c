/**
 * `multipleOf` (Validation §6.2.1): instance / value must be an integer, decided in decimal where binary
 * floating point would lie (0.07 is a multiple of 0.01; 1e308 against 0.123456789 does not overflow).
 */

import type { KeywordDefinition } from "../../engine/evaluate/keyword.js";
import { assertion } from "../../engine/evaluate/keyword.js";

/**
 * Whether `instance` is a multiple of `divisor`. An integral number is the integer the double holds (2^64 is
 * 18446744073709551616, not its shortest decimal 18446744073709552000), as in the JSON text it came from; a number
 * with a fraction is the shortest decimal that round-trips to it (0.07, not 0.07000000000000000666…). Exact fast
 * paths first; arbitrary-precision integers decide only what they cannot.
 */
function isMultipleOf(instance: number, divisor: number, divisorDigits: number): boolean {
  // An integral divisor: a number with a fraction is no integer's multiple, and `%` on integral doubles is exact
  // (IEEE 754 remainder), whatever their size.
  if (Number.isInteger(divisor)) return Number.isInteger(instance) && instance % divisor === 0;
  // The double quotient is within a relative 2^-51 of the decimal one: far from an integer, so is the decimal.
  const q = instance / divisor;
  if (Math.abs(q) < 2 ** 50 && Math.abs(q - Math.round(q)) > Math.abs(q) * 1e-12 + 1e-12) return false;
  return scaledMultiple(instance, divisor, divisorDigits) ?? decimalMultiple(instance, divisor);
}

/** Below this, a double times a power of ten rounds to the exact integer its decimal reading gives. */
const EXACT_SCALED = 2 ** 51;

/**
 * Both numbers scaled by 10^k (k: the larger count of decimal fraction digits) are integers; when both stay below
 * 2^51 the scaled doubles round to them exactly and `%` decides. Undefined when they would not.
 */
function scaledMultiple(instance: number, divisor: number, divisorDigits: number): boolean | undefined {
  const k = Math.max(fractionDigits(instance), divisorDigits);
  if (k > 22) return undefined;
  const scale = 10 ** k;
  const x = Math.round(instance * scale);
  const d = Math.round(divisor * scale);
  if (Math.abs(x) >= EXACT_SCALED || d >= EXACT_SCALED) return undefined;
  return x % d === 0;
}

/** The exact test on the decimals' integer digits and exponents, in arbitrary precision. */
function decimalMultiple(instance: number, divisor: number): boolean {
  const x = decimalOf(instance);
  const d = decimalOf(divisor);
  const e = Math.min(x.exponent, d.exponent);
  const scaledX = x.digits * 10n ** BigInt(x.exponent - e);
  const scaledD = d.digits * 10n ** BigInt(d.exponent - e);
  return scaledX % scaledD === 0n;
}

/**
 * A finite number as integer digits times a power of ten: an integral one exactly (its double's value), any other
 * by its shortest decimal ("-1.25e-7" → -125 × 10^-9).
 */
function decimalOf(n: number): { digits: bigint; exponent: number } {
  if (Number.isInteger(n)) return { digits: BigInt(n), exponent: 0 };
  const text = String(n);
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const point = mantissa.indexOf(".");
  const fraction = point < 0 ? 0 : mantissa.length - point - 1;
  const digits = BigInt(point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1));
  return { digits, exponent: (e < 0 ? 0 : Number(text.slice(e + 1))) - fraction };
}

/** Digits after the decimal point of a finite number's shortest decimal ("1.25" → 2, "1e-7" → 7, "1e21" → 0). */
function fractionDigits(n: number): number {
  if (Number.isInteger(n)) return 0;
  const text = String(n);
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const point = mantissa.indexOf(".");
  const digits = point < 0 ? 0 : mantissa.length - point - 1;
  return Math.max(0, digits - (e < 0 ? 0 : Number(text.slice(e + 1))));
}

export const multipleOf: KeywordDefinition = {
  keyword: "multipleOf",
  compile(value, ctx) {
    if (typeof value !== "number" || !(value > 0))
      return ctx.fail("multipleOf", `"multipleOf" must be a number greater than 0`);
    const digits = fractionDigits(value);
    return assertion(
      "multipleOf",
      (instance) => typeof instance !== "number" || isMultipleOf(instance, value, digits),
      (instance) => ({
        params: { multipleOf: value },
        message: `must be a multiple of ${value}, got ${String(instance)}`,
      }),
      { pure: true },
    );
  },
};
