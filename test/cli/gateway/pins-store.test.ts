/**
 * The gateway's pins file and held file, and `gateway approve`: trust on first use writes atomically and only adds,
 * enforce never writes, the held file records what approve pins, and a watcher hears only others' changes.
 */

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { heldPath, PinsStore, readHeld } from "../../../src/cli/gateway/pins-store.js";
import { ToolCatalog } from "../../../src/index.js";
import { runCli } from "../helpers.js";

let dir = "";
before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-pins-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string) => join(dir, name);
const read = (name: string) => JSON.parse(readFileSync(file(name), "utf8")) as Record<string, unknown>;
const warnings: string[] = [];
const store = (name: string, mode: "tofu" | "enforce" = "tofu") =>
  new PinsStore(file(name), mode, (w) => warnings.push(w));
const held = (canonical: string) => ({ server: "s", code: "tool_changed", fields: ["/description"], canonical });

describe("PinsStore", () => {
  test("trust on first use: creates the file, then only adds pins; it never changes one", async () => {
    const pins = store("tofu.json");
    assert.deepEqual(await pins.read(), {});
    assert.deepEqual(await pins.addFirstSeen({ s__a: "A1" }), ["s__a"]);
    assert.deepEqual(read("tofu.json"), { s__a: "A1" });
    assert.deepEqual(await pins.addFirstSeen({ s__a: "A2", s__b: "B1" }), ["s__b"]);
    assert.deepEqual(read("tofu.json"), { s__a: "A1", s__b: "B1" });
    assert.deepEqual(await pins.addFirstSeen({ s__a: "A3" }), []);
    assert.deepEqual(await pins.addFirstSeen({}), []);
    assert.ok(!readdirSync(dir).some((f) => f.endsWith(".tmp")), "no temporary file is left");
    // An empty first catalog still writes the file: a later tool is then compared, not first seen twice.
    assert.deepEqual(await store("empty.json").addFirstSeen({}), []);
    assert.deepEqual(read("empty.json"), {});
  });

  test("enforce never writes", async () => {
    const pins = store("enforce.json", "enforce");
    assert.deepEqual(await pins.addFirstSeen({ s__a: "A1" }), []);
    assert.ok(!existsSync(file("enforce.json")));
  });

  test("a pins file that is not name → pin is refused", async () => {
    writeFileSync(file("bad.json"), '{"s__a": 1}');
    await assert.rejects(store("bad.json").read(), /is not an object from tool name to pin/);
    writeFileSync(file("broken.json"), "{");
    await assert.rejects(store("broken.json").read(), /is not valid JSON/);
  });

  test("the held file records held definitions, keeps since while unchanged, and goes when nothing is held", async () => {
    const pins = store("held.json");
    await pins.recordHeld(new Map([["s__a", held("NEW1")]]));
    const first = await readHeld(heldPath(file("held.json")));
    assert.equal(first["s__a"]?.canonical, "NEW1");
    await pins.recordHeld(new Map([["s__a", held("NEW1")]]));
    assert.equal((await readHeld(heldPath(file("held.json"))))["s__a"]?.since, first["s__a"]?.since);
    await pins.recordHeld(new Map());
    assert.ok(!existsSync(heldPath(file("held.json"))));
  });

  test("the watcher hears a change someone else made, not the store's own writes", async () => {
    const pins = store("watched.json");
    await pins.addFirstSeen({ s__a: "A1" });
    const heard: Record<string, string>[] = [];
    const stop = pins.watch((p) => heard.push(p), 20);
    try {
      await pins.addFirstSeen({ s__b: "B1" });
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.deepEqual(heard, []);
      writeFileSync(file("watched.json"), JSON.stringify({ s__a: "A2", s__b: "B1" }));
      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(heard, [{ s__a: "A2", s__b: "B1" }]);
    } finally {
      stop();
    }
  });
});

describe("gateway approve", () => {
  test("pins exactly the held definition, prints its digest, and empties the held file", async () => {
    const tool = { name: "s__a", description: "new text", inputSchema: { type: "object" } };
    const canonical = ToolCatalog.canonical(tool);
    writeFileSync(file("approve.json"), JSON.stringify({ s__a: "OLD", s__b: "B" }));
    await store("approve.json").recordHeld(
      new Map([
        ["s__a", held(canonical)],
        ["s__c", held("C")],
      ]),
    );
    const since = (await readHeld(heldPath(file("approve.json"))))["s__a"]?.since;
    const run = runCli(["gateway", "approve", "--pins", "approve.json", "s__a"], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stdout,
      `approved s__a (changed at /description; held since ${since}): pinned ${await ToolCatalog.digest(tool)}\n`,
    );
    assert.deepEqual(read("approve.json"), { s__a: canonical, s__b: "B" });
    assert.deepEqual(Object.keys(await readHeld(heldPath(file("approve.json")))), ["s__c"]);
    assert.equal(runCli(["gateway", "approve", "--pins", "approve.json", "s__c"], { cwd: dir }).status, 0);
    assert.ok(!existsSync(heldPath(file("approve.json"))));
  });

  test("a tool that is not held, or no tool, or no --pins, is a usage error and nothing is written", () => {
    writeFileSync(file("none.json"), '{"s__a":"A"}');
    const notHeld = runCli(["gateway", "approve", "--pins", "none.json", "s__a"], { cwd: dir });
    assert.equal(notHeld.status, 2);
    assert.match(
      notHeld.stderr,
      /^backplane-schema: s__a is not held \(gateway review --config <file> --pins none\.json lists what is\)\n$/,
    );
    assert.equal(readFileSync(file("none.json"), "utf8"), '{"s__a":"A"}');
    assert.match(
      runCli(["gateway", "approve", "--pins", "none.json"], { cwd: dir }).stderr,
      /needs the names of the held tools/,
    );
    assert.match(runCli(["gateway", "approve", "s__a"], { cwd: dir }).stderr, /needs --pins <file>/);
  });
});
