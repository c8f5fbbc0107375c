/**
 * Provider targets at admission through the public API (docs/guide/providers.md "At admission"): `admitBatch`'s
 * `targets`, the strict and quarantine outcomes of a required target, report-only targets, collisions and budgets over
 * the batch, draft-07 tools checked as upgraded, widening behind the boundary, `bundle.forTarget` / `bundle.targets`,
 * the option's checks, and a conversation's targets.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Conversation,
  Execution,
  ToolCatalog,
  type AdmitOptions,
  type AdmittedBundle,
  type CatalogError,
  type ProviderError,
} from "../../../src/index.js";

type Json = Record<string, unknown>;

/** A closed object with one required string: what every built-in profile but gemini-parameters takes as it is. */
const closed = (extra: Json = {}): Json => ({
  type: "object",
  properties: { q: { type: "string", ...extra } },
  required: ["q"],
  additionalProperties: false,
});
const tool = (name: string, inputSchema: Json = closed(), more: Json = {}): Json => ({
  name,
  revision: "1",
  description: `The ${name} tool.`,
  inputSchema,
  ...more,
});

function admitted(tools: Json[], options: AdmitOptions): AdmittedBundle {
  const result = ToolCatalog.admitBatch(tools, options);
  assert.ok(result.ok, result.ok ? "" : result.error.message);
  return result.value;
}

function refused(tools: Json[], options: AdmitOptions): CatalogError {
  const result = ToolCatalog.admitBatch(tools, options);
  assert.ok(!result.ok, "the batch is refused");
  return result.error;
}

describe("admitBatch targets", () => {
  test("without targets nothing is checked: no targets, forTarget is undefined", () => {
    const bundle = admitted([tool("search")], {});
    assert.deepEqual(bundle.targets, []);
    assert.equal(bundle.forTarget("openai"), undefined);
  });

  test("a tool a required target refuses: strict refuses the batch with the rule, keyword and pointer", () => {
    const error = refused([tool("search"), tool("lookup", closed({ minLength: 1 }))], { targets: ["openai-strict"] });
    assert.equal(error.class, "unsupported_capability");
    assert.equal(error.code, "provider_unsupported");
    assert.deepEqual(error.tool, { name: "lookup", revision: "1" });
    const provider = error.provider as ProviderError;
    assert.equal(provider.profile, "openai-strict@2026-10");
    assert.equal(provider.rule, "keyword-unsupported");
    assert.equal(provider.keyword, "minLength");
    assert.equal(provider.schemaPointer, "/properties/q/minLength");
    assert.match(error.message, /^tool "lookup" \(revision 1\) cannot be sent to openai-strict@2026-10: /);
  });

  test("quarantine omits that tool: not in the registry, the tools, the pins or the authority; listed as rejected", async () => {
    const bundle = admitted([tool("search"), tool("lookup", closed({ minLength: 1 }))], {
      mode: "quarantine",
      targets: ["openai-strict"],
      authority: { grants: { search: {}, lookup: {} } },
    });
    assert.deepEqual(bundle.accepted, ["search"]);
    assert.deepEqual(
      bundle.tools.map((t) => t.name),
      ["search"],
    );
    assert.deepEqual(Object.keys(bundle.pins), ["search"]);
    assert.deepEqual(Object.keys(bundle.authority.grants ?? {}), ["search"]);
    const [rejected] = bundle.rejected;
    assert.equal(rejected?.name, "lookup");
    assert.equal(rejected?.schema, "inputSchema");
    assert.equal(rejected?.error.code, "provider_unsupported");
    assert.equal((rejected?.error as ProviderError).rule, "keyword-unsupported");
    const request = bundle.forTarget("openai-strict");
    assert.ok(request !== undefined);
    assert.equal(request.required, true);
    assert.deepEqual(
      [...request.report].map(([name, check]) => [name, check.outcome]),
      [
        ["search", "fits"],
        ["lookup", "refused"],
      ],
    );
    assert.deepEqual(
      request.tools.map((t) => (t as { function: { name: string } }).function.name),
      ["search"],
    );
    const call = await Execution.invoke(bundle, { name: "lookup", arguments: { q: "x" } }, { dispatch: () => "ran" });
    assert.ok(!call.ok);
    assert.equal(call.error.code, "tool_quarantined");
  });

  test("required: false only reports: every tool admitted, the refused one left out of that target's tools", () => {
    const bundle = admitted([tool("search"), tool("lookup", closed({ minLength: 1 }))], {
      targets: [{ target: "openai-strict", required: false }, "anthropic"],
    });
    assert.deepEqual(bundle.accepted, ["search", "lookup"]);
    assert.deepEqual(bundle.targets, ["openai-strict@2026-10", "anthropic@2026-10"]);
    const openai = bundle.forTarget("openai-strict@2026-10");
    assert.equal(openai?.required, false);
    assert.equal(openai?.report.get("lookup")?.outcome, "refused");
    assert.equal(openai?.report.get("lookup")?.error?.schemaPointer, "/properties/q/minLength");
    assert.equal(openai?.tools.length, 1);
    assert.equal(bundle.forTarget("anthropic")?.tools.length, 2);
  });

  test("exact translations are listed and sent; renamed tools map back to the bundle's names", () => {
    const bundle = admitted([tool("files.read", { type: "object", properties: { mode: { const: "fast" } } })], {
      targets: ["gemini-parameters", "openai"],
    });
    const gemini = bundle.forTarget("gemini-parameters");
    const check = gemini?.report.get("files.read");
    assert.equal(check?.outcome, "translated");
    assert.deepEqual(
      check?.changes.map((c) => [c.kind, c.change, c.pointer]),
      [["exact", "const-to-enum", "/properties/mode/const"]],
    );
    const openai = bundle.forTarget("openai");
    assert.equal(openai?.names.mcpName("files_read"), "files.read");
    assert.equal(openai?.names.providerName("files.read"), "files_read");
    // The bundle keeps the published tool: translation is for the provider request only.
    assert.deepEqual(bundle.tools[0]?.inputSchema, { type: "object", properties: { mode: { const: "fast" } } });
  });

  test("widened for the model, enforced here: the widened schema goes to the provider, the call meets the original", async () => {
    const bundle = admitted([tool("lookup", closed({ minLength: 3 }))], {
      targets: [{ target: "openai-strict", widen: true, describeWidening: true }],
    });
    const request = bundle.forTarget("openai-strict");
    const check = request?.report.get("lookup");
    assert.equal(check?.outcome, "widened");
    assert.deepEqual(
      check?.changes.map((c) => [c.kind, c.keyword, c.pointer, c.dropped]),
      [["widened", "minLength", "/properties/q/minLength", 3]],
    );
    const sent = (request?.tools[0] as { function: { parameters: Json; description: string } }).function;
    assert.deepEqual(sent.parameters, closed());
    assert.match(sent.description, /minLength/);
    const short = await Execution.invoke(bundle, { name: "lookup", arguments: { q: "ab" } }, { dispatch: () => "ran" });
    assert.ok(!short.ok);
    assert.equal(short.error.stage, "arguments");
    assert.ok(
      (await Execution.invoke(bundle, { name: "lookup", arguments: { q: "abc" } }, { dispatch: () => "ran" })).ok,
    );
  });

  test("a draft-07 tool is checked as admission upgraded it, with pointers into the upgraded schema", () => {
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", ...closed() };
    const error = refused([tool("old", draft07)], { targets: ["openai"] });
    assert.equal(error.code, "schema_rejected", "without draft07: upgrade, the boundary refuses it first");
    const bundle = admitted([tool("old", draft07)], { draft07: "upgrade", targets: ["openai"] });
    const check = bundle.forTarget("openai")?.report.get("old");
    assert.ok(check?.outcome === "fits" || check?.outcome === "translated", check?.error?.message);
    assert.notEqual(check?.error?.rule, "dialect");
  });

  test("two tools with one provider name: strict refuses the batch, quarantine omits both", async () => {
    const tools = [tool("a.b"), tool("a_b"), tool("c")];
    const error = refused(tools, { targets: ["openai"] });
    assert.equal(error.code, "provider_unsupported");
    assert.equal(error.provider?.rule, "tool-name-collision");
    const bundle = admitted(tools, { mode: "quarantine", targets: ["openai"] });
    assert.deepEqual(bundle.accepted, ["c"]);
    assert.deepEqual(
      bundle.rejected.map((r) => [r.name, (r.error as ProviderError).rule]),
      [
        ["a.b", "tool-name-collision"],
        ["a_b", "tool-name-collision"],
      ],
    );
    assert.deepEqual([...(bundle.forTarget("openai")?.report.keys() ?? [])], ["a.b", "a_b", "c"]);
    assert.equal(bundle.forTarget("openai")?.report.get("a.b")?.outcome, "refused");
    assert.equal(bundle.forTarget("openai")?.tools.length, 1);
    const call = await Execution.invoke(bundle, { name: "a.b", arguments: { q: "x" } }, { dispatch: () => "ran" });
    assert.deepEqual(call.ok ? [] : [call.error.class, call.error.code], [
      "unsupported_capability",
      "tool_quarantined",
    ]);
  });

  test("a per-request budget over the batch: strict refuses it, quarantine reports it on the request", () => {
    const tools = Array.from({ length: 21 }, (_, i) => tool(`t${i}`));
    const error = refused(tools, { targets: ["anthropic-strict"] });
    assert.equal(error.class, "unsupported_capability");
    assert.equal(error.provider?.rule, "max-strict-tools");
    assert.equal(error.tool, undefined);
    assert.match(error.message, /^the batch cannot be sent to anthropic-strict@2026-10: 21 strict tools/);
    const bundle = admitted(tools, { mode: "quarantine", targets: ["anthropic-strict"] });
    assert.equal(bundle.accepted.length, 21);
    assert.deepEqual(
      bundle.forTarget("anthropic-strict")?.errors.map((e) => e.rule),
      ["max-strict-tools"],
    );
    assert.equal(admitted(tools.slice(0, 20), { targets: ["anthropic-strict"] }).accepted.length, 20);
  });

  test("a target that cannot be used is options_invalid, before anything is admitted; it never throws", () => {
    const cases: [unknown, RegExp][] = [
      [[], /must be a non-empty array/],
      ["openai", /must be a non-empty array/],
      [["openai-strik"], /unknown provider profile "openai-strik"/],
      [["openai", "openai@2026-10"], /named twice/],
      [[{ target: "openai", requird: false }], /"requird" \(did you mean "required"\?/],
      [[{ target: "openai", widen: "yes" }], /"widen" must be a boolean/],
      [[42], /a target must be a profile id or a profile/],
      [
        [
          {
            target: "openai",
            get required(): boolean {
              throw new Error("trap");
            },
          },
        ],
        /could not be read: trap/,
      ],
    ];
    for (const [targets, message] of cases) {
      const error = refused([tool("search")], { targets } as AdmitOptions);
      assert.equal(error.code, "options_invalid", String(targets));
      assert.match(error.message, message);
    }
  });

  test("forTarget takes an id or a bare name (the newest version checked); an unchecked profile is undefined", () => {
    const bundle = admitted([tool("search")], { targets: ["openai@2026-10"] });
    assert.equal(bundle.forTarget("openai")?.profile, "openai@2026-10");
    assert.equal(bundle.forTarget("openai@2026-10")?.profile, "openai@2026-10");
    assert.equal(bundle.forTarget("anthropic"), undefined);
    assert.equal(bundle.forTarget("openai@2025-01"), undefined);
    assert.equal(JSON.stringify(bundle).includes("report"), false, "requests are not serialised with the bundle");
  });
});

describe("a conversation's targets", () => {
  test("every catalog is checked; an update can replace the targets", () => {
    const conversation = Conversation.start({ tools: [tool("search")], targets: ["openai-strict"] });
    assert.equal(conversation.current.forTarget("openai-strict")?.tools.length, 1);
    const widened = conversation.updateCatalog([tool("search"), tool("lookup", closed({ minLength: 1 }))]);
    assert.ok(!widened.ok, "the required target refuses the update; the catalog in force stays");
    assert.equal(widened.error.provider?.rule, "keyword-unsupported");
    assert.deepEqual(conversation.current.accepted, ["search"]);
    const update = conversation.updateCatalog([tool("search"), tool("lookup", closed({ minLength: 1 }))], {
      targets: ["anthropic"],
    });
    assert.ok(update.ok);
    assert.deepEqual(conversation.current.targets, ["anthropic@2026-10"]);
    assert.equal(conversation.current.forTarget("anthropic")?.tools.length, 2);
  });

  test("a misspelt target is refused as a Conversation.start option", () => {
    const started = Conversation.tryStart({ tools: [tool("search")], targets: ["gemini-parameter"] });
    assert.ok(!started.ok);
    assert.equal(started.error.code, "options_invalid");
    assert.match(started.error.message, /^Conversation\.start option "targets" unknown provider profile/);
  });
});
