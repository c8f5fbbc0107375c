/**
 * RFC 8785 canonical JSON: the RFC's own examples (written out here from its text), the I-JSON refusals with their
 * pointers, the schema limits (deep values, a DAG whose tree is exponential, counted), and property tests.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { LimitError, SchemaError } from "../../../src/index.js";
import { canonicalize } from "../../../src/runtime/identity/canonical-json.js";
import { nested, reordered, sharedLevels } from "./helpers.js";

/** A double from its IEEE 754 bit pattern in hex, as RFC 8785 Appendix B lists them. */
function ieee754(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt("0x" + hex));
  return view.getFloat64(0);
}

function refusal(run: () => unknown): SchemaError {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof SchemaError, `a SchemaError, got ${String(e)}`);
    return e;
  }
  assert.fail("expected a refusal");
}

describe("RFC 8785 examples", () => {
  test("the example of §3.2.2: primitive values serialised, members sorted", () => {
    const input = JSON.parse(
      String.raw`{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
      }`,
    ) as unknown;
    assert.equal(
      canonicalize(input),
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],` +
        String.raw`"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  test("the sorting example (§3.2.3): member names ordered by UTF-16 code units", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    assert.equal(canonicalize(input), expected);
  });

  test("the number serialisation samples (Appendix B), -0 as 0", () => {
    const samples: [string, string][] = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    for (const [hex, text] of samples) assert.equal(canonicalize([ieee754(hex)]), `[${text}]`, hex);
    for (const hex of ["7fffffffffffffff", "7ff0000000000000"]) {
      assert.equal(refusal(() => canonicalize({ n: ieee754(hex) })).schemaPointer, "/n", `${hex} is not finite`);
    }
  });

  test("string escaping (§3.2.2.2): the two-character escapes, other controls as \\u00xx, the rest as it is", () => {
    const s = '\u0000\u0007\b\t\n\u000b\f\r\u001f "\\/\u007f\u0080\u2028\u{1F600}';
    assert.equal(canonicalize(s), '"\\u0000\\u0007\\b\\t\\n\\u000b\\f\\r\\u001f \\"\\\\/\u007f\u0080\u2028\u{1F600}"');
  });

  test("no whitespace (§3.2.1), nested containers, empty ones", () => {
    assert.equal(canonicalize({ b: [1, { d: [], c: {} }], a: null }), '{"a":null,"b":[1,{"c":{},"d":[]}]}');
  });
});

describe("what is not JSON is refused, naming its JSON Pointer", () => {
  const cycle: Record<string, unknown> = { a: { b: [] } };
  ((cycle["a"] as Record<string, unknown>)["b"] as unknown[]).push(cycle);
  const cases: [string, unknown, string][] = [
    ["a function", { a: { b: () => 1 } }, "/a/b"],
    ["undefined", { a: [1, undefined] }, "/a/1"],
    ["a bigint", { a: 1n }, "/a"],
    ["a symbol", { a: Symbol("s") }, "/a"],
    ["NaN", { a: NaN }, "/a"],
    ["-Infinity", [-Infinity], "/0"],
    ["a class instance", { when: new Date(0) }, "/when"],
    ["a Map", { m: new Map() }, "/m"],
    ["a sparse array", { a: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) }, "/a/1"],
    ["a cycle", cycle, "/a/b/0"],
    [
      "an accessor property",
      {
        a: {
          get b() {
            return 1;
          },
        },
      },
      "/a/b",
    ],
    ["a lone high surrogate", { s: "x\ud800" }, "/s"],
    ["a lone low surrogate", ["\udc00y"], "/0"],
    ["a member name with a lone surrogate", { "k\ud800": 1 }, "/k\ud800"],
    ["a pointer needing escapes", { "a/b": { "~c": () => 1 } }, "/a~1b/~0c"],
  ];
  for (const [what, value, pointer] of cases) {
    test(what, () => {
      const e = refusal(() => canonicalize(value));
      assert.deepEqual([e.class, e.code, e.schemaPointer], ["validation", "not_json", pointer]);
      assert.ok(e.message.includes(JSON.stringify(pointer)), e.message);
    });
  }
  test("symbol keys and non-enumerable properties are left out, as JSON.stringify leaves them", () => {
    const value: Record<string | symbol, unknown> = { a: 1, [Symbol("s")]: () => 1 };
    Object.defineProperty(value, "hidden", { value: () => 1, enumerable: false });
    assert.equal(canonicalize(value), '{"a":1}');
  });
  test("__proto__ and constructor are member names like any other", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"constructor":2}') as unknown;
    assert.equal(canonicalize(value), '{"__proto__":{"x":1},"constructor":2}');
    assert.equal(canonicalize(Object.assign(Object.create(null) as object, { b: 1, a: 2 })), '{"a":2,"b":1}');
  });
  test("a shared (non-cyclic) value is written at each place", () => {
    const shared = { x: [1] };
    assert.equal(canonicalize({ a: shared, b: [shared] }), '{"a":{"x":[1]},"b":[{"x":[1]}]}');
  });
  test("a malformed limits option is options_invalid", () => {
    const e = refusal(() => canonicalize({}, { maxSchemaBytes: -1 }));
    assert.equal(e.code, "options_invalid");
    assert.equal(refusal(() => canonicalize({}, { maxSchemaByte: 1 } as never)).code, "options_invalid");
  });
});

describe("the schema limits", () => {
  function limitHit(run: () => unknown): LimitError {
    const e = refusal(run);
    assert.ok(e instanceof LimitError, e.message);
    assert.deepEqual([e.class, e.code], ["execution_failure", "limit_exceeded"]);
    return e;
  }

  test("a 100,000-deep value: maxSchemaDepth by default, and written whole without recursion when allowed", () => {
    const deep = nested(100_000);
    const e = limitHit(() => canonicalize(deep));
    assert.equal(e.limit, "maxSchemaDepth");
    assert.equal(e.schemaPointer, "/0".repeat(129));
    assert.equal(canonicalize(deep, { maxSchemaDepth: 100_000 }), "[".repeat(100_001) + "]".repeat(100_001));
    assert.equal(limitHit(() => canonicalize(deep, { maxSchemaDepth: 99_999 })).limit, "maxSchemaDepth");
  });

  test("maxSchemaDepth counts the arrays and objects below the root", () => {
    assert.equal(canonicalize({ a: [{}] }, { maxSchemaDepth: 2 }), '{"a":[{}]}');
    assert.equal(limitHit(() => canonicalize({ a: [{}] }, { maxSchemaDepth: 1 })).schemaPointer, "/a/0");
  });

  test("maxSchemaBytes counts UTF-8 bytes of the text exactly", () => {
    const value = { "k\u00e9": ["a\u20ac\u{1F600}", 1.5, true, null] };
    const bytes = new TextEncoder().encode(canonicalize(value)).length;
    assert.equal(bytes, 34);
    assert.equal(canonicalize(value, { maxSchemaBytes: bytes }), canonicalize(value));
    assert.equal(limitHit(() => canonicalize(value, { maxSchemaBytes: bytes - 1 })).limit, "maxSchemaBytes");
    assert.equal(limitHit(() => canonicalize("x".repeat(100), { maxSchemaBytes: 50 })).schemaPointer, "");
  });

  test("a DAG of 30 levels of shared objects stops at the byte limit, visiting objects in proportion to it", () => {
    const visited = (maxSchemaBytes: number): number => {
      const dag = sharedLevels(30);
      const e = limitHit(() => canonicalize(dag.root, { maxSchemaBytes }));
      assert.equal(e.limit, "maxSchemaBytes");
      assert.equal(e.value, maxSchemaBytes);
      return dag.visits();
    };
    const small = visited(10_000);
    const large = visited(40_000);
    // Each object written costs at least `{"a":` (and 2^31 - 1 objects make the whole tree); the count of objects
    // opened is bounded by the bytes the limit allows and grows with it.
    assert.ok(small <= 10_000 / 5, `${small} objects for 10,000 bytes`);
    assert.ok(large <= 40_000 / 5, `${large} objects for 40,000 bytes`);
    assert.ok(large >= 3 * small, `${large} objects for 4× the bytes of ${small}`);
    assert.equal(limitHit(() => canonicalize(sharedLevels(30, false).root)).limit, "maxSchemaBytes");
  });

  test("one large container shared many times fails before its names are listed twice", () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
    const e = limitHit(() =>
      canonicalize(
        Array.from({ length: 1_000 }, () => wide),
        { maxSchemaBytes: 5_000 },
      ),
    );
    assert.equal(e.schemaPointer, "/0");
  });
});

describe("properties", () => {
  const json = fc.jsonValue({ maxDepth: 5, stringUnit: "grapheme" });

  test("key-order permutations give the same text", () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        assert.equal(canonicalize(reordered(value, seed)), canonicalize(value));
      }),
      { seed: 8785, numRuns: 300 },
    );
  });

  test("JSON.parse of the canonical text re-canonicalises to the same text, which JSON.stringify also reads", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalize(value);
        assert.equal(canonicalize(JSON.parse(text)), text);
        assert.equal(canonicalize(JSON.parse(JSON.stringify(value))), text);
      }),
      { seed: 8786, numRuns: 300 },
    );
  });
});
