/**
 * Names through the gateway (issue 44, observation 8): a server name that begins or ends with `_` is refused at
 * config load, so `<server>__<name>` splits one way only (server `a` with tool `_x` and server `a_` with tool `x`
 * would both be `a___x`), and the one split routes tools, prompts and the audit log alike.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serversOf } from "../../../src/cli/gateway/config.js";
import { namesFor } from "../../../src/cli/gateway/policy/names.js";

const stdio = { command: "node" };

describe("gateway names", () => {
  test("a server name beginning or ending with _ is refused at config load, with the reason", () => {
    for (const name of ["a_", "_a", "_", "a__b"]) {
      assert.throws(
        () => serversOf({ mcpServers: { a: stdio, [name]: stdio } }, "gw.json"),
        (e: Error) =>
          e.message.includes(`server name ${JSON.stringify(name)}`) &&
          e.message.includes('not beginning or ending with "_"') &&
          e.message.includes("must split one way only"),
      );
    }
    assert.deepEqual(
      serversOf({ mcpServers: { a: stdio, a_b: stdio, "a.b-c": stdio } }, "gw.json").map((s) => s.name),
      ["a", "a_b", "a.b-c"],
    );
  });

  test("a listed name splits at its first __, back into the server and the name it knows", () => {
    const names = namesFor(["a", "a_b"], true);
    assert.equal(names.listed("a", "_x"), "a___x");
    assert.deepEqual(names.split("a___x"), { server: "a", name: "_x" });
    assert.deepEqual(names.split("a_b__c__d"), { server: "a_b", name: "c__d" });
    assert.equal(names.split("plain"), undefined);
    assert.equal(names.split("__x"), undefined);
    // Without a namespace (one server only): names as the server lists them.
    const own = namesFor(["only"], false);
    assert.equal(own.listed("only", "x__y"), "x__y");
    assert.deepEqual(own.split("x__y"), { server: "only", name: "x__y" });
    assert.equal(namesFor(["a", "b"], false).namespaced, true, "several servers are always namespaced");
  });
});
