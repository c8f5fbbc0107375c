/**
 * The annotations applicators make of the keys they applied subschemas to (Core §10.3.2): each key once, in the
 * instance's order, whether one pattern or several matched it.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile } from "../../../src/index.js";

function keysAnnotated(schema: object, instance: unknown, keyword: string): unknown {
  return compile(schema)
    .annotations(instance)
    .find((a) => a.keyword === keyword && a.instanceLocation === "")?.value;
}

test("patternProperties lists a key matched by several patterns once", () => {
  const schema = { patternProperties: { "^a": true, b$: true, ".": true } };
  assert.deepEqual(keysAnnotated(schema, { ab: 1, a: 2, cb: 3, z: 4 }, "patternProperties"), ["ab", "a", "cb", "z"]);
});

test("patternProperties with one pattern, properties and additionalProperties list each key they applied to", () => {
  const instance = { x1: 1, y: 2, x2: 3, z: 4 };
  assert.deepEqual(keysAnnotated({ patternProperties: { "^x": true } }, instance, "patternProperties"), ["x1", "x2"]);
  assert.deepEqual(keysAnnotated({ properties: { z: true, y: true, w: true } }, instance, "properties"), ["z", "y"]);
  const closed = { properties: { y: true }, patternProperties: { "^x": true }, additionalProperties: true };
  assert.deepEqual(keysAnnotated(closed, instance, "additionalProperties"), ["z"]);
  const rest = { properties: { y: true }, unevaluatedProperties: true };
  assert.deepEqual(keysAnnotated(rest, instance, "unevaluatedProperties"), ["x1", "x2", "z"]);
});
