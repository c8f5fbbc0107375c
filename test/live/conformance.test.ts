/**
 * The official MCP conformance suite (server scenarios, `--suite all`, `@modelcontextprotocol/conformance` 0.1.16)
 * against its own test server, directly and through `backplane-schema gateway --http --no-namespace` in front of it
 * (docs/guide/gateway.md "The official conformance suite"). Every scenario that passes directly must pass through the
 * gateway; none is excused.
 */

import assert from "node:assert/strict";
import type { Server } from "node:http";
import { after, before, describe, test } from "node:test";
import {
  runConformance,
  startConformanceServer,
  startHttpGateway,
  tokenProxy,
  type Child,
  type ScenarioResult,
} from "./conformance.js";
import { CLI } from "./gateway-helpers.js";

let server: Child | undefined;
let endpoint = "";
let direct: ScenarioResult[] = [];

before(async () => {
  const started = await startConformanceServer();
  server = started.child;
  endpoint = started.endpoint;
});
after(async () => {
  await server?.stop();
});

/** Scenario → failed checks, for the scenarios that failed. */
function failures(results: readonly ScenarioResult[]): Record<string, readonly string[]> {
  return Object.fromEntries(results.filter((r) => r.failed > 0).map((r) => [r.scenario, r.failures]));
}

describe("the official MCP conformance suite", { timeout: 480_000 }, () => {
  test("passes against its own test server, directly", async () => {
    direct = await runConformance(endpoint);
    assert.deepEqual(failures(direct), {}, "every scenario passes directly");
    assert.ok(direct.length >= 30, `the suite ran ${direct.length} scenarios`);
  });

  test("passes through the gateway as it passes directly", async () => {
    assert.ok(direct.length > 0, "the direct run came first");
    const gateway = await startHttpGateway(endpoint, CLI, ["--no-namespace"]);
    let proxy: Server | undefined;
    try {
      const front = await tokenProxy(gateway.endpoint, gateway.token);
      proxy = front.server;
      const through = await runConformance(front.endpoint);
      assert.deepEqual(failures(through), {}, `every scenario passes through the gateway:\n${gateway.child.output()}`);
      const count = (results: readonly ScenarioResult[]) => results.map((r) => [r.scenario, r.passed]);
      assert.deepEqual(count(through), count(direct), "the same scenarios, each with as many checks passed");
    } finally {
      proxy?.close();
      await gateway.child.stop();
    }
  });
});
