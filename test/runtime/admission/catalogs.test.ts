/** fixtures/catalogs and the real MCP corpus through batch admission. */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { Execution, ToolCatalog } from "../../../src/index.js";
import { repoRoot } from "../../suite/locate.js";
import { readCatalog, sampleResult } from "../helpers.js";

const files = readdirSync(join(repoRoot, "fixtures", "catalogs"))
  .filter((f) => f.endsWith(".json") && f !== "broken.json")
  .sort();

describe("fixtures/catalogs", () => {
  for (const file of files) {
    test(`${file}: admitted unchanged in quarantine mode, draft-07 tools quarantined, every call judged as recorded`, async () => {
      const catalog = readCatalog(file);
      const before = JSON.stringify(catalog.tools);
      const r = ToolCatalog.admitBatch(catalog.tools, { mode: "quarantine", backends: catalog.backends });
      if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
      const bundle = r.value;
      const draft07 = catalog.tools
        .filter((t) => String(t.inputSchema["$schema"] ?? "").includes("draft-07"))
        .map((t) => t.name);
      assert.deepEqual(
        bundle.rejected.map((x) => x.name),
        draft07,
      );
      for (const t of catalog.tools) {
        if (draft07.includes(t.name)) continue;
        assert.equal(bundle.registry.get(t.name)?.inputSchema, t.inputSchema, "the very same schema object");
      }
      for (const call of catalog.calls) {
        if (draft07.includes(call.tool)) continue;
        const result = await Execution.invoke(
          bundle,
          { name: call.tool, arguments: call.arguments },
          { dispatch: () => sampleResult(catalog, call.tool) },
        );
        assert.equal(result.ok, call.valid, `${call.tool}: ${call.description}`);
      }
      for (const recorded of catalog.results ?? []) {
        const judged = await Execution.invoke(
          bundle,
          { name: recorded.tool, arguments: catalog.calls.find((c) => c.tool === recorded.tool && c.valid)?.arguments },
          { dispatch: () => recorded.result },
        );
        const label = `${recorded.tool}: ${recorded.description}`;
        assert.equal(judged.ok, recorded.valid, label);
        if (judged.ok) assert.equal(judged.value, recorded.result, label);
        else assert.deepEqual([judged.error.code, judged.error.stage], ["output_invalid", "result"], label);
      }
      const withOutput = catalog.tools.filter((t) => t.outputSchema !== undefined && !draft07.includes(t.name));
      for (const t of withOutput) {
        const valid = catalog.results?.filter((r) => r.tool === t.name && r.valid) ?? [];
        assert.ok(valid.length > 0, `${file}: ${t.name} has an outputSchema and needs a valid recorded result`);
      }
      assert.equal(JSON.stringify(catalog.tools), before);
    });
  }
  test("broken.json fails a strict batch with a validation error naming the tool", () => {
    const catalog = readCatalog("broken.json");
    const r = ToolCatalog.admitBatch(catalog.tools, { backends: catalog.backends });
    assert.equal(r.ok, false);
    const e = (r as { ok: false; error: { class: string; tool?: { name: string } } }).error;
    assert.equal(e.class, "validation");
    assert.ok(e.tool !== undefined);
  });
  test("the sibling-composition case: root oneOf branches adding properties/required beside root properties", async () => {
    const schema = {
      type: "object",
      properties: { repo: { type: "string" }, name: { type: "string" } },
      required: ["repo", "name"],
      oneOf: [
        { properties: { from_branch: { type: "string" } }, required: ["from_branch"] },
        { properties: { from_sha: { type: "string", pattern: "^[0-9a-f]{40}$" } }, required: ["from_sha"] },
      ],
    };
    const r = ToolCatalog.admitBatch([{ name: "create_branch", revision: "1", backend: "gh", inputSchema: schema }], {
      backends: ["gh"],
    });
    assert.ok(r.ok);
    const call = (args: unknown) =>
      Execution.invoke(r.value, { name: "create_branch", arguments: args }, { dispatch: () => "ok" });
    assert.equal((await call({ repo: "r", name: "n", from_branch: "main" })).ok, true);
    assert.equal((await call({ repo: "r", name: "n", from_sha: "a".repeat(40) })).ok, true);
    assert.equal((await call({ repo: "r", name: "n" })).ok, false);
    assert.equal((await call({ repo: "r", name: "n", from_branch: "main", from_sha: "a".repeat(40) })).ok, false);
  });
});

const corpusPath = resolve(repoRoot, "..", "shared", "mcp-corpus", "mcp-tools.json");

describe("the real MCP corpus (../shared/mcp-corpus)", () => {
  test("each server's tools as one quarantine batch", (t) => {
    if (!existsSync(corpusPath)) {
      t.skip(`corpus not found at ${corpusPath}`);
      return;
    }
    interface Record_ {
      server: string;
      name: string;
      commit?: string;
      description?: unknown;
      inputSchema: Record<string, unknown>;
    }
    const records = JSON.parse(readFileSync(corpusPath, "utf8")) as Record_[];
    const servers = new Map<string, Record_[]>();
    for (const r of records) servers.set(r.server, [...(servers.get(r.server) ?? []), r]);
    const failed: string[] = [];
    let accepted = 0;
    let quarantined = 0;
    for (const [server, list] of servers) {
      const before = JSON.stringify(list);
      const tools = list.map((r) => ({
        name: r.name,
        revision: r.commit ?? "published",
        backend: server,
        inputSchema: r.inputSchema,
        ...(typeof r.description === "string" ? { description: r.description } : {}),
      }));
      const result = ToolCatalog.admitBatch(tools, { mode: "quarantine", backends: [server] });
      if (!result.ok) {
        assert.equal(result.error.class, "validation", server);
        failed.push(`${server}: ${result.error.tool?.name}`);
        continue;
      }
      const otherDialect = list
        .filter((r) => {
          const s = r.inputSchema["$schema"];
          return (
            s !== undefined &&
            s !== "https://json-schema.org/draft/2020-12/schema" &&
            s !== "https://json-schema.org/draft/2020-12/schema#"
          );
        })
        .map((r) => r.name);
      assert.deepEqual(
        result.value.rejected.map((x) => x.name),
        otherDialect,
        server,
      );
      for (const r of list) {
        if (otherDialect.includes(r.name)) continue;
        assert.equal(result.value.registry.get(r.name)?.inputSchema, r.inputSchema, `${server}/${r.name} unchanged`);
      }
      accepted += result.value.accepted.length;
      quarantined += result.value.rejected.length;
      assert.equal(JSON.stringify(list), before);
    }
    assert.deepEqual(failed, ["PDF Reader MCP Server [pdf-reader-mcp]: read_pdf"]);
    t.diagnostic(
      `${servers.size} servers: ${accepted} tools accepted, ${quarantined} quarantined, 1 batch refused (${failed[0]})`,
    );
  });
});
