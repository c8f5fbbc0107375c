import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ToolCatalog, type AdmittedBundle, type CatalogError } from "../../../src/index.js";
import { DRAFT_07, tool } from "../helpers.js";

const backends = ["b"];

function admitted(tools: unknown[], options = {}): AdmittedBundle {
  const r = ToolCatalog.admitBatch(tools, { backends, ...options });
  if (!r.ok) assert.fail(`expected admission, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

function refused(tools: unknown[], options = {}): CatalogError {
  const r = ToolCatalog.admitBatch(tools, { backends, ...options });
  assert.equal(r.ok, false, "expected the batch to fail");
  return (r as { ok: false; error: CatalogError }).error;
}

describe("modes", () => {
  test("strict is the default: an unsupported dialect fails the batch", () => {
    const e = refused([tool("a"), tool("old", DRAFT_07)]);
    assert.equal(e.class, "unsupported_capability");
    assert.deepEqual(e.tool, { name: "old", revision: "r1" });
    assert.equal(e.cause?.code, "dialect_unsupported");
  });
  test("quarantine omits only unsupported_capability tools", () => {
    const bundle = admitted([tool("a"), tool("old", DRAFT_07), tool("b")], { mode: "quarantine" });
    assert.deepEqual(bundle.accepted, ["a", "b"]);
    assert.deepEqual(
      bundle.rejected.map((r) => r.name),
      ["old"],
    );
    assert.equal(bundle.rejected[0]?.error.class, "unsupported_capability");
    assert.equal(bundle.rejected[0]?.revision, "r1");
  });
  const fatal: [string, unknown[], string, string][] = [
    [
      "schema validation error",
      [tool("a", { type: "object", properties: { x: { type: "strin" } } })],
      "validation",
      "schema_rejected",
    ],
    ["unresolved reference", [tool("a", { type: "object", $ref: "#/$defs/missing" })], "validation", "schema_rejected"],
    [
      "missing revision",
      [{ name: "a", backend: "b", inputSchema: { type: "object" } }],
      "validation",
      "tool_revision_missing",
    ],
    ["empty revision", [tool("a", { type: "object" }, { revision: "" })], "validation", "tool_revision_missing"],
    [
      "non-string description",
      [tool("a", { type: "object" }, { description: 5 })],
      "validation",
      "tool_description_invalid",
    ],
    ["unknown backend", [tool("a", { type: "object" }, { backend: "nope" })], "validation", "backend_unknown"],
    ["duplicate names", [tool("a"), tool("a")], "validation", "tool_duplicate"],
    [
      "a limit",
      [tool("a", { type: "object", properties: { a: { properties: { a: { properties: { a: {} } } } } } })],
      "execution_failure",
      "schema_rejected",
    ],
  ];
  for (const [name, tools, cls] of fatal) {
    test(`${name} rejects the tool alone in isolate mode (refused, with its error)`, () => {
      const bundle = admitted([tool("ok"), ...tools, tool("after")], {
        mode: "isolate",
        limits: { maxSchemaDepth: name === "a limit" ? 2 : 128 },
      });
      const listed = name === "duplicate names" ? ["ok", "a", "after"] : ["ok", "after"];
      assert.deepEqual(bundle.accepted, listed);
      assert.deepEqual(
        bundle.rejected.map((r) => [r.name, r.status, r.error.class]),
        [["a", "refused", cls]],
      );
    });
  }
  test("isolate: a descriptor that is not an object is rejected alone; batch errors still fail the batch", () => {
    const bundle = admitted([tool("ok"), 5, null], { mode: "isolate" });
    assert.deepEqual(bundle.accepted, ["ok"]);
    assert.deepEqual(
      bundle.rejected.map((r) => [r.name, r.status, r.error.code]),
      [
        ["", "refused", "tool_invalid"],
        ["", "refused", "tool_invalid"],
      ],
    );
    assert.equal(
      refused([tool("ok")], { mode: "isolate", authority: { grants: { nope: {} } } }).code,
      "grant_unknown_tool",
    );
    assert.equal(refused([tool("ok")], { mode: "isolated" }).code, "options_invalid");
  });
  for (const mode of ["strict", "quarantine"] as const) {
    for (const [name, tools, cls, code] of fatal) {
      test(`${name} is fatal in ${mode} mode`, () => {
        const e = refused([tool("ok"), ...tools], { mode, limits: { maxSchemaDepth: name === "a limit" ? 2 : 128 } });
        assert.equal(e.class, cls);
        assert.equal(e.code, code);
      });
    }
    // A name that breaks the MCP rules is a tool's problem (SHOULDs in the specification, which both SDKs only warn
    // about): strict mode refuses the batch, quarantine refuses the tool alone and says so.
    const badNames: [string, Record<string, unknown>, string][] = [
      ["missing name", { revision: "r", backend: "b", inputSchema: { type: "object" } }, ""],
      ["invalid name", tool("has space"), "has space"],
      ["name longer than 128", tool("x".repeat(129)), "x".repeat(129)],
    ];
    for (const [name, bad, listed] of badNames) {
      test(`${name} is tool_name_invalid: ${mode === "strict" ? "the batch is refused" : "the tool is refused"}`, () => {
        const r = ToolCatalog.admitBatch([tool("ok"), bad, tool("ok2")], { backends: ["b"], mode });
        if (mode === "strict") {
          assert.equal(!r.ok && r.error.code, "tool_name_invalid");
          return;
        }
        assert.ok(r.ok);
        assert.deepEqual(r.value.accepted, ["ok", "ok2"]);
        const [rejected, ...rest] = r.value.rejected;
        assert.deepEqual(rest, []);
        assert.deepEqual(
          [rejected?.name, rejected?.status, rejected?.error.code],
          [listed, "refused", "tool_name_invalid"],
        );
      });
    }
    test(`authority problems are fatal in ${mode} mode`, () => {
      assert.equal(refused([tool("a")], { mode, authority: "nope" }).code, "authority_invalid");
      assert.equal(refused([tool("a")], { mode, authority: { grants: [] } }).code, "authority_invalid");
      assert.equal(refused([tool("a")], { mode, authority: { grants: { ghost: {} } } }).code, "grant_unknown_tool");
    });
  }
  test("the error names the tool, its revision and the original structured error", () => {
    const e = refused([tool("a", { type: "object", minProperties: -1 }, { revision: "2026.1" })]);
    assert.deepEqual(e.tool, { name: "a", revision: "2026.1" });
    assert.equal(e.cause?.code, "schema_invalid");
    assert.equal(e.cause?.schemaPointer, "/minProperties");
  });
});

describe("the bundle", () => {
  test("registry, provider tools, accepted and rejected keep input order; schemas are the same objects", () => {
    const schemaC = { type: "object", properties: { q: { type: "string" } } };
    const tools = [
      tool("c", schemaC, { outputSchema: { type: "object" }, annotations: { readOnlyHint: true } }),
      tool("old1", DRAFT_07),
      tool("a"),
      tool("old2", DRAFT_07),
    ];
    const bundle = admitted(tools, { mode: "quarantine" });
    assert.deepEqual(bundle.accepted, ["c", "a"]);
    assert.deepEqual(
      bundle.rejected.map((r) => r.name),
      ["old1", "old2"],
    );
    assert.deepEqual(
      bundle.tools.map((t) => t.name),
      ["c", "a"],
    );
    assert.equal(bundle.tools[0]?.inputSchema, schemaC);
    assert.equal(bundle.registry.get("c")?.inputSchema, schemaC);
    assert.deepEqual(bundle.tools[0], {
      name: "c",
      description: "the c tool",
      inputSchema: schemaC,
      outputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    });
    assert.equal(bundle.registry.get("c")?.compiled.validate({ q: "x" }).ok, true);
  });
  test("registry lookups cannot be fooled by prototype names", () => {
    const bundle = admitted([tool("a")]);
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"])
      assert.equal(bundle.registry.get(name), undefined);
    const proto = admitted([tool("__proto__"), tool("constructor")]);
    assert.deepEqual([...proto.registry.keys()], ["__proto__", "constructor"]);
  });
  test("grants are narrowed only for rejected tools; other authority fields kept; the input untouched", () => {
    const authority = {
      caller: "user-1",
      run: "run-7",
      tenant: { id: 3 },
      grants: { a: { scope: "read" }, old: { scope: "all" } },
    };
    const before = JSON.stringify(authority);
    const bundle = admitted([tool("a"), tool("old", DRAFT_07)], { mode: "quarantine", authority });
    assert.deepEqual(bundle.authority, {
      caller: "user-1",
      run: "run-7",
      tenant: { id: 3 },
      grants: { a: { scope: "read" } },
    });
    assert.equal(JSON.stringify(authority), before);
    assert.notEqual(bundle.authority, authority);
  });
  test("empty input gives an empty registry, empty tools and empty grants", () => {
    const bundle = admitted([], { authority: { caller: "c", grants: {} } });
    assert.equal(bundle.registry.size, 0);
    assert.deepEqual(bundle.tools, []);
    assert.deepEqual(bundle.authority, { caller: "c", grants: {} });
  });
  test("an authority without grants stays without grants (grants are not enforced), none gives {}", () => {
    assert.deepEqual(admitted([tool("a")], { authority: { caller: "c" } }).authority, { caller: "c" });
    assert.deepEqual(admitted([]).authority, {});
  });
  test("a quarantine batch where every tool is rejected is empty", () => {
    const bundle = admitted([tool("x", DRAFT_07), tool("y", DRAFT_07)], {
      mode: "quarantine",
      authority: { grants: { x: 1, y: 2 } },
    });
    assert.equal(bundle.registry.size, 0);
    assert.deepEqual(bundle.tools, []);
    assert.deepEqual(bundle.authority.grants, {});
    assert.equal(bundle.rejected.length, 2);
  });
});

describe("rejected diagnostics cannot leak", () => {
  const bundle = admitted([tool("a"), tool("secret_tool", { ...DRAFT_07, description: "internal-detail" })], {
    mode: "quarantine",
    authority: { grants: { a: 1, secret_tool: 2 } },
  });
  test("JSON.stringify of the bundle", () => {
    const text = JSON.stringify(bundle);
    assert.ok(!text.includes("secret_tool"));
    assert.ok(!text.includes("draft-07"));
  });
  test("JSON.stringify of the provider tools", () => {
    assert.ok(!JSON.stringify(bundle.tools).includes("secret_tool"));
  });
  test("a diagnostic serialises to a redaction even when reached directly", () => {
    const text = JSON.stringify({ rejected: bundle.rejected });
    assert.ok(!text.includes("draft-07"));
    assert.ok(!text.includes("dialect_unsupported"));
    assert.equal(bundle.rejected[0]?.error.code, "dialect_unsupported", "the host can still read it");
  });
});

describe("descriptor fidelity", () => {
  test("provider tools carry every MCP field unchanged, unknown ones too, but revision, backend and _meta", () => {
    const icons = [{ src: "https://example.test/icon.png", mimeType: "image/png" }];
    const execution = { taskSupport: "required" };
    const meta = { "io.example/owner": "team-a" };
    const future = { anything: [1, 2] };
    const outputSchema = { type: "object", properties: { n: { type: "integer" } } };
    const descriptor = tool(
      "full",
      { type: "object" },
      {
        title: "Full tool",
        icons,
        execution,
        _meta: meta,
        outputSchema,
        annotations: { readOnlyHint: true },
        "x-future-field": future,
      },
    );
    const bundle = admitted([descriptor]);
    const provider = bundle.tools[0]!;
    const { revision: _r, backend: _b, _meta: _m, ...rest } = descriptor as Record<string, unknown>;
    const mcp: Record<string, unknown> = rest;
    assert.deepEqual(provider, mcp);
    for (const key of Object.keys(mcp)) assert.equal(provider[key], mcp[key], key);
    assert.equal(provider.execution, execution, "the same object");
    assert.ok(!Object.hasOwn(provider, "revision") && !Object.hasOwn(provider, "backend"));
    // _meta is protocol metadata for clients, neither pinned nor scanned: kept for the host, never shown to a model.
    assert.ok(!Object.hasOwn(provider, "_meta"));
    assert.equal(bundle.registry.get("full")?.meta, meta, "the registry keeps the very _meta");
    assert.equal(bundle.registry.get("full")?.taskSupport, "required");
    assert.equal(bundle.registry.get("full")?.provider, provider, "the registry holds the very provider tool");
    assert.equal(JSON.parse(JSON.stringify(bundle)).tools[0].execution.taskSupport, "required");
  });
  test("a prototype-named field is an own field of the provider tool and reaches no prototype", () => {
    const descriptor = JSON.parse(
      '{"name":"p","revision":"1","backend":"b","inputSchema":{"type":"object"},"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const provider = admitted([descriptor]).tools[0]!;
    assert.ok(Object.hasOwn(provider, "__proto__"));
    assert.equal(Object.getPrototypeOf(provider), Object.prototype);
    assert.equal((provider as Record<string, unknown>)["polluted"], undefined);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(provider))["__proto__"], { polluted: true });
  });
});

describe("output schemas are admitted too", () => {
  const DRAFT_07_OUTPUT = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };
  for (const mode of ["strict", "quarantine"] as const) {
    test(`an invalid outputSchema fails the batch in ${mode} mode, naming the schema`, () => {
      const e = refused([tool("ok"), tool("bad", { type: "object" }, { outputSchema: { type: "strin" } })], { mode });
      assert.equal(e.code, "schema_rejected");
      assert.equal(e.class, "validation");
      assert.equal(e.schema, "outputSchema");
      assert.equal(e.cause?.code, "schema_invalid");
      assert.deepEqual(e.tool, { name: "bad", revision: "r1" });
      assert.match(e.message, /outputSchema/);
    });
    test(`an unresolved reference or a non-schema outputSchema is fatal in ${mode} mode`, () => {
      for (const outputSchema of [{ $ref: "#/$defs/nope" }, "object", null, 5]) {
        const e = refused([tool("bad", { type: "object" }, { outputSchema })], { mode });
        assert.equal(e.schema, "outputSchema", JSON.stringify(outputSchema));
      }
    });
  }
  test("strict: a draft-07 outputSchema fails the batch as unsupported_capability", () => {
    const e = refused([tool("a", { type: "object" }, { outputSchema: DRAFT_07_OUTPUT })]);
    assert.equal(e.class, "unsupported_capability");
    assert.equal(e.schema, "outputSchema");
    assert.equal(e.cause?.code, "dialect_unsupported");
  });
  test("quarantine: a draft-07 outputSchema omits the tool, and the diagnostic says which schema", () => {
    const bundle = admitted([tool("a"), tool("b", { type: "object" }, { outputSchema: DRAFT_07_OUTPUT })], {
      mode: "quarantine",
      authority: { grants: { a: 1, b: 2 } },
    });
    assert.deepEqual(bundle.accepted, ["a"]);
    assert.deepEqual(
      bundle.rejected.map((r) => [r.name, r.schema, r.error.code]),
      [["b", "outputSchema", "dialect_unsupported"]],
    );
    assert.deepEqual(bundle.authority.grants, { a: 1 });
    assert.equal(JSON.stringify(bundle.rejected), '["[rejected tool diagnostic redacted]"]');
  });
  test("quarantine: an unsupported input schema does not hide a broken output schema", () => {
    const e = refused([tool("a", DRAFT_07, { outputSchema: { type: "strin" } })], { mode: "quarantine" });
    assert.equal(e.class, "validation");
    assert.equal(e.schema, "outputSchema");
  });
  test("admitted output schemas of any root are compiled; the same schema values are kept", () => {
    const schemas: unknown[] = [{ type: "object" }, { type: "array" }, { type: "string" }, true, false];
    const tools = schemas.map((outputSchema, i) => tool(`t${i}`, { type: "object" }, { outputSchema }));
    const bundle = admitted([...tools, tool("none"), tool("undef", { type: "object" }, { outputSchema: undefined })]);
    schemas.forEach((schema, i) => {
      const t = bundle.registry.get(`t${i}`);
      assert.equal(t?.outputSchema, schema);
      assert.equal(t?.provider.outputSchema, schema);
      assert.equal(t?.compiledOutput?.schema, schema);
    });
    assert.equal(bundle.registry.get("none")?.compiledOutput, undefined);
    assert.equal(bundle.registry.get("undef")?.compiledOutput, undefined);
    assert.equal(bundle.registry.get("t3")?.compiledOutput?.validate(42).ok, true);
    assert.equal(bundle.registry.get("t4")?.compiledOutput?.validate(42).ok, false);
  });
});

describe("admission options fail closed", () => {
  for (const [label, options] of [
    ["a misspelt option, even for an empty batch", { mode: "strict", formatAsertion: true }],
    ["a misspelt batch option", { modes: "quarantine" }],
    ["a malformed mode", { mode: "lenient" }],
    ["malformed backends", { backends: "b" }],
    ["a malformed boundary option", { formatAssertion: "yes" }],
  ] as [string, Record<string, unknown>][]) {
    test(`${label} is options_invalid`, () => {
      for (const tools of [[], [tool("a")]]) {
        const r = ToolCatalog.admitBatch(tools, { backends, ...options } as never);
        assert.equal(r.ok, false);
        assert.equal((r as { ok: false; error: CatalogError }).error.code, "options_invalid");
      }
    });
  }
});
