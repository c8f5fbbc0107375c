/**
 * The live reference servers' `tools/list` for OpenAI strict mode (issue 31: memory 9/9 and filesystem 14/14 were
 * refused, even widened): admitted strictly with `draft07: "upgrade"` and the target `openai-strict` with `narrow`
 * and `encode`, every tool is translated; a strict model's calls (every property present, null for "none"), decoded
 * by the bundle's target view, go through `Execution.invoke` to the server, and one the original schema refuses
 * never reaches it.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Execution, ToolCatalog, type AdmittedBundle, type TargetRequest } from "../../src/index.js";
import { SERVERS, start, VERSION, type RunningServer, type ServerSpec } from "./servers.js";

const TARGET = { target: "openai-strict", narrow: true, encode: true } as const;

/** Per server: a strict model's call (null for "none"), and whether the original schema accepts it decoded. */
const CALLS: Record<string, { tool: string; arguments: (root: string) => Record<string, unknown>; valid: boolean }[]> =
  {
    memory: [
      { tool: "read_graph", arguments: () => ({}), valid: true },
      { tool: "search_nodes", arguments: () => ({ query: "ada" }), valid: true },
      { tool: "open_nodes", arguments: () => ({ names: null }), valid: false },
    ],
    filesystem: [
      {
        tool: "read_text_file",
        arguments: (root) => ({ path: join(root, "notes.txt"), tail: null, head: 1 }),
        valid: true,
      },
      {
        tool: "read_text_file",
        arguments: (root) => ({ path: join(root, "notes.txt"), tail: null, head: null }),
        valid: true,
      },
      { tool: "list_directory_with_sizes", arguments: (root) => ({ path: root, sortBy: null }), valid: true },
      { tool: "read_text_file", arguments: () => ({ path: null, tail: null, head: null }), valid: false },
    ],
  };

for (const spec of SERVERS.filter((s) => s.backend === "memory" || s.backend === "filesystem") as ServerSpec[]) {
  describe(`${spec.pkg}@${VERSION} for openai-strict`, { timeout: 30_000 }, () => {
    let server: RunningServer;
    let bundle: AdmittedBundle;
    let request: TargetRequest;
    before(async () => {
      server = await start(spec);
      const tools = server.tools.map((tool) => ({ ...tool, revision: VERSION, backend: spec.backend }));
      const admitted = ToolCatalog.admitBatch(tools, {
        backends: [spec.backend],
        draft07: "upgrade",
        targets: [TARGET],
      });
      if (!admitted.ok) assert.fail(`${admitted.error.code}: ${admitted.error.message}`);
      bundle = admitted.value;
      request = bundle.forTarget("openai-strict") as TargetRequest;
    });
    after(async () => {
      await server?.stop();
    });

    test(`every one of the ${spec.tools} tools is translated (refused without narrow and encode)`, () => {
      assert.equal(request.tools.length, spec.tools);
      for (const [name, check] of request.report) assert.equal(check.outcome, "translated", name);
      const tools = server.tools.map((tool) => ({ ...tool, revision: VERSION, backend: spec.backend }));
      const plain = ToolCatalog.admitBatch(tools, {
        backends: [spec.backend],
        draft07: "upgrade",
        mode: "quarantine",
        targets: [{ target: "openai-strict", widen: true }],
      });
      assert.ok(plain.ok);
      assert.deepEqual(plain.value.accepted, []);
    });

    for (const call of CALLS[spec.backend] ?? []) {
      test(`${call.tool} ${JSON.stringify(call.arguments("<root>"))}: decoded, ${call.valid ? "run" : "refused"}`, async () => {
        const decoded = request.decodeCall({ name: call.tool, arguments: call.arguments(server.root) });
        assert.ok(decoded.ok);
        const dispatched: unknown[] = [];
        const r = await Execution.invoke(bundle, decoded.value, {
          dispatch: (ctx) => {
            dispatched.push(ctx.arguments);
            return server.client.callTool({ name: ctx.name, arguments: ctx.arguments as Record<string, unknown> });
          },
        });
        if (!call.valid) {
          assert.ok(!r.ok);
          assert.equal(r.error.code, "arguments_invalid");
          assert.deepEqual(dispatched, []);
          return;
        }
        if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
        const result = r.value as { isError?: boolean };
        assert.notEqual(result.isError, true, JSON.stringify(r.value).slice(0, 300));
        assert.ok(
          Object.values(dispatched[0] as object).every((v) => v !== null),
          "no encoded null reaches the server",
        );
      });
    }
  });
}
