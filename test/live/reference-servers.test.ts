/**
 * The official reference MCP servers, live over stdio: their SDK 1.x catalogs (every schema declares draft-07)
 * admitted strictly with `draft07: "upgrade"` and refused without it; read-only tools called through
 * `Execution.invoke` with the SDK client's `callTool` as `dispatch`, arguments checked before dispatch and structured
 * results checked against their output schemas.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";
import { Execution, ToolCatalog, type AdmittedBundle, type ExecutionError } from "../../src/index.js";
import { alive, SERVERS, start, VERSION, type RunningServer, type ServerSpec } from "./servers.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

interface LiveCall {
  tool: string;
  arguments: (root: string) => Record<string, unknown> | undefined;
  /** Whether the arguments satisfy the tool's (upgraded) input schema. */
  valid: boolean;
  /** For a valid call: whether the server answers with a tool error (`isError: true`). */
  toolError?: boolean;
}

/** Read-only calls per server (each tool is checked to be `readOnlyHint: true` before it is called). */
const CALLS: Record<string, LiveCall[]> = {
  everything: [
    { tool: "echo", arguments: () => ({ message: "hello" }), valid: true },
    { tool: "get-sum", arguments: () => ({ a: 2, b: 3 }), valid: true },
    { tool: "get-structured-content", arguments: () => ({ location: "Chicago" }), valid: true },
    { tool: "get-sum", arguments: () => ({ a: "2", b: 3 }), valid: false },
    { tool: "get-structured-content", arguments: () => ({ location: "Atlantis" }), valid: false },
    { tool: "echo", arguments: () => undefined, valid: false },
  ],
  filesystem: [
    { tool: "list_allowed_directories", arguments: () => undefined, valid: true },
    { tool: "read_text_file", arguments: (root) => ({ path: join(root, "notes.txt"), head: 1 }), valid: true },
    { tool: "list_directory", arguments: (root) => ({ path: root }), valid: true },
    { tool: "get_file_info", arguments: (root) => ({ path: join(root, "notes.txt") }), valid: true },
    {
      tool: "read_text_file",
      arguments: (root) => ({ path: join(root, "missing.txt") }),
      valid: true,
      toolError: true,
    },
    { tool: "read_text_file", arguments: () => ({}), valid: false },
    { tool: "list_directory", arguments: () => ({ path: 42 }), valid: false },
  ],
  memory: [
    { tool: "read_graph", arguments: () => ({}), valid: true },
    { tool: "search_nodes", arguments: () => ({ query: "ada" }), valid: true },
    { tool: "open_nodes", arguments: () => ({ names: ["ada"] }), valid: true },
    { tool: "search_nodes", arguments: () => ({ query: 5 }), valid: false },
    { tool: "open_nodes", arguments: () => ({ names: "ada" }), valid: false },
  ],
  "sequential-thinking": [
    {
      tool: "sequentialthinking",
      arguments: () => ({ thought: "a first thought", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 }),
      valid: true,
    },
    {
      tool: "sequentialthinking",
      arguments: () => ({ thought: "no counters", nextThoughtNeeded: false }),
      valid: false,
    },
    {
      tool: "sequentialthinking",
      arguments: () => ({ thought: "t", nextThoughtNeeded: false, thoughtNumber: 0, totalThoughts: 1 }),
      valid: false,
    },
  ],
};

const catalog = (spec: ServerSpec, server: RunningServer) =>
  server.tools.map((tool) => ({ ...tool, revision: VERSION, backend: spec.backend }));

let listed = 0;

for (const spec of SERVERS) {
  describe(`${spec.pkg}@${VERSION} over stdio`, { timeout: 30_000 }, () => {
    let server: RunningServer;
    before(async () => {
      server = await start(spec);
    });
    after(async () => {
      await server?.stop();
      assert.equal(alive(server.pid), false, "the child is stopped");
    });

    test(`lists ${spec.tools} tools, every schema declaring draft-07`, () => {
      assert.equal(server.tools.length, spec.tools);
      listed += server.tools.length;
      for (const tool of server.tools) {
        assert.equal(tool.inputSchema["$schema"], DRAFT_07, tool.name);
        if (tool.outputSchema !== undefined) assert.equal(tool.outputSchema["$schema"], DRAFT_07, tool.name);
      }
    });

    test("strict admission refuses the catalog without draft07, quarantine keeps none of it", () => {
      const strict = ToolCatalog.admitBatch(catalog(spec, server), { backends: [spec.backend] });
      assert.equal(strict.ok, false);
      const e = (strict as { ok: false; error: { class: string; cause?: { code: string; message: string } } }).error;
      assert.equal(e.class, "unsupported_capability");
      assert.equal(e.cause?.code, "dialect_unsupported");
      assert.match(e.cause?.message ?? "", /draft07: "upgrade"/);
      const quarantine = ToolCatalog.admitBatch(catalog(spec, server), {
        backends: [spec.backend],
        mode: "quarantine",
      });
      assert.ok(quarantine.ok);
      assert.deepEqual(quarantine.value.accepted, []);
      assert.equal(quarantine.value.rejected.length, spec.tools);
    });

    test('strict admission with draft07: "upgrade" accepts every tool and records every upgrade', () => {
      const tools = catalog(spec, server);
      const r = ToolCatalog.admitBatch(tools, { backends: [spec.backend], draft07: "upgrade" });
      if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
      assert.deepEqual(
        r.value.accepted,
        server.tools.map((t) => t.name),
      );
      const expected = server.tools.flatMap((t) => [
        `${t.name}/inputSchema`,
        ...(t.outputSchema === undefined ? [] : [`${t.name}/outputSchema`]),
      ]);
      assert.deepEqual(
        r.value.upgraded.map((u) => `${u.name}/${u.schema}`),
        expected,
      );
      for (const u of r.value.upgraded) assert.equal(u.revision, VERSION);
      // Provider tools are the published tools, complete, with the published (draft-07) schema objects.
      server.tools.forEach((published, i) => {
        assert.deepEqual(r.value.tools[i], published);
        assert.equal(r.value.tools[i]?.inputSchema, published.inputSchema);
        assert.equal(r.value.tools[i]?.outputSchema, published.outputSchema);
      });
    });

    describe("read-only calls through Execution.invoke, dispatched with the client's callTool", () => {
      let bundle: AdmittedBundle;
      before(() => {
        const r = ToolCatalog.admitBatch(catalog(spec, server), { backends: [spec.backend], draft07: "upgrade" });
        assert.ok(r.ok);
        bundle = r.value;
      });
      for (const call of CALLS[spec.backend] ?? []) {
        const label = `${call.tool} ${JSON.stringify(call.arguments("<root>")) ?? "(no arguments)"}`;
        test(`${label}: ${call.valid ? "reaches the server" : "refused before dispatch"}`, async () => {
          const tool = bundle.registry.get(call.tool);
          assert.ok(tool !== undefined, `${call.tool} is listed`);
          assert.equal(tool.annotations?.["readOnlyHint"], true, `${call.tool} is read-only`);
          const dispatched: unknown[] = [];
          const r = await Execution.invoke(
            bundle,
            { name: call.tool, arguments: call.arguments(server.root) },
            {
              dispatch: (ctx) => {
                dispatched.push(ctx.arguments);
                return server.client.callTool({
                  name: ctx.name,
                  arguments: ctx.arguments as Record<string, unknown> | undefined,
                });
              },
            },
          );
          if (!call.valid) {
            assert.equal(r.ok, false);
            const e = (r as { ok: false; error: ExecutionError }).error;
            assert.deepEqual([e.code, e.stage], ["arguments_invalid", "arguments"]);
            assert.deepEqual(dispatched, [], "nothing reached the server");
            return;
          }
          if (!r.ok) assert.fail(`${r.error.code} at ${r.error.stage}: ${r.error.message}`);
          assert.equal(dispatched.length, 1);
          const result = r.value as { isError?: boolean; structuredContent?: unknown };
          assert.equal(result.isError === true, call.toolError === true, JSON.stringify(result).slice(0, 200));
          if (tool.outputSchema !== undefined && call.toolError !== true) {
            assert.ok(result.structuredContent !== undefined, "a structured result, checked against outputSchema");
            assert.equal(tool.compiledOutput?.validate(result.structuredContent).ok, true);
          }
        });
      }
    });
  });
}

describe("the four reference servers together", () => {
  test("41 tools, as the issue counted", () => {
    assert.equal(listed, 41);
  });
});

describe('BackplaneJsonSchemaValidator in an SDK 1.x client: draft07 "upgrade" by default', { timeout: 30_000 }, () => {
  const spec = SERVERS.find((s) => s.backend === "sequential-thinking") as ServerSpec;
  const args = { thought: "t", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 };
  test('with draft07: "reject" a call to a tool with an outputSchema fails after it ran, naming the option', async () => {
    const server = await start(spec, new BackplaneJsonSchemaValidator({ draft07: "reject" }));
    try {
      await assert.rejects(
        server.client.callTool({ name: "sequentialthinking", arguments: args }),
        /-32602.*dialect_unsupported.*draft07: "upgrade"/,
      );
    } finally {
      await server.stop();
    }
    assert.equal(alive(server.pid), false);
  });
  test("by default the same call returns its structured result", async () => {
    const server = await start(spec);
    try {
      const result = await server.client.callTool({ name: "sequentialthinking", arguments: args });
      assert.equal((result.structuredContent as { thoughtNumber?: unknown }).thoughtNumber, 1);
    } finally {
      await server.stop();
    }
  });
});
