/**
 * The gateway's catalog in process: one malformed tool is excluded alone in one admission (the library's isolate
 * mode), whatever the number of malformed tools, and what the library quarantines is reported as quarantined.
 */

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { GatewayCatalog } from "../../../src/cli/gateway/policy/catalog.js";
import { Conversation } from "../../../src/index.js";

const good = (name: string) => ({ name, description: `${name}.`, inputSchema: { type: "object" } });
const bad = (name: string) => ({ name, inputSchema: { type: "object", properties: { x: { type: "strin" } } } });
const draft04 = (name: string) => ({
  name,
  inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
});

/** Counts the admissions a catalog runs (the conversation's start and every update). */
function countAdmissions(): { count: () => number; restore: () => void } {
  let n = 0;
  const start = Conversation.tryStart;
  const update = Conversation.prototype.updateCatalog;
  Conversation.tryStart = function (...args: Parameters<typeof start>) {
    n++;
    return start.apply(this, args);
  };
  Conversation.prototype.updateCatalog = function (...args: Parameters<typeof update>) {
    n++;
    return update.apply(this, args);
  };
  return {
    count: () => n,
    restore: () => {
      Conversation.tryStart = start;
      Conversation.prototype.updateCatalog = update;
    },
  };
}

let restore: () => void = () => undefined;
afterEach(() => restore());

describe("GatewayCatalog", () => {
  test("malformed tools in a batch of n are excluded alone, at the cost of one admission", () => {
    const counter = countAdmissions();
    restore = counter.restore;
    const catalog = new GatewayCatalog({
      servers: ["s", "t"],
      draft07: "upgrade",
      hiddenText: "report",
      formatAssertion: false,
      unpinned: "admit",
    });
    const listing = (n: number) => [
      { name: "s", revision: "1", tools: [good("a"), bad("b"), good("c"), draft04("old"), bad("d")] },
      {
        name: "t",
        revision: "1",
        tools: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? good(`e${i}`) : bad(`f${i}`))),
      },
    ];
    const first = catalog.admit(listing(20), {});
    assert.ok(first.ok, first.ok ? "" : first.error);
    assert.equal(counter.count(), 1, "one admission for 12 malformed tools");
    const a = first.value;
    assert.deepEqual(a.accepted.slice(0, 3), ["s__a", "s__c", "t__e0"]);
    assert.equal(a.accepted.length, 12);
    assert.deepEqual(
      a.excluded.slice(0, 2).map((x) => [x.name, x.server, x.code]),
      [
        ["s__b", "s", "schema_invalid"],
        ["s__d", "s", "schema_invalid"],
      ],
    );
    assert.equal(a.excluded.length, 12);
    assert.deepEqual(
      a.quarantined.map((q) => [q.name, q.code]),
      [["s__old", "dialect_unsupported"]],
    );
    const again = catalog.admit(listing(40), {});
    assert.ok(again.ok);
    assert.equal(counter.count(), 2, "an update is one admission too");
    assert.equal(again.value.excluded.length, 22);
  });
});
