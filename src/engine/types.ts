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

/** The JSON type bits of a value (see `TYPE_BITS`). */
export function typeBits(value: unknown): number {
  switch (typeof value) {
    case "string":
      return 32;
    case "number":
      return Number.isInteger(value) ? 80 : 16;
    case "boolean":
      return 2;
    case "object":
      return value === null ? 1 : Array.isArray(value) ? 8 : 4;
    default:
      return 0;
  }
}
