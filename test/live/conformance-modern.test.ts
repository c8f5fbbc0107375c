/**
 * The pre-release conformance suite's three 2026-07-28 server scenarios (conformance-modern.ts) against the SDK 2.x
 * test server (modern-server.ts), directly: every check passes and none is only a warning. And the harness can fail:
 * against an endpoint that answers every POST the way a 2025-only Streamable HTTP server answers a stateless request
 * (`400`, `-32000` "Server not initialized", a null id) it reports the failed checks by name.
 */

import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { runModernScenarios, type ModernScenarioResult } from "./conformance-modern.js";
import { startModernServer, type ModernServer } from "./modern-server.js";

let server: ModernServer | undefined;

before(async () => {
  server = await startModernServer();
});
after(async () => {
  await server?.stop();
});

function counts(results: readonly ModernScenarioResult[]): Record<string, [number, number, number]> {
  return Object.fromEntries(results.map((r) => [r.scenario, [r.passed, r.failed, r.warnings.length]]));
}

/** An endpoint that refuses every request as not initialized, as a sessionful 2025-only front does. */
async function notInitialized(): Promise<{ url: string; server: Server }> {
  const refusing = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Bad Request: Server not initialized" },
          id: null,
        }),
      );
    });
  });
  await new Promise<void>((done) => refusing.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`, server: refusing };
}

describe("the pre-release conformance suite's 2026-07-28 server scenarios", { timeout: 300_000 }, () => {
  test("pass against the SDK 2.x test server, every check", async () => {
    assert.ok(server !== undefined);
    const results = await runModernScenarios(server.url);
    const failures = results.flatMap((r) => [...r.failures, ...r.warnings].map((f) => `${r.scenario} ${f}`));
    assert.deepEqual(failures, [], `no check fails or warns:\n${server.output()}`);
    assert.deepEqual(counts(results), {
      "server-stateless": [30, 0, 0],
      "http-header-validation": [14, 0, 0],
      "http-custom-header-server-validation": [10, 0, 0],
    });
  });

  test("report the failed checks of an endpoint that refuses stateless requests", async () => {
    const refusing = await notInitialized();
    try {
      const [headers] = await runModernScenarios(refusing.url, ["http-header-validation"]);
      assert.equal(headers?.scenario, "http-header-validation");
      assert.equal(headers.passed, 0);
      assert.ok(headers.failed > 0, "the setup check fails");
      assert.match(
        headers.failures.join("\n"),
        /sep-2243-server-standard-setup: tools\/list discovery failed: HTTP 400/,
      );
    } finally {
      refusing.server.close();
    }
  });
});
