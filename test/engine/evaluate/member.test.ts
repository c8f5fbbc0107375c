/**
 * The member primitive (src/engine/evaluate/node.ts `member`, `eachItem`, `firstMatch`; src/engine/evaluate/run.ts `enter`,
 * `enterAll`): a leaf subschema, tested inline, and the same subschema wrapped in `{ allOf: [s] }`, which is not a
 * leaf, give the same verdicts and hit the same member limits at the same members, under `items`, `prefixItems`,
 * `contains`, `properties` and `additionalProperties`.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compile, LimitError, type Limits } from "../../../src/index.js";

/**
 * Leaves: pure ones (entered at once by the fusion), and ones whose assertions charge steps. Not `{}` or `true`:
 * a subschema that accepts everything is not entered at all where it is known to (limits apply where evaluation
 * looks), while `{ allOf: [{}] }` is entered.
 */
const leaf = fc.constantFrom<Record<string, unknown>>(
  { type: "integer" },
  { type: "string" },
  { minimum: 2 },
  { type: ["integer", "null"], maximum: 2 },
  { pattern: "^s" },
  { enum: [1, "s", null] },
  { minLength: 2 },
);
const value = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom("s", "st", "x", null, 1.5, true));
const array = fc.array(value, { maxLength: 8 }).map((a) => JSON.parse(JSON.stringify(a)) as unknown[]);
const object = fc
  .dictionary(fc.constantFrom("a", "b", "c", "d", "e", "z"), value, { maxKeys: 6 })
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

/** Where a subschema sits: each applicator that applies one to members of the instance. */
const positions: ((s: unknown) => Record<string, unknown>)[] = [
  (s) => ({ items: s }),
  (s) => ({ prefixItems: [s, s, s] }),
  (s) => ({ prefixItems: [true], items: s }),
  (s) => ({ contains: s }),
  (s) => ({ contains: s, minContains: 2, maxContains: 3 }),
  (s) => ({ properties: { a: s, b: s, c: s, d: s } }),
  (s) => ({ properties: { a: s } }),
  (s) => ({ properties: { a: s, b: {} }, additionalProperties: s }),
  (s) => ({ additionalProperties: s }),
  (s) => ({ patternProperties: { "^[ab]": s } }),
];

/** The verdict, or the name of the limit hit. */
function outcome(schema: unknown, limits: Partial<Limits>, instance: unknown): string {
  try {
    return String(compile(schema, { limits }).isValid(instance));
  } catch (e) {
    if (e instanceof LimitError) return e.limit;
    throw e;
  }
}

test("a leaf and the same subschema behind allOf: the same verdicts, and the same member limits at the same member", () => {
  let limited = 0;
  fc.assert(
    fc.property(
      leaf,
      fc.nat({ max: positions.length - 1 }),
      fc.oneof(array, object),
      fc.constantFrom<Partial<Limits>>({}, { maxInstanceNodes: 2 }, { maxInstanceNodes: 4 }, { maxInstanceDepth: 0 }),
      (s, at, instance, limits) => {
        const place = positions[at] as (s: unknown) => Record<string, unknown>;
        const asLeaf = outcome(place(s), limits, instance);
        const wrapped = outcome(place({ allOf: [s] }), limits, instance);
        assert.equal(wrapped, asLeaf, JSON.stringify({ schema: place(s), instance, limits }));
        if (asLeaf.startsWith("max")) limited++;
      },
    ),
    { seed: 20261203, numRuns: 4000 },
  );
  assert.ok(limited > 300, `${limited} runs hit a member limit`);
});

test("an invalid array under a leaf items schema answers false before a limit it would hit later", () => {
  // The member limit falls after the first invalid item: both forms stop at that item.
  const items = [1, "x", 3, 4, 5, 6];
  for (const s of [{ type: "integer" }, { allOf: [{ type: "integer" }] }]) {
    assert.equal(outcome({ items: s }, { maxInstanceNodes: 4 }, items), "false");
    assert.equal(outcome({ items: s }, { maxInstanceNodes: 4 }, [1, 2, 3, 4, 5]), "maxInstanceNodes");
  }
});
