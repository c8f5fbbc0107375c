/**
 * One error family (issue 43, section 3): every error a public entry point returns or throws, in representative
 * failing cases, is a `BackplaneError` (a class of the three, a code of its layer's closed table, a string message),
 * and so is every error it carries (`cause`, `provider`). The codes are checked against the tables that write
 * docs/reference/errors.md "Every code", layer by layer.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkCatalog,
  checkTool,
  compile,
  Conversation,
  CatalogAdmissionError,
  defineProfile,
  ElicitationSchema,
  Execution,
  InputSchema,
  LimitError,
  OutputSchema,
  resolveProfile,
  resolveTargets,
  SchemaError,
  ToolCatalog,
  upgradeDraft07,
  upgradeDraft07Documents,
  upgradeLegacyDocuments,
  upgradeLegacySchema,
  type ProfileSpec,
  type Result,
} from "../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";
import { isBackplaneError } from "../../src/runtime/errors/backplane-error.js";
import { ERROR_LAYERS } from "../../src/runtime/errors/codes.js";

/** The codes of the layers titled `titles` (docs/reference/errors.md "Every code"). */
function codesOf(...titles: string[]): Set<string> {
  const codes = new Set<string>();
  for (const title of titles) {
    const layer = ERROR_LAYERS.find((l) => l.title === title);
    assert.ok(layer !== undefined, `no layer "${title}"`);
    for (const code of Object.keys(layer.codes)) codes.add(code);
  }
  return codes;
}

const ENGINE = codesOf("Engine");
const BOUNDARY = codesOf("Engine", "Boundary");
const UPGRADE = codesOf("Dialect upgrades");
const ELICITATION = codesOf("Engine", "Boundary", "Elicitation");
const IDENTITY = codesOf("Identity");
const CATALOG = codesOf("Admission", "Conversation");
const PROVIDER = codesOf("Provider checks");
const DECODE = codesOf("Call decoder");
const GATEWAY = codesOf("Engine", "Boundary", "Gateway");

/** Asserts `error` is a member of the family with a code of `codes`, and so is every error it carries. */
function member(error: unknown, codes: ReadonlySet<string>, where: string): void {
  assert.ok(isBackplaneError(error), `${where}: not a BackplaneError: ${String(error)} ${JSON.stringify(error)}`);
  assert.ok(codes.has(error.code), `${where}: code ${error.code} is not one of its layer's`);
  const carried = error as { cause?: unknown; provider?: unknown };
  if (isBackplaneError(carried.cause)) member(carried.cause, codesOf(...ERROR_LAYERS.map((l) => l.title)), where);
  if (carried.provider !== undefined) member(carried.provider, PROVIDER, `${where} provider`);
}

/** The error of a failed Result (the case must fail). */
function failed<T, E>(result: Result<T, E>, where: string): E {
  assert.equal(result.ok, false, `${where} should fail`);
  return (result as { ok: false; error: E }).error;
}

/** What `run` throws (it must throw). */
function thrown(run: () => unknown, where: string): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  assert.fail(`${where} should throw`);
}

const tool = { name: "t", revision: "1", inputSchema: { type: "object" } };

test("the engine's throws: compile, validate and annotations, the MCP provider's constructor", () => {
  const cases: [string, () => unknown][] = [
    ["compile bad schema", () => compile({ type: 12 })],
    ["compile unresolved $ref", () => compile({ $ref: "#/nowhere" })],
    ["compile unknown option", () => compile({}, { formatAsertion: true } as never)],
    ["compile draft-04", () => compile({ $schema: "http://json-schema.org/draft-04/schema#" })],
    ["compile limit", () => compile({ allOf: [{}, {}, {}] }, { limits: { maxSchemaNodes: 2 } })],
    ["validate unknown output", () => compile({}).validate(1, { output: "bogus" } as never)],
    ["annotations bad options", () => compile({}).annotations(1, { bogus: true } as never)],
    ["MCP provider bad options", () => new BackplaneJsonSchemaValidator({ bogus: 1 } as never)],
  ];
  for (const [where, run] of cases) {
    const e = thrown(run, where);
    assert.ok(e instanceof SchemaError, `${where}: a SchemaError`);
    member(e, BOUNDARY, where);
  }
  assert.ok(thrown(cases[4]![1], "limit") instanceof LimitError);
});

test("the boundary's results: InputSchema, OutputSchema, compiled validators, ElicitationSchema", () => {
  const input = InputSchema.validateSchema({ type: "object", properties: { n: { type: "integer" } } });
  assert.ok(input.ok);
  const cases: [string, Result<unknown, unknown>, ReadonlySet<string>][] = [
    ["InputSchema root", InputSchema.validateSchema({ type: "string" }), BOUNDARY],
    ["InputSchema bad schema", InputSchema.validateSchema({ type: "object", minProperties: -1 }), BOUNDARY],
    ["InputSchema options", InputSchema.validateSchema({ type: "object" }, { bogus: 1 } as never), BOUNDARY],
    ["InputSchema arguments", input.value.validate({ n: "x" }), BOUNDARY],
    ["InputSchema not JSON", input.value.validate({ n: () => 1 }), BOUNDARY],
    ["OutputSchema result", OutputSchema.validate({ type: "integer" }, "x"), BOUNDARY],
    ["OutputSchema schema", OutputSchema.validateSchema({ $ref: "#/x" }), BOUNDARY],
    ["Elicitation subset", ElicitationSchema.validateSchema({ type: "object", properties: { o: {} } }), ELICITATION],
    ["Elicitation result", ElicitationSchema.validate({ type: "object" }, { action: "maybe" }), ELICITATION],
  ];
  for (const [where, result, codes] of cases) member(failed(result, where), codes, where);
});

test("the dialect upgrades' results", () => {
  const blocked = { $schema: "http://json-schema.org/draft-07/schema#", $ref: "#/nowhere" };
  const cases: [string, { ok: boolean }][] = [
    ["upgradeDraft07 blocked", upgradeDraft07(blocked)],
    ["upgradeDraft07 not JSON", upgradeDraft07({ type: () => 1 })],
    ["upgradeLegacySchema", upgradeLegacySchema({ $schema: "http://json-schema.org/draft-04/schema#", x: 1n })],
    ["upgradeDraft07Documents", upgradeDraft07Documents(new Map([["urn:a", blocked]]))],
    ["upgradeLegacyDocuments", upgradeLegacyDocuments(new Map([["urn:a", blocked]]))],
  ];
  for (const [where, result] of cases) {
    assert.equal(result.ok, false, where);
    const e = result as { ok: false; error?: unknown; blocked?: readonly unknown[] };
    const errors = [...(e.error === undefined ? [] : [e.error]), ...(e.blocked ?? [])];
    assert.ok(errors.length > 0, `${where}: an error`);
    for (const error of errors) member(error, UPGRADE, where);
  }
});

test("the identity's throws and rejections: ToolCatalog.canonical and digest", async () => {
  member(
    thrown(() => ToolCatalog.canonical(42), "canonical"),
    IDENTITY,
    "canonical not an object",
  );
  member(
    thrown(() => ToolCatalog.canonical({ ...tool, x: () => 1 }), "canonical"),
    IDENTITY,
    "canonical not JSON",
  );
  const rejected = await ToolCatalog.digest(42).then(
    () => assert.fail("digest should reject"),
    (e: unknown) => e,
  );
  member(rejected, IDENTITY, "digest");
});

test("admission and conversations: every CatalogError, the schema's cause, the provider refusal, the thrown one", () => {
  const admitted = ToolCatalog.admitBatch([tool]);
  assert.ok(admitted.ok);
  const cases: [string, Result<unknown, unknown>][] = [
    ["admitBatch options", ToolCatalog.admitBatch([tool], { bogus: 1 } as never)],
    ["admitBatch catalog", ToolCatalog.admitBatch(42 as never)],
    ["admitBatch name", ToolCatalog.admitBatch([{ ...tool, name: "a b" }])],
    ["admitBatch revision", ToolCatalog.admitBatch([{ name: "t", inputSchema: { type: "object" } }])],
    ["admitBatch schema", ToolCatalog.admitBatch([{ ...tool, inputSchema: { type: "object", $ref: "#/x" } }])],
    ["admitBatch namespace", ToolCatalog.admitBatch([tool], { namespace: { a: "p" } })],
    ["admitBatch pins", ToolCatalog.admitBatch([tool], { pins: 42 as never })],
    ["admitBatch pin text", ToolCatalog.admitBatch([tool], { pins: { t: "{not json" } })],
    ["admitBatch target", ToolCatalog.admitBatch([tool], { targets: ["nobody"] })],
    ["admitBatch target entry", ToolCatalog.admitBatch([tool], { targets: [{ target: "openai", bogus: 1 } as never] })],
    ["admitBatch pins key", ToolCatalog.admitBatch([tool], { pins: new Map([[1 as never, "{}"]]) })],
    [
      "admitBatch provider",
      ToolCatalog.admitBatch([{ ...tool, inputSchema: { type: "object", properties: { a: { type: "string" } } } }], {
        targets: ["openai-strict"],
      }),
    ],
    ["tryStart options", Conversation.tryStart(42 as never)],
    ["tryStart unreadable", Conversation.tryStart(throwingOptions())],
    ["restore checkpoint", Conversation.restore({ version: 2 } as never, { tools: [tool] })],
  ];
  const conversation = Conversation.start({ tools: [tool] });
  cases.push(
    ["updateCatalog options", conversation.updateCatalog([tool], { bogus: 1 } as never)],
    ["updateCatalog catalog", conversation.updateCatalog(42 as never)],
    ["approve not held", conversation.approve(["t"])],
    ["approve no names", conversation.approve([])],
  );
  for (const [where, result] of cases) member(failed(result, where), CATALOG, where);

  const schema = failed(cases[4]![1], "schema") as { cause?: unknown };
  assert.ok(isBackplaneError(schema.cause), "schema_rejected carries the boundary's error");
  const provider = failed(cases[11]![1], "provider") as { provider?: unknown };
  assert.ok(isBackplaneError(provider.provider), "provider_unsupported carries the provider's error");

  const quarantined = ToolCatalog.admitBatch(
    [{ ...tool, inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } }],
    { mode: "quarantine", hiddenText: "refuse" },
  );
  assert.ok(quarantined.ok && quarantined.value.rejected.length === 1);
  // A rejected tool keeps the error behind it: the schema's, the identity's, a provider's or admission's.
  const rejected = new Set([...BOUNDARY, ...CATALOG, ...PROVIDER]);
  for (const r of quarantined.value.rejected) member(r.error, rejected, "quarantine rejected");

  const e = thrown(() => Conversation.start({ tools: [{ ...tool, name: "a b" }] }), "start");
  assert.ok(e instanceof CatalogAdmissionError && e instanceof Error);
  member(e, CATALOG, "Conversation.start");
  assert.equal(e.code, e.error.code);
  assert.equal(e.message, e.error.message);
});

test("the gateway's results: Execution.invoke, for a bad bundle, host, call, tool, stage and dispatch", async () => {
  const admitted = ToolCatalog.admitBatch([tool]);
  assert.ok(admitted.ok);
  const bundle = admitted.value;
  const dispatch = () => ({ content: [] });
  const cases: [string, Promise<Result<unknown, unknown>>][] = [
    ["bundle", Execution.invoke({} as never, { name: "t", arguments: {} }, { dispatch })],
    ["host", Execution.invoke(bundle, { name: "t", arguments: {} }, { bogus: 1 } as never)],
    ["host unreadable", Execution.invoke(bundle, { name: "t", arguments: {} }, throwingOptions() as never)],
    ["call", Execution.invoke(bundle, 42 as never, { dispatch })],
    ["tool", Execution.invoke(bundle, { name: "u", arguments: {} }, { dispatch })],
    ["arguments", Execution.invoke(bundle, { name: "t", arguments: [] as never }, { dispatch })],
    ["stage", Execution.invoke(bundle, { name: "t", arguments: {} }, { authorize: () => false, dispatch })],
    [
      "dispatch",
      Execution.invoke(
        bundle,
        { name: "t", arguments: {} },
        {
          dispatch: () => {
            throw new Error("down");
          },
        },
      ),
    ],
  ];
  const conversation = Conversation.start({ tools: [tool] });
  cases.push(["conversation.invoke", conversation.invoke({ name: "u", arguments: {} }, { dispatch })]);
  for (const [where, pending] of cases) member(failed(await pending, where), GATEWAY, `invoke ${where}`);
});

test("the provider checks: checkTool, checkCatalog, decodeCall, resolveProfile, resolveTargets, defineProfile", () => {
  const open = { name: "t", inputSchema: { type: "object", properties: { a: { type: "string" } } } };
  const refused = checkTool(open, "openai-strict");
  assert.ok(refused.problems.length > 0);
  for (const problem of refused.problems) member(problem, PROVIDER, "checkTool refusal");
  member(checkTool(open, "nobody").error, PROVIDER, "checkTool target");
  member(checkTool(42, "openai").error, PROVIDER, "checkTool tool");
  const catalog = checkCatalog([open], "nobody");
  assert.ok(catalog.errors.length > 0);
  for (const error of catalog.errors) member(error, PROVIDER, "checkCatalog");
  const request = checkCatalog([{ name: "t", inputSchema: { type: "object" } }], "openai");
  member(failed(request.decodeCall(42), "decodeCall"), DECODE, "decodeCall call");
  member(failed(request.decodeCall({ name: "u", arguments: {} }), "decodeCall"), DECODE, "decodeCall tool");
  member(failed(resolveProfile("nobody"), "resolveProfile"), PROVIDER, "resolveProfile");
  member(failed(resolveTargets([]), "resolveTargets"), PROVIDER, "resolveTargets");
  member(failed(defineProfile({} as ProfileSpec), "defineProfile"), PROVIDER, "defineProfile");
});

test("isBackplaneError holds the closed set: an unknown code, a wrong class, a bare string or a throwing value fail", () => {
  assert.ok(isBackplaneError({ class: "validation", code: "schema_invalid", message: "m" }));
  assert.ok(!isBackplaneError({ class: "validation", code: "made_up", message: "m" }));
  assert.ok(!isBackplaneError({ class: "error", code: "schema_invalid", message: "m" }));
  assert.ok(!isBackplaneError({ class: "validation", code: "schema_invalid" }));
  assert.ok(!isBackplaneError({ class: "validation", code: "schema_invalid", message: "m", schemaPointer: 1 }));
  assert.ok(!isBackplaneError("options_invalid"));
  assert.ok(!isBackplaneError(throwingOptions()));
  assert.ok(ENGINE.size > 0 && CATALOG.size > 0);
});

/** Options every read of which throws (a revoked Proxy). */
function throwingOptions(): never {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy as never;
}
