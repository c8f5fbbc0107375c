/**
 * `jsonSize` (src/cli/gateway/upstream/listing.ts), the size a listing's bytes bound charges: what `JSON.stringify`
 * writes for data without escapes, measured without recursion (a tool nested 100,000 deep is measured, not thrown on,
 * so admission can refuse it alone), and cut short past its cap.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonSize } from "../../../src/cli/gateway/upstream/listing.js";

test("jsonSize is JSON.stringify's length for data without escapes", () => {
  const values: unknown[] = [
    {
      tools: [
        { name: "a", inputSchema: { type: "object", properties: {} } },
        { name: "bé", n: 1.5, ok: true },
      ],
    },
    [],
    {},
    [null, [1, 2, [3]], { x: { y: "z" } }],
    "é€😀",
  ];
  for (const value of values) assert.equal(jsonSize(value, Infinity), Buffer.byteLength(JSON.stringify(value)));
});

test("jsonSize measures a value nested deeper than JSON.stringify can write", () => {
  const deep = JSON.parse('{"a":'.repeat(100_000) + "{}" + "}".repeat(100_000)) as unknown;
  assert.throws(() => JSON.stringify(deep), RangeError);
  assert.equal(jsonSize(deep, Infinity), 100_000 * 6 + 2);
});

test("jsonSize stops once past its cap", () => {
  const big = Array.from({ length: 10_000 }, () => "x".repeat(100));
  const size = jsonSize(big, 1_000);
  // Past the cap, and far short of the 1,030,001 bytes of the whole: the strings were never measured.
  assert.ok(size > 1_000 && size < 20_000, String(size));
});
