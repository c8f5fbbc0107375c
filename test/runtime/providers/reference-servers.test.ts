/**
 * The official reference servers' tools for OpenAI strict mode (issue 31), from their definitions as recorded in the
 * MCP corpus (`../shared/mcp-corpus`, beside the repository; `test/live/openai-strict.test.ts` does the same with the
 * live servers' `tools/list`). Without narrowing and encoding OpenAI strict refuses the filesystem server's tools
 * (open objects, optional properties); with them every tool is translated, and a strict model's calls, decoded by the
 * bundle's target view, are accepted or refused by `Execution.invoke` as the original schemas say.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import {
  Execution,
  InputSchema,
  ToolCatalog,
  upgradeDraft07,
  type AdmittedBundle,
  type CallDecodeError,
  type DecodedCall,
  type ExecutionError,
  type Result,
} from "../../../src/index.js";
import { repoRoot } from "../../suite/locate.js";

interface CorpusRecord {
  server: string;
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const corpusPath = resolve(repoRoot, "..", "shared", "mcp-corpus", "mcp-tools.json");

function serverTools(server: string): Record<string, unknown>[] {
  if (!existsSync(corpusPath)) throw new Error(`the MCP corpus is missing: expected ${corpusPath}`);
  const records = (JSON.parse(readFileSync(corpusPath, "utf8")) as CorpusRecord[]).filter((r) => r.server === server);
  assert.ok(records.length > 0, server);
  return records.map((r) => ({
    name: r.name,
    description: r.description,
    inputSchema: r.inputSchema,
    revision: "corpus",
    backend: "reference",
  }));
}

const TARGET = { target: "openai-strict", narrow: true, encode: true } as const;
const options = { backends: ["reference"], draft07: "upgrade" as const };

const filesystem = serverTools("@modelcontextprotocol/server-filesystem");
const memory = serverTools("@modelcontextprotocol/server-memory");

describe("the reference servers' tools for openai-strict", () => {
  test("without narrowing and encoding the filesystem server is refused (open objects, optional properties)", () => {
    const refused = ToolCatalog.admitBatch(filesystem, { ...options, targets: ["openai-strict"] });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, "provider_unsupported");
    const widened = ToolCatalog.admitBatch(filesystem, {
      ...options,
      mode: "quarantine",
      targets: [{ target: "openai-strict", widen: true }],
    });
    assert.ok(widened.ok);
    assert.deepEqual(widened.value.accepted, []);
    assert.deepEqual(
      new Set(widened.value.rejected.map((r) => (r.error as { rule: string }).rule)),
      new Set(["closed-objects"]),
    );
  });

  test("with narrow and encode every tool of both servers is translated, each change listed with its kind", () => {
    for (const [tools, count] of [
      [filesystem, 14],
      [memory, 9],
    ] as const) {
      const admitted = ToolCatalog.admitBatch(tools, { ...options, targets: [TARGET] });
      assert.ok(admitted.ok, admitted.ok ? "" : admitted.error.message);
      const request = admitted.value.forTarget("openai-strict");
      assert.ok(request !== undefined);
      assert.equal(request.tools.length, count);
      for (const [name, check] of request.report) {
        assert.equal(check.outcome, "translated", `${name}: ${JSON.stringify(check.problems)}`);
        assert.ok(check.changes.every((c) => c.kind !== "widened"));
      }
    }
    const admitted = ToolCatalog.admitBatch(filesystem, { ...options, targets: [TARGET] });
    assert.ok(admitted.ok);
    const read = admitted.value.forTarget("openai-strict")?.report.get("read_text_file");
    assert.deepEqual(
      read?.changes.map((c) => `${c.kind} ${c.change} ${c.pointer}`),
      [
        "exact annotation-dropped /$schema",
        "narrowed object-closed /additionalProperties",
        "encoded optional-encoded /properties/tail",
        "encoded optional-encoded /properties/head",
      ],
    );
  });

  test("a strict model's calls, decoded, meet Execution.invoke as the original schemas say", async () => {
    const admitted = ToolCatalog.admitBatch(filesystem, { ...options, targets: [TARGET] });
    assert.ok(admitted.ok);
    const bundle: AdmittedBundle = admitted.value;
    const request = bundle.forTarget("openai-strict");
    assert.ok(request !== undefined);
    // What the model sends (every property present, null for "none"), and what the tool must receive.
    const calls: [string, Record<string, unknown>, Record<string, unknown> | "refused" | "same"][] = [
      ["read_text_file", { path: "/r/a.txt", tail: null, head: null }, { path: "/r/a.txt" }],
      ["read_text_file", { path: "/r/a.txt", tail: null, head: 5 }, { path: "/r/a.txt", head: 5 }],
      ["read_text_file", { path: null, tail: null, head: null }, "refused"],
      ["read_text_file", { path: "/r/a.txt", tail: "5", head: null }, "refused"],
      [
        "edit_file",
        { path: "/r/a.txt", edits: [{ oldText: "a", newText: "b" }], dryRun: null },
        { path: "/r/a.txt", edits: [{ oldText: "a", newText: "b" }] },
      ],
      ["edit_file", { path: "/r/a.txt", edits: [{ oldText: "a" }], dryRun: true }, "refused"],
      ["list_directory_with_sizes", { path: "/r", sortBy: null }, { path: "/r" }],
      ["list_directory_with_sizes", { path: "/r", sortBy: "size" }, { path: "/r", sortBy: "size" }],
      ["list_directory_with_sizes", { path: "/r", sortBy: "colour" }, "refused"],
      ["directory_tree", { path: "/r", excludePatterns: null }, { path: "/r" }],
      ["search_files", { path: "/r", pattern: "*.md", excludePatterns: ["node_modules"] }, "same"],
      ["list_allowed_directories", {}, {}],
    ];
    for (const [name, sent, expected] of calls) {
      const decoded: Result<DecodedCall, CallDecodeError> = request.decodeCall({ name, arguments: sent });
      assert.ok(decoded.ok, JSON.stringify(decoded));
      const want = expected === "same" ? sent : expected;
      let received: unknown;
      const result: Result<unknown, ExecutionError> = await Execution.invoke(bundle, decoded.value, {
        dispatch: (context) => {
          received = context.arguments;
          return { content: [] };
        },
      });
      const tool = bundle.registry.get(name);
      assert.ok(tool !== undefined);
      // The boundary's own verdict on the decoded arguments, with the original (upgraded) schema.
      const upgraded = upgradeDraft07(tool.inputSchema);
      assert.ok(upgraded.ok);
      const original: { ok: boolean } = InputSchema.validate(upgraded.value.schema, decoded.value.arguments);
      assert.equal(result.ok, original.ok, `${name} ${JSON.stringify(sent)}`);
      if (want === "refused") {
        assert.ok(!result.ok);
        assert.equal(result.error.code, "arguments_invalid");
        assert.equal(received, undefined, "nothing is dispatched");
      } else {
        assert.ok(result.ok, `${name} ${JSON.stringify(sent)}: ${result.ok ? "" : result.error.message}`);
        assert.deepEqual(received, want);
      }
    }
  });
});
