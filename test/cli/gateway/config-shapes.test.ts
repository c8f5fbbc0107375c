/** Issue 44, observation 20: VS Code's `{"servers": …}` shape is read; malformed JSON is located by line and column. */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readConfig, serversOf } from "../../../src/cli/gateway/config.js";

describe("gateway config shapes (issue 44)", () => {
  test("VS Code's .vscode/mcp.json shape: servers", () => {
    const servers = serversOf(
      { servers: { memory: { type: "stdio", command: "npx", args: ["-y", "m"] } } },
      "mcp.json",
    );
    assert.deepEqual(
      servers.map((s) => [s.name, s.kind]),
      [["memory", "stdio"]],
    );
    assert.throws(() => serversOf({ servers: {}, mcpServers: {} }, "x.json"), /unknown field "servers"/);
    assert.throws(() => serversOf({ inputs: [], servers: { a: { command: "a" } } }, "x.json"), /"inputs"/);
    assert.throws(() => serversOf({ servers: {} }, "x.json"), /"servers" names no server/);
  });

  test("malformed JSON is located by line and column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backplane-config-"));
    try {
      const file = join(dir, "gw.json");
      writeFileSync(file, '{\n  "mcpServers": {\n    "a": { "command" "x" }\n  }\n}\n');
      await assert.rejects(readConfig(file), /not valid JSON: .*\(?line 3,? column 22\)?/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
