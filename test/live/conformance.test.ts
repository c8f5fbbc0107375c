/**
 * The official MCP conformance suite (server scenarios, `--suite all`, `@modelcontextprotocol/conformance` 0.1.16)
 * against its own test server, directly: the baseline the gateway's run is compared with.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { runConformance, startConformanceServer, type Child } from "./conformance.js";

let server: Child | undefined;
let endpoint = "";

before(async () => {
  const started = await startConformanceServer();
  server = started.child;
  endpoint = started.endpoint;
});
after(async () => {
  await server?.stop();
});

test("the conformance suite passes against its own test server, directly", { timeout: 240_000 }, async () => {
  const results = await runConformance(endpoint);
  const failed = results.filter((r) => r.failed > 0);
  assert.deepEqual(failed, [], "every scenario passes directly");
  assert.ok(results.length >= 30, `the suite ran ${results.length} scenarios`);
});
