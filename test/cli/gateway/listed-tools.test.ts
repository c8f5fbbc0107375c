/**
 * The servers' listings as the gateway's catalog reads them before judging and admitting: a listed thing that is not
 * a tool with a name is left out with its server, every named tool's listed name maps to its server (whatever the
 * library then does with it, and `__proto__` an ordinary name), and a bare name two servers list is reported once.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { readListings } from "../../../src/cli/gateway/policy/listed-tools.js";
import { namesFor } from "../../../src/cli/gateway/policy/names.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

test("a listed thing without a name is left out with its server; named tools keep their place", () => {
  const read = readListings(
    [{ name: "s", revision: "7", tools: [tool("a"), 42, { description: "no name" }, { name: 3 }, null, tool("b")] }],
    namesFor(["s"], true),
  );
  assert.deepEqual(
    read.descriptors.map((d) => [d.server, d.listed, d.tool["name"], d.tool["revision"], d.tool["backend"]]),
    [
      ["s", "s__a", "a", "7", "s"],
      ["s", "s__b", "b", "7", "s"],
    ],
  );
  assert.deepEqual(
    read.excluded.map((x) => [x.name, x.server, x.code]),
    Array.from({ length: 4 }, () => ["(unnamed)", "s", "tool_invalid"]),
  );
});

test("every listed name maps to its server, __proto__ included, under either naming", () => {
  const listings = [
    { name: "a", revision: "1", tools: [tool("__proto__"), tool("x")] },
    { name: "b", revision: "1", tools: [tool("x"), tool("constructor")] },
  ];
  const read = readListings(listings, namesFor(["a", "b"], true));
  assert.deepEqual(
    [...read.owners],
    [
      ["a____proto__", "a"],
      ["a__x", "a"],
      ["b__x", "b"],
      ["b__constructor", "b"],
    ],
  );
  const single = readListings([listings[0]!], namesFor(["a"], false));
  assert.deepEqual(
    [...single.owners],
    [
      ["__proto__", "a"],
      ["x", "a"],
    ],
  );
  assert.equal(single.owners.get("constructor"), undefined);
});

test("a bare name two servers list is reported once, with both servers; a name listed twice by one is not", () => {
  const read = readListings(
    [
      { name: "a", revision: "1", tools: [tool("x"), tool("x"), tool("y")] },
      { name: "b", revision: "1", tools: [tool("x"), tool("z")] },
      { name: "c", revision: "1", tools: [tool("z")] },
    ],
    namesFor(["a", "b", "c"], true),
  );
  assert.deepEqual(read.shadowed, [
    { name: "x", servers: ["a", "b"] },
    { name: "z", servers: ["b", "c"] },
  ]);
});
