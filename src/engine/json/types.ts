/** JSON types as bits, for `type` masks tested inline on the boolean path. */

/** JSON type bits (`type` masks): an integral number carries both "number" and "integer". */
export const TYPE_BITS: Readonly<Record<string, number>> = Object.freeze({
  null: 1,
  boolean: 2,
  object: 4,
  array: 8,
  number: 16,
  string: 32,
  integer: 64,
});

/**
 * The JSON type bits of a value (see `TYPE_BITS`). Written as `typeof` tests rather than a `switch` over `typeof`,
 * which V8 compiles into type checks without comparing strings (several times faster on the hot paths).
 */
export function typeBits(value: unknown): number {
  if (typeof value === "string") return 32;
  if (typeof value === "number") return Number.isInteger(value) ? 80 : 16;
  if (typeof value === "boolean") return 2;
  if (typeof value === "object") return value === null ? 1 : Array.isArray(value) ? 8 : 4;
  return 0;
}
