/**
 * The pre-release conformance suite's three 2026-07-28 server scenarios through `backplane-schema gateway --http
 * --no-namespace` in front of the SDK 2.x test server (modern-server.ts, a Streamable HTTP upstream): the same checks
 * pass through the gateway as directly. The suite cannot send a bearer token, so a loopback proxy adds the gateway's.
 */

import assert from "node:assert/strict";
import type { Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { startHttpGateway, tokenProxy } from "./conformance.js";
import { runModernScenarios } from "./conformance-modern.js";
import { CLI } from "./gateway-helpers.js";
import { startModernServer, type ModernServer } from "./modern-server.js";

let server: ModernServer | undefined;

before(async () => {
  server = await startModernServer();
});
after(async () => {
  await server?.stop();
});

describe("the 2026-07-28 server scenarios through the gateway", { timeout: 300_000 }, () => {
  test("pass through the gateway, every check, as they pass directly", async () => {
    assert.ok(server !== undefined);
    const gateway = await startHttpGateway(server.url, CLI, ["--no-namespace"]);
    let proxy: Server | undefined;
    try {
      const front = await tokenProxy(gateway.endpoint, gateway.token);
      proxy = front.server;
      const results = await runModernScenarios(front.endpoint);
      const failures = results.flatMap((r) => [...r.failures, ...r.warnings].map((f) => `${r.scenario} ${f}`));
      assert.deepEqual(failures, [], `no check fails or warns:\n${gateway.child.output()}`);
      const counts = Object.fromEntries(results.map((r) => [r.scenario, r.passed]));
      assert.deepEqual(counts, {
        "server-stateless": 30,
        "http-header-validation": 14,
        "http-custom-header-server-validation": 10,
      });
    } finally {
      proxy?.close();
      await gateway.child.stop();
    }
  });
});
