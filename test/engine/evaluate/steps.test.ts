/**
 * Counted work (docs/reference/limits.md "What one step is"): every loop over instance data charges
 * `maxEvaluationSteps`, and for each keyword's worst case the count grows linearly with the instance.
 * Work is counted through `Validator.count`, never timed.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compile } from "../../../src/index.js";
import { jsonHash, UNMETERED } from "../../../src/engine/json/json.js";

const names = (n: number, prefix = "k"): string[] => Array.from({ length: n }, (_, i) => prefix + i);
const wide = (n: number, prefix = "k"): Record<string, unknown> =>
  Object.fromEntries(names(n, prefix).map((k, i) => [k, i]));
const longArray = (n: number, item: (i: number) => unknown = (i) => i): unknown[] =>
  Array.from({ length: n }, (_, i) => item(i));
const nested = (n: number): unknown => longArray(n, (i) => ({ a: [i, { b: String(i) }] }));
const TWENTY = names(20, "p");
/** A value of BIG JSON values that differs from `big(j)` only in its last member. */
const big = (last: number): unknown => ({ a: longArray(20, (i) => ({ x: i })), z: last });
const BIG = 43;
const twentyProps = (): Record<string, unknown> => Object.fromEntries(TWENTY.map((p) => [p, 1]));

/** The first `n` permutations of 0..7 as objects {k0..k7}: all share one structural hash. */
function colliding(n: number): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  const values = [0, 1, 2, 3, 4, 5, 6, 7];
  const permute = (k: number): void => {
    if (out.length >= n) return;
    if (k === values.length) {
      out.push(Object.fromEntries(values.map((v, i) => ["k" + i, v])));
      return;
    }
    for (let i = k; i < values.length; i++) {
      [values[k], values[i]] = [values[i] as number, values[k] as number];
      permute(k + 1);
      [values[k], values[i]] = [values[i] as number, values[k] as number];
    }
  };
  permute(0);
  return out;
}

interface Case {
  keyword: string;
  schema: unknown;
  instance: (n: number) => unknown;
  /** Loop iterations the keyword must charge at size n (a lower bound on the count). */
  atLeast: (n: number) => number;
}

const cases: Case[] = [
  {
    keyword: "properties (keys walked, then names probed, over n objects that have none of them)",
    schema: { items: { properties: Object.fromEntries(TWENTY.map((p) => [p, { type: "integer" }])) } },
    instance: (n) => longArray(n, () => wide(21, "q")),
    atLeast: (n) => 20 * n,
  },
  {
    keyword: "patternProperties (each name against each pattern)",
    schema: { patternProperties: { "^k": true, "^x": true } },
    instance: (n) => wide(n),
    atLeast: (n) => 2 * n,
  },
  {
    keyword: "additionalProperties (each name, named or matched or not)",
    schema: { properties: { k0: true }, patternProperties: { "^x": true }, additionalProperties: true },
    instance: (n) => wide(n),
    atLeast: (n) => 2 * n,
  },
  {
    keyword: "propertyNames",
    schema: { propertyNames: { maxLength: 10 } },
    instance: (n) => wide(n),
    atLeast: (n) => n,
  },
  {
    keyword: "items",
    schema: { items: true },
    instance: (n) => longArray(n),
    atLeast: (n) => n,
  },
  {
    keyword: "prefixItems (over n arrays)",
    schema: { items: { prefixItems: [true, true, true] } },
    instance: (n) => longArray(n, () => [1, 2, 3]),
    atLeast: (n) => 3 * n,
  },
  {
    keyword: "contains",
    schema: { contains: { type: "string" } },
    instance: (n) => longArray(n),
    atLeast: (n) => n,
  },
  {
    keyword: "unevaluatedProperties after patternProperties",
    schema: { patternProperties: { "^k": true }, unevaluatedProperties: false },
    instance: (n) => wide(n),
    atLeast: (n) => 3 * n,
  },
  {
    keyword: "unevaluatedProperties with names marked inside allOf and properties",
    schema: {
      allOf: [{ patternProperties: { "^k": true } }, { properties: { x: true } }],
      unevaluatedProperties: false,
    },
    instance: (n) => wide(n),
    atLeast: (n) => 3 * n,
  },
  {
    keyword: "unevaluatedItems after contains",
    schema: { contains: true, unevaluatedItems: false },
    instance: (n) => longArray(n),
    atLeast: (n) => 3 * n,
  },
  {
    keyword: "unevaluatedItems with indices marked inside allOf",
    schema: { allOf: [{ contains: true }], unevaluatedItems: false },
    instance: (n) => longArray(n),
    atLeast: (n) => 3 * n,
  },
  {
    keyword: "unevaluatedItems with indices merged up from a tracking subschema",
    schema: { allOf: [{ contains: true, unevaluatedProperties: false }], unevaluatedItems: false },
    instance: (n) => longArray(n),
    atLeast: (n) => 4 * n,
  },
  {
    keyword: "uniqueItems over distinct nested values",
    schema: { uniqueItems: true },
    instance: (n) => nested(n),
    atLeast: (n) => 5 * n,
  },
  {
    keyword: "uniqueItems over values that all share one hash",
    schema: { uniqueItems: true },
    instance: (n) => colliding(n),
    atLeast: (n) => 9 * n,
  },
  {
    keyword: "enum of a few big values (JSON equality, over n instances)",
    schema: { items: { enum: [big(0), big(1)] } },
    instance: (n) => longArray(n, () => big(1)),
    atLeast: (n) => 2 * BIG * n,
  },
  {
    keyword: "enum of many big values (hashed, over n instances)",
    schema: { items: { enum: longArray(10, (i) => big(i)) } },
    instance: (n) => longArray(n, () => big(9)),
    atLeast: (n) => 2 * BIG * n,
  },
  {
    keyword: "const over a big value (JSON equality, over n instances)",
    schema: { items: { const: big(0) } },
    instance: (n) => longArray(n, () => big(0)),
    atLeast: (n) => BIG * n,
  },
  {
    keyword: "required (over n objects)",
    schema: { items: { required: TWENTY } },
    instance: (n) => longArray(n, twentyProps),
    atLeast: (n) => 20 * n,
  },
  {
    keyword: "dependentRequired (over n objects)",
    schema: { items: { dependentRequired: { p0: TWENTY } } },
    instance: (n) => longArray(n, twentyProps),
    atLeast: (n) => 20 * n,
  },
  {
    keyword: "dependentSchemas (names probed, over n objects that have none of them)",
    schema: { items: { dependentSchemas: Object.fromEntries(TWENTY.map((p) => [p, true])) } },
    instance: (n) => longArray(n, () => ({})),
    atLeast: (n) => 20 * n,
  },
  {
    keyword: "maxProperties (counting the names)",
    schema: { maxProperties: 1_000_000 },
    instance: (n) => wide(n),
    atLeast: (n) => n,
  },
];

const N = 2_000;

describe("every loop over instance data is charged, and counted work grows linearly", () => {
  for (const c of cases) {
    for (const output of [false, true]) {
      test(`${c.keyword}, ${output ? "output" : "boolean"} path`, () => {
        const v = compile(c.schema);
        const small = v.count(c.instance(N), output);
        const large = v.count(c.instance(2 * N), output);
        assert.equal(small.valid, large.valid, "the same verdict at both sizes");
        assert.ok(small.steps >= c.atLeast(N), `charged ${small.steps} steps, expected at least ${c.atLeast(N)}`);
        assert.ok(
          large.steps <= 2.2 * small.steps,
          `steps at 2n (${large.steps}) exceed 2.2 × steps at n (${small.steps})`,
        );
      });
    }
  }

  test("the colliding values really share one structural hash (the worst case above is one)", () => {
    const hashes = new Set(colliding(500).map((v) => jsonHash(v, 10, UNMETERED)));
    assert.equal(hashes.size, 1);
    assert.equal(compile({ uniqueItems: true }).isValid(colliding(500)), true);
    assert.equal(compile({ uniqueItems: true }).isValid([...colliding(500), colliding(1)[0]]), false);
  });

  test("ordinary records do not collide: fields that vary together are mixed before they are summed", () => {
    const records = longArray(10_000, (i) => ({ id: i, name: `n${i}`, tags: ["a", "b"], score: i % 97 }));
    assert.equal(new Set(records.map((r) => jsonHash(r, 10, UNMETERED))).size, records.length);
  });

  test("the step limit stops the work: the same instances fail closed under a small maxEvaluationSteps", () => {
    for (const c of cases) {
      const v = compile(c.schema, { limits: { maxEvaluationSteps: c.atLeast(N) - 1 } });
      assert.throws(
        () => v.isValid(c.instance(N)),
        (e: unknown) => (e as { code?: string }).code === "limit_exceeded" && /maxEvaluationSteps/.test(String(e)),
        c.keyword,
      );
    }
  });
});

describe("contains charges the items it tries, and no more", () => {
  const matchAt = (k: number): unknown[] => longArray(2_000, (i) => (i === k ? "match" : i));
  for (const [shape, subschema] of [
    ["a leaf subschema (its own loop)", { type: "string" }],
    ["a subschema with an applicator (a child per item)", { type: "string", properties: {} }],
  ] as const) {
    test(`${shape}: one item's charge per item up to the first match; the limit is exact`, () => {
      const v = compile({ contains: subschema });
      const at = (k: number): number => {
        const { valid, steps } = v.count(matchAt(k));
        assert.equal(valid, true);
        return steps;
      };
      const perItem = at(11) - at(10);
      assert.equal(perItem, 1 + Object.keys(subschema).length, "an item tried: one step, and one per keyword");
      assert.equal(at(1_000) - at(10), 990 * perItem, "linear in the items tried, nothing charged beyond the match");
      const exact = compile({ contains: subschema }, { limits: { maxEvaluationSteps: at(1_000) } });
      assert.equal(exact.isValid(matchAt(1_000)), true, "exactly the steps it needs");
      const short = compile({ contains: subschema }, { limits: { maxEvaluationSteps: at(1_000) - 1 } });
      assert.throws(() => short.isValid(matchAt(1_000)), /maxEvaluationSteps/, "one step fewer fails closed");
      const shallow = compile({ items: { contains: subschema } }, { limits: { maxInstanceDepth: 1 } });
      assert.throws(() => shallow.isValid([["match"]]), /maxInstanceDepth/, "an item one level too deep");
      assert.equal(shallow.isValid([[]]), false, "no item tried: nothing entered, no limit");
      const nodes = compile({ contains: subschema }, { limits: { maxInstanceNodes: 500 } });
      assert.throws(() => nodes.isValid(matchAt(1_000)), /maxInstanceNodes/, "each item tried is a value visited");
      // The check that every value is JSON data visits every item, within the same limit.
      const five = longArray(500, (i) => (i === 10 ? "match" : i));
      assert.equal(nodes.isValid(five), true, "500 values below the root are within the limit");
      assert.throws(() => nodes.isValid([...five, 1]), /maxInstanceNodes/, "501 are not");
    });
  }
});
