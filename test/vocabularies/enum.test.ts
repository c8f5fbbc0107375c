/** `enum` with many structured values takes the keyed path; its verdicts equal JSON equality's. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile } from "../../src/index.js";

test("a large enum of objects and arrays: key order and 1 vs 1.0 do not matter, types do", () => {
  const values = Array.from({ length: 20 }, (_, i) => ({ id: i, tags: ["a", i], nested: { x: i % 2 === 0 } }));
  const v = compile({ enum: [...values, [1, "x"], null, "s", 2] });
  assert.equal(v.isValid({ nested: { x: true }, tags: ["a", 4], id: 4.0 }), true);
  assert.equal(v.isValid({ id: 4, tags: ["a", 4], nested: { x: false } }), false);
  assert.equal(v.isValid({ id: "4", tags: ["a", 4], nested: { x: true } }), false);
  assert.equal(v.isValid([1, "x"]), true);
  assert.equal(v.isValid(["x", 1]), false);
  assert.equal(v.isValid({ id: 1, tags: ["a", 1], nested: { x: false }, extra: 1 }), false);
  assert.equal(v.isValid(JSON.parse('{"__proto__": 1}')), false);
  assert.equal(v.isValid(2.0), true);
});
