/** The evaluation context (src/engine/evaluate/run.ts): limits on members, sizes and strings; charged work. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile, defaultLimits, LimitError } from "../../../src/index.js";
import { Run } from "../../../src/engine/evaluate/run.js";
import { stepNode, trueNode } from "./nodes.js";

const accepting = trueNode;

function limited(name: string, f: () => unknown): void {
  assert.throws(f, (e: unknown) => e instanceof LimitError && e.limit === name, name);
}

test("entering a member charges a step and the subschema's own, counts depth and values; leaving restores depth", () => {
  const run = new Run(defaultLimits, false);
  assert.equal(run.child(accepting, 1), true);
  assert.equal(run.child(accepting, 2), true);
  assert.deepEqual([run.steps, run.instanceDepth, run.instanceNodes], [4, 0, 2]);
});

test("each limit on what evaluation looks at fails closed with its name", () => {
  const small = { ...defaultLimits, maxInstanceNodes: 1, maxObjectProperties: 1, maxArrayLength: 1 };
  const run = new Run({ ...small, maxStringLength: 2, maxEvaluationSteps: 10 }, false);
  run.child(accepting, 1);
  limited("maxInstanceNodes", () => run.child(accepting, 1));
  limited("maxObjectProperties", () => new Run(small, false).keys({ a: 1, b: 2 }));
  limited("maxArrayLength", () => new Run(small, false).items([1, 2]));
  limited("maxStringLength", () => new Run({ ...small, maxStringLength: 2 }, false).string("abc"));
  // Code points, not UTF-16 units: two astral characters are two.
  new Run({ ...small, maxStringLength: 2 }, false).string("\u{1F600}\u{1F600}");
  limited("maxEvaluationSteps", () => new Run({ ...defaultLimits, maxEvaluationSteps: 3 }, false).keys([1, 2, 3, 4]));
  const deep = new Run({ ...defaultLimits, maxInstanceDepth: 1 }, false);
  const nested = stepNode("nested", {
    keyword: "toy",
    kind: "applicator",
    test: (v, r) => r.child(accepting, v),
    evaluate: () => true,
  });
  limited("maxInstanceDepth", () => deep.child(nested, {}));
});

test("keys charge one step per key and return the own keys", () => {
  const run = new Run(defaultLimits, false);
  assert.deepEqual(run.keys(JSON.parse('{"__proto__": 1, "b": 2}')), ["__proto__", "b"]);
  assert.equal(run.steps, 2);
});

test("one object's keys are listed once per evaluation, however many sibling keywords read them", () => {
  // The keys of a large object cost about as much to list as its members cost to evaluate: `properties` or
  // `patternProperties`, `unevaluatedProperties`, `propertyNames` and `minProperties` on one object share one list.
  const data: Record<string, number> = {};
  for (let i = 0; i < 2000; i++) data[`k${i}`] = i;
  let listed = 0;
  const counted = new Proxy(data, {
    ownKeys(target) {
      listed++;
      return Reflect.ownKeys(target);
    },
  });
  const schemas = [
    { patternProperties: { "^k": { type: "integer" } }, unevaluatedProperties: false },
    { properties: { k0: { type: "integer" } }, additionalProperties: { type: "integer" }, minProperties: 2000 },
    { properties: { k1: true }, propertyNames: { pattern: "^k" }, unevaluatedProperties: { type: "integer" } },
  ];
  for (const schema of schemas) {
    const validator = compile(schema);
    listed = 0;
    assert.equal(validator.isValid(counted), true);
    // The keywords once, and the check that every value is JSON data once.
    assert.equal(listed, 2, `isValid: ${JSON.stringify(schema)}`);
    listed = 0;
    assert.equal(validator.validate(counted).valid, true);
    // The boolean path (and its JSON data check), then the output path: once each.
    assert.equal(listed, 3, `validate: ${JSON.stringify(schema)}`);
  }
  // Nothing is kept after the call: the same object, given another key between calls, is listed afresh.
  const validator = compile(schemas[0] as object);
  const grown: Record<string, number> = { k: 1 };
  assert.equal(validator.isValid(grown), true);
  grown["x"] = 2;
  assert.equal(validator.isValid(grown), false);
});
