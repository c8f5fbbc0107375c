/**
 * `multipleOf`'s fast paths (integer divisors, powers of ten, the double quotient's distance from an integer)
 * against the plain decimal definition they stand in for: every verdict equals decimal.js's.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Decimal } from "decimal.js";
import { compile } from "../../src/index.js";

const Exact = Decimal.clone({ precision: 1_000 });
/** The number multipleOf reads: an integral double as the integer it holds, any other as its shortest decimal. */
const exact = (n: number): Decimal => new Exact(Number.isInteger(n) ? BigInt(n).toString() : n);
const decimalVerdict = (x: number, d: number): boolean => exact(x).mod(exact(d)).isZero();

const DIVISORS = [0.01, 0.1, 0.5, 0.25, 1e-7, 0.001, 0.123456789, 0.3, 1.5, 2, 7, 1e-300, 3e-5, 0.07, 1e21 / 3];
/** Numbers near multiples (a few decimal digits), exact decimals, and arbitrary doubles. */
const number = fc.oneof(
  fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 9 })).map(([m, k]) => m / 10 ** k),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e308, 5e-324, 2 ** 53 + 2, 0.30000000000000004, 1.2e-7, 9e-5, 4.35, 100.01),
);

test("every verdict equals the decimal definition", () => {
  fc.assert(
    fc.property(fc.constantFrom(...DIVISORS), number, (d, x) => {
      assert.equal(compile({ multipleOf: d }).isValid(x), decimalVerdict(x, d), `${x} multipleOf ${d}`);
    }),
    { seed: 1202, numRuns: 5_000 },
  );
});

test("the classic cases", () => {
  assert.equal(compile({ multipleOf: 0.01 }).isValid(0.07), true);
  assert.equal(compile({ multipleOf: 0.01 }).isValid(0.075), false);
  assert.equal(compile({ multipleOf: 0.1 }).isValid(0.30000000000000004), false);
  assert.equal(compile({ multipleOf: 0.123456789 }).isValid(1e308), false);
  assert.equal(compile({ multipleOf: 2 }).isValid(2.5), false);
  assert.equal(compile({ multipleOf: 1e-7 }).isValid(3e-7), true);
});

test("integral doubles beyond 2^53 are the integers they hold, not their shortest decimals", () => {
  assert.equal(compile({ multipleOf: 10 }).isValid(2 ** 64), false); // 18446744073709551616 % 10 is 6
  assert.equal(compile({ multipleOf: 2 ** 53 }).isValid(49 * 2 ** 53), true);
  assert.equal(compile({ multipleOf: 2 ** 53 }).isValid(2 ** 60), true);
  assert.equal(compile({ multipleOf: 3 }).isValid(2 ** 64), false); // 2^64 mod 3 is 1
  assert.equal(compile({ multipleOf: 0.5 }).isValid(2 ** 64), true);
  assert.equal(compile({ multipleOf: 1e21 / 3 }).isValid((1e21 / 3) * 4), true);
  assert.equal(compile({ multipleOf: 2 ** 40 }).isValid(2 ** 40 + 0.5), false);
  fc.assert(
    fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }), fc.integer({ min: 1, max: 1_000 }), (big, d) => {
      const x = Number(big);
      assert.equal(compile({ multipleOf: d }).isValid(x), BigInt(x) % BigInt(d) === 0n, `${x} multipleOf ${d}`);
    }),
    { seed: 1203, numRuns: 2_000 },
  );
});
