/**
 * The call decoder is total (issue 31): whatever a model (or a host) hands it — any JSON, values that are not JSON,
 * throwing getters, revoked proxies, `__proto__` keys, deep or huge arguments — it decodes or refuses with an error
 * (`call_invalid`, `tool_unknown`, `limit_exceeded`), never throws, and never modifies what it was given.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkCatalog } from "../../../src/index.js";
import { THROWN, untouchable } from "../hostile-values.js";

/** A tool whose every level has an encoded property, recursively (`next` refuses null, so it is encoded). */
const recursive = {
  name: "walk",
  inputSchema: JSON.parse(`{
    "type": "object",
    "properties": { "node": { "$ref": "#/$defs/node" }, "list": { "type": "array", "items": { "$ref": "#/$defs/node" } } },
    "required": ["node"],
    "$defs": {
      "node": {
        "type": "object",
        "properties": { "value": { "type": "integer" }, "next": { "$ref": "#/$defs/node" }, "__proto__": { "type": "string" } }
      }
    }
  }`) as Record<string, unknown>,
};

const request = checkCatalog([recursive], "openai-strict", { narrow: true, encode: true });

test("the recursive tool is translated and decodes at every level", () => {
  assert.equal(request.report.get("walk")?.outcome, "translated", JSON.stringify(request.report.get("walk")?.problems));
  const args = JSON.parse('{"node":{"value":1,"next":{"value":null,"next":null,"__proto__":null},"__proto__":"x"}}');
  const decoded = request.decodeCall({ name: "walk", arguments: args });
  assert.ok(decoded.ok);
  const out = decoded.value.arguments as { node: Record<string, unknown> };
  assert.deepEqual(JSON.stringify(out), '{"node":{"value":1,"next":{},"__proto__":"x"}}');
  // `__proto__` stayed an own property and reached no prototype.
  assert.ok(Object.hasOwn(out.node, "__proto__"));
  assert.equal(Object.getPrototypeOf(out.node), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["value"], undefined);
  // The model's value is untouched.
  assert.equal(args.node.next.value, null);
});

test("property: any value as the call or the arguments is decoded or refused, never thrown, never modified", () => {
  fc.assert(
    fc.property(
      fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 4 }),
      fc.boolean(),
      (value, asArgs) => {
        const call = asArgs ? { name: "walk", arguments: value } : value;
        const before = JSON.stringify(call, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
        const decoded = request.decodeCall(call);
        if (!decoded.ok) assert.ok(["call_invalid", "tool_unknown", "limit_exceeded"].includes(decoded.error.code));
        else assert.equal(decoded.value.name, "walk");
        assert.equal(
          JSON.stringify(call, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
          before,
        );
      },
    ),
    { seed: 31, numRuns: 500 },
  );
});

test("what cannot be read is call_invalid: throwing getters, revoked and throwing proxies, no name", () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const getter = {
    name: "walk",
    get arguments(): unknown {
      throw new Error("boom");
    },
  };
  const deepGetter = {
    name: "walk",
    arguments: {
      node: {
        get next(): unknown {
          throw new Error("boom");
        },
      },
    },
  };
  const cases: unknown[] = [
    revoked.proxy,
    untouchable(),
    getter,
    deepGetter,
    { name: "walk", arguments: { node: revoked.proxy } },
    { name: "walk", arguments: { node: untouchable() } },
    { arguments: {} },
    { name: 1 },
    null,
    "walk",
    ...THROWN.map(([, make]) => ({ name: "walk", arguments: { node: { next: make() } } })),
  ];
  for (const call of cases) {
    const decoded = request.decodeCall(call);
    assert.ok(!decoded.ok || decoded.value.name === "walk");
    if (!decoded.ok) assert.equal(decoded.error.code, "call_invalid", decoded.error.message);
  }
  const unknown = request.decodeCall({ name: "run", arguments: {} });
  assert.ok(!unknown.ok);
  assert.deepEqual([unknown.error.class, unknown.error.code], ["validation", "tool_unknown"]);
});

test("arguments deeper than maxInstanceDepth, or with more values than maxInstanceNodes, are limit_exceeded", () => {
  const nested = (depth: number) => {
    let node: Record<string, unknown> = { value: 1, next: null };
    for (let i = 0; i < depth; i++) node = { value: i, next: node };
    return { node };
  };
  assert.ok(request.decodeCall({ name: "walk", arguments: nested(100) }).ok);
  const deep = request.decodeCall({ name: "walk", arguments: nested(100_000) });
  assert.ok(!deep.ok);
  assert.deepEqual([deep.error.class, deep.error.code], ["execution_failure", "limit_exceeded"]);
  assert.match(deep.error.message, /maxInstanceDepth \(128\)/);
  assert.match(deep.error.instancePointer ?? "", /^\/node(\/next){128}/);
  const wide = request.decodeCall({ name: "walk", arguments: { node: {}, list: new Array(1_000_001).fill({}) } });
  assert.ok(!wide.ok);
  assert.match(wide.error.message, /maxInstanceNodes/);
});

test("arguments that are no object pass as they are (the boundary refuses them); absent ones stay absent", () => {
  for (const args of [null, "x", 3, [], [{ next: null }]]) {
    const decoded = request.decodeCall({ name: "walk", arguments: args });
    assert.ok(decoded.ok);
    assert.equal(decoded.value.arguments, args);
  }
  for (const call of [{ name: "walk" }, { name: "walk", arguments: undefined }]) {
    const decoded = request.decodeCall(call);
    assert.ok(decoded.ok);
    assert.equal(Object.hasOwn(decoded.value, "arguments"), false);
  }
});
