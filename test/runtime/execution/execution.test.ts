import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Execution, ToolCatalog, type AdmittedBundle, type ExecutionHost } from "../../../src/index.js";
import { DRAFT_07, tool } from "../helpers.js";

const schema = {
  type: "object",
  properties: { q: { type: "string", maxLength: 10 }, n: { type: "integer" } },
  required: ["q"],
  additionalProperties: false,
};

function bundle(): AdmittedBundle {
  const r = ToolCatalog.admitBatch([tool("search", schema), tool("old", DRAFT_07)], {
    backends: ["b"],
    mode: "quarantine",
    authority: { caller: "u", grants: { search: { scope: "web" } } },
  });
  assert.ok(r.ok);
  return r.value;
}

function recordingHost(log: string[], refuse?: string): ExecutionHost<string> {
  const stage = (name: string) => () => {
    log.push(name);
    return name !== refuse;
  };
  return {
    authorize: stage("authorize"),
    approve: stage("approve"),
    reserveBudget: stage("reserveBudget"),
    publishIntent: stage("publishIntent"),
    dispatch: (ctx) => {
      log.push("dispatch");
      return `ran ${ctx.name}`;
    },
  };
}

describe("Execution.invoke", () => {
  const cases: [string, string, unknown, string][] = [
    ["an unknown tool", "nope", { q: "x" }, "tool_unknown"],
    ["a quarantined tool", "old", { q: "x" }, "tool_quarantined"],
    ["a prototype-named tool", "__proto__", { q: "x" }, "tool_unknown"],
    ["missing required argument", "search", {}, "arguments_invalid"],
    ["wrong type", "search", { q: 5 }, "arguments_invalid"],
    ["extra property", "search", { q: "x", extra: 1 }, "arguments_invalid"],
    ["arguments not an object", "search", ["q"], "arguments_invalid"],
  ];
  for (const [name, toolName, args, code] of cases) {
    test(`${name}: an error result, and no host stage runs`, async () => {
      const log: string[] = [];
      const r = await Execution.invoke(bundle(), { name: toolName, arguments: args }, recordingHost(log));
      assert.equal(r.ok, false);
      assert.equal((r as { ok: false; error: { code: string } }).error.code, code);
      assert.deepEqual(log, []);
    });
  }
  test("valid calls run every stage in order, then dispatch, with the same arguments object", async () => {
    const log: string[] = [];
    const args = { q: "weather" };
    let seen: unknown;
    const host = recordingHost(log);
    const r = await Execution.invoke(
      bundle(),
      { name: "search", arguments: args },
      {
        ...host,
        dispatch: (ctx) => {
          seen = ctx.arguments;
          assert.deepEqual(ctx.grant, { scope: "web" });
          return host.dispatch(ctx);
        },
      },
    );
    assert.deepEqual(r, { ok: true, value: "ran search" });
    assert.deepEqual(log, ["authorize", "approve", "reserveBudget", "publishIntent", "dispatch"]);
    assert.equal(seen, args);
  });
  for (const refuse of ["authorize", "approve", "reserveBudget", "publishIntent"]) {
    test(`a refusing ${refuse} stops the rest`, async () => {
      const log: string[] = [];
      const r = await Execution.invoke(bundle(), { name: "search", arguments: { q: "x" } }, recordingHost(log, refuse));
      assert.equal(r.ok, false);
      const e = (r as { ok: false; error: { code: string; stage: string } }).error;
      assert.equal(e.code, "stage_refused");
      assert.equal(e.stage, refuse);
      const order = ["authorize", "approve", "reserveBudget", "publishIntent"];
      assert.deepEqual(log, order.slice(0, order.indexOf(refuse) + 1));
    });
  }
  test("stages may be async and refuse with a Result", async () => {
    const r = await Execution.invoke(
      bundle(),
      { name: "search", arguments: { q: "x" } },
      {
        approve: async () => ({ ok: false, error: "needs a human" }),
        dispatch: () => assert.fail("dispatch must not run"),
      },
    );
    assert.equal(r.ok, false);
    assert.equal((r as { ok: false; error: { detail?: unknown } }).error.detail, "needs a human");
  });
  test("a throwing stage or dispatch is an execution_failure result, not a throw", async () => {
    const thrown = await Execution.invoke(
      bundle(),
      { name: "search", arguments: { q: "x" } },
      {
        authorize: () => {
          throw new Error("down");
        },
        dispatch: () => 1,
      },
    );
    assert.equal(thrown.ok, false);
    assert.equal((thrown as { ok: false; error: { class: string; code: string } }).error.code, "stage_failed");
    const failed = await Execution.invoke(
      bundle(),
      { name: "search", arguments: { q: "x" } },
      {
        dispatch: () => {
          throw new Error("backend 500");
        },
      },
    );
    assert.equal((failed as { ok: false; error: { class: string; code: string } }).error.class, "execution_failure");
  });
  test("invalid-argument errors carry text a model can act on", async () => {
    const r = await Execution.invoke(
      bundle(),
      { name: "search", arguments: { q: "a very long query", n: "3" } },
      { dispatch: () => "x" },
    );
    assert.equal(r.ok, false);
    const text = (r as { ok: false; error: { modelText: string } }).error.modelText;
    assert.match(text, /\/n: must be integer \(expected by "type"/);
    assert.match(text, /\/q: must be at most 10 characters long \(expected by "maxLength"/);
    // Locations and constraints only: no argument value reaches the model text.
    assert.ok(!text.includes("a very long query") && !/got/.test(text), text);
  });
});

describe("omitted arguments", () => {
  const optional = { type: "object", properties: { q: { type: "string" } } };
  const admittedOptional = () => {
    const r = ToolCatalog.admitBatch([tool("list", optional), tool("needs", schema)], { backends: ["b"] });
    assert.ok(r.ok);
    return r.value;
  };
  for (const [label, call] of [
    ["absent", { name: "list" }],
    ["undefined", { name: "list", arguments: undefined }],
  ] as const) {
    test(`${label} arguments are checked as {} and handed to the stages as given`, async () => {
      const seen: unknown[] = [];
      const r = await Execution.invoke(admittedOptional(), call, {
        authorize: (ctx) => void seen.push(ctx.arguments),
        dispatch: (ctx) => {
          seen.push(ctx.arguments, Object.hasOwn(ctx, "arguments"));
          return "ran";
        },
      });
      assert.deepEqual(r, { ok: true, value: "ran" });
      assert.deepEqual(seen, [undefined, undefined, true]);
    });
  }
  test("omitted arguments still have to satisfy the schema as {}", async () => {
    const r = await Execution.invoke(admittedOptional(), { name: "needs" }, { dispatch: () => assert.fail("ran") });
    assert.equal(r.ok, false);
    assert.match((r as { ok: false; error: { modelText: string } }).error.modelText, /required property "q"/);
  });
  test("null arguments are not an object", async () => {
    const r = await Execution.invoke(
      admittedOptional(),
      { name: "list", arguments: null },
      { dispatch: () => assert.fail("ran") },
    );
    assert.equal(r.ok, false);
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "arguments_invalid");
  });
});

describe("grants", () => {
  const admit = (authority?: Record<string, unknown>) => {
    const r = ToolCatalog.admitBatch([tool("granted"), tool("ungranted")], { backends: ["b"], authority });
    assert.ok(r.ok);
    return r.value;
  };
  test("with grants, a tool without its own grant is refused before any host stage (grant_missing)", async () => {
    const log: string[] = [];
    const r = await Execution.invoke(
      admit({ caller: "u", grants: { granted: { scope: "read" } } }),
      { name: "ungranted", arguments: {} },
      recordingHost(log),
    );
    assert.equal(r.ok, false);
    const e = (r as { ok: false; error: { class: string; code: string; stage: string } }).error;
    assert.deepEqual([e.class, e.code, e.stage], ["validation", "grant_missing", "authorize"]);
    assert.deepEqual(log, []);
  });
  test("the granted tool runs and every stage receives its grant and the authority", async () => {
    const grants: unknown[] = [];
    const authority = { caller: "u", run: "r1", grants: { granted: { scope: "read" } } };
    const bundle = admit(authority);
    const r = await Execution.invoke(
      bundle,
      { name: "granted", arguments: {} },
      {
        authorize: (ctx) => void grants.push(ctx.grant, ctx.authority),
        dispatch: (ctx) => grants.push(ctx.grant),
      },
    );
    assert.equal(r.ok, true);
    assert.deepEqual(grants, [{ scope: "read" }, bundle.authority, { scope: "read" }]);
    assert.equal(grants[0], authority.grants.granted, "the very grant value");
  });
  test("an empty grants object grants nothing", async () => {
    const r = await Execution.invoke(admit({ grants: {} }), { name: "granted", arguments: {} }, { dispatch: () => 1 });
    assert.equal((r as { ok: false; error: { code: string } }).error.code, "grant_missing");
  });
  test("without grants in the authority, grants are not enforced and the stages see no grant", async () => {
    for (const authority of [undefined, { caller: "u" }]) {
      let grant: unknown = "unset";
      const r = await Execution.invoke(
        admit(authority),
        { name: "ungranted", arguments: {} },
        { dispatch: (ctx) => void (grant = ctx.grant) },
      );
      assert.equal(r.ok, true);
      assert.equal(grant, undefined);
    }
  });
  test("a prototype-named tool needs a grant of its own", async () => {
    const r = ToolCatalog.admitBatch([tool("constructor"), tool("toString")], {
      backends: ["b"],
      authority: { grants: { toString: true } },
    });
    assert.ok(r.ok);
    const call = (name: string) => Execution.invoke(r.value, { name, arguments: {} }, { dispatch: () => "ran" });
    assert.equal(((await call("constructor")) as { ok: false; error: { code: string } }).error.code, "grant_missing");
    assert.deepEqual(await call("toString"), { ok: true, value: "ran" });
  });
});

describe("modelText carries only model-facing text", () => {
  const SECRET = "DB password=hunter2 at 10.0.0.5";
  const secretError = new Error(SECRET);
  const call = { name: "search", arguments: { q: "x" } };
  type Failed = {
    ok: false;
    error: { code: string; stage: string; message: string; modelText: string; detail?: unknown };
  };
  const cases: [string, ExecutionHost<unknown>, string, string, unknown][] = [
    [
      "a throwing stage",
      { authorize: () => assert.fail(secretError), dispatch: () => 1 },
      "stage_failed",
      'The call to "search" failed at the authorize stage.',
      undefined,
    ],
    [
      "an async stage rejecting",
      { reserveBudget: () => Promise.reject(secretError), dispatch: () => 1 },
      "stage_failed",
      'The call to "search" failed at the reserveBudget stage.',
      secretError,
    ],
    [
      "a stage refusing with its own error value",
      { approve: () => ({ ok: false, error: SECRET }), dispatch: () => 1 },
      "stage_refused",
      'The call to "search" was refused at the approve stage.',
      SECRET,
    ],
    [
      "a throwing dispatch",
      {
        dispatch: () => {
          throw secretError;
        },
      },
      "dispatch_failed",
      'The call to "search" failed at the dispatch stage.',
      secretError,
    ],
  ];
  for (const [label, host, code, text, detail] of cases) {
    test(`${label}: a fixed sentence naming the stage; the host's text stays on the error`, async () => {
      const r = (await Execution.invoke(bundle(), call, host)) as Failed;
      assert.equal(r.ok, false);
      assert.equal(r.error.code, code);
      assert.equal(r.error.modelText, text);
      assert.ok(!r.error.modelText.includes("hunter2") && !r.error.modelText.includes("10.0.0.5"));
      if (detail !== undefined) assert.equal(r.error.detail, detail);
      if (code !== "stage_refused") assert.ok(r.error.message.includes(SECRET), "the host still reads it");
    });
  }
  test("arguments with a getter are refused unread; a call object whose getter throws keeps the exception", async () => {
    const args = {
      get q() {
        throw secretError;
      },
    };
    const r = (await Execution.invoke(
      bundle(),
      { name: "search", arguments: args },
      { dispatch: () => 1 },
    )) as Failed & {
      error: { cause?: { instancePointer?: string } };
    };
    assert.equal(r.error.stage, "arguments");
    assert.ok(!r.error.modelText.includes("hunter2"), r.error.modelText);
    assert.equal(r.error.cause?.instancePointer, "/q");
    const unreadable = {
      name: "search",
      get arguments(): unknown {
        throw secretError;
      },
    };
    const c = (await Execution.invoke(bundle(), unreadable, { dispatch: () => 1 })) as Failed;
    assert.equal(c.error.code, "call_invalid");
    assert.equal(c.error.modelText, "The tool call could not be read.");
    assert.equal(c.error.detail, secretError);
  });
  test("lookup errors name the tool the model asked for, nothing else", async () => {
    const unknown = (await Execution.invoke(bundle(), { name: "nope" }, { dispatch: () => 1 })) as Failed;
    assert.equal(unknown.error.modelText, 'There is no tool named "nope".');
    const old = (await Execution.invoke(bundle(), { name: "old" }, { dispatch: () => 1 })) as Failed;
    assert.equal(old.error.modelText, 'The tool "old" is not available.');
  });
});

describe("results checked against the output schema", () => {
  const outputSchema = {
    type: "object",
    properties: { total: { type: "integer" }, items: { type: "array", items: { type: "string" } } },
    required: ["total"],
  };
  const admit = (options: Record<string, unknown> = {}) => {
    const r = ToolCatalog.admitBatch(
      [
        tool("count", { type: "object" }, { outputSchema }),
        tool("free"),
        tool("never", { type: "object" }, { outputSchema: false }),
      ],
      { backends: ["b"], ...options },
    );
    if (!r.ok) assert.fail(r.error.message);
    return r.value;
  };
  type Failed = {
    ok: false;
    error: { class: string; code: string; stage: string; modelText: string; detail?: unknown };
  };
  const invoke = (result: unknown, name = "count", bundle = admit()) =>
    Execution.invoke(bundle, { name, arguments: {} }, { dispatch: () => result });

  test("a valid structured result is returned as the very same object", async () => {
    const result = { content: [{ type: "text", text: "2" }], structuredContent: { total: 2, items: ["a", "b"] } };
    const r = await invoke(result);
    assert.ok(r.ok);
    assert.equal(r.value, result);
  });
  const refusedResults: [string, unknown][] = [
    ["structuredContent that does not match", { content: [], structuredContent: { total: "2" } }],
    ["no structuredContent", { content: [{ type: "text", text: "2" }] }],
    ["structuredContent: undefined", { content: [], structuredContent: undefined }],
    ["a result that is not an object", "dispatched"],
    ["null", null],
    ["an inherited isError", Object.assign(Object.create({ isError: true }), { content: [] })],
    ["isError that is not exactly true", { isError: "true", content: [] }],
  ];
  for (const [label, result] of refusedResults) {
    test(`${label}: output_invalid at stage "result", and the result is not returned as a value`, async () => {
      const r = (await invoke(result)) as Failed;
      assert.equal(r.ok, false);
      assert.deepEqual([r.error.class, r.error.code, r.error.stage], ["validation", "output_invalid", "result"]);
      assert.equal(r.error.detail, result, "the host can still inspect it");
      assert.ok(!("value" in r));
    });
  }
  test("the model text renders the result's problems, naming constraints, not values", async () => {
    const r = (await invoke({ content: [], structuredContent: { total: 1.5, items: [3] } })) as Failed;
    assert.equal(
      r.error.modelText,
      "The tool's result does not match its output schema (2 problems):\n" +
        '- /items/0: must be string (expected by "type" at /properties/items/items/type)\n' +
        '- /total: must be integer (expected by "type" at /properties/total/type)',
    );
  });
  test("a tool error (isError: true) is returned as it is, whatever its content", async () => {
    const toolError = { isError: true, content: [{ type: "text", text: "rate limited" }] };
    const r = await invoke(toolError);
    assert.ok(r.ok);
    assert.equal(r.value, toolError);
    assert.equal((await invoke({ isError: true }, "never")).ok, true);
  });
  test("a false output schema refuses every non-error result", async () => {
    const r = (await invoke({ content: [], structuredContent: {} }, "never")) as Failed;
    assert.equal(r.error.code, "output_invalid");
  });
  test("a limit hit in the result stays execution_failure", async () => {
    const deep = { content: [], structuredContent: { total: 1, items: [[[["a"]]]] } };
    const r = (await invoke(deep, "count", admit({ limits: { maxInstanceDepth: 3 } }))) as Failed;
    assert.deepEqual([r.error.class, r.error.code, r.error.stage], ["execution_failure", "limit_exceeded", "result"]);
  });
  test("tools without an outputSchema: the result is returned unchanged, whatever it is", async () => {
    for (const result of ["x", undefined, { structuredContent: { total: "no" } }]) {
      const r = await invoke(result, "free");
      assert.deepEqual(r, { ok: true, value: result });
    }
  });
  test("a throwing structuredContent getter is output_invalid, its text kept from the model", async () => {
    const result = {
      get structuredContent(): unknown {
        throw new Error("db=secret");
      },
    };
    const r = (await invoke(result)) as Failed;
    assert.equal(r.error.code, "output_invalid");
    assert.ok(!r.error.modelText.includes("secret"));
  });
});

describe("what dispatch and the stages answer: a value, a promise or another thenable", () => {
  const call = { name: "search", arguments: { q: "x" } };
  const failedCode = async (run: Promise<unknown>) => {
    const r = (await run) as { ok: boolean; error?: { code: string; stage: string } };
    return r.ok ? "ok" : `${r.error?.stage}: ${r.error?.code}`;
  };

  test("a dispatch answering at once: invoke still returns a promise, settled with the result", async () => {
    const pending = Execution.invoke(bundle(), call, { dispatch: () => "now" });
    assert.ok(pending instanceof Promise);
    assert.deepEqual(await pending, { ok: true, value: "now" });
    // An object that is not a thenable is the result as it came (the very same object).
    const result = { content: [], then: 1 };
    const r = await Execution.invoke(bundle(), call, { dispatch: () => result });
    assert.ok(r.ok && r.value === result);
  });

  test("a dispatch answering a promise or a thenable: awaited", async () => {
    assert.deepEqual(await Execution.invoke(bundle(), call, { dispatch: async () => "later" }), {
      ok: true,
      value: "later",
    });
    const thenable = { then: (resolve: (v: string) => void) => resolve("thenable") };
    assert.deepEqual(await Execution.invoke(bundle(), call, { dispatch: () => thenable as never }), {
      ok: true,
      value: "thenable",
    });
  });

  test("a dispatch that throws, rejects, or answers a thenable that fails: dispatch_failed, never a rejection", async () => {
    const throwing = () => {
      throw new Error("down");
    };
    const hosts: ExecutionHost<unknown>[] = [
      { dispatch: throwing },
      { dispatch: () => Promise.reject(new Error("down")) },
      { dispatch: () => ({ then: throwing }) },
      { dispatch: () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new Error("down")) }) },
      {
        dispatch: () =>
          Object.defineProperty({}, "then", {
            get: throwing,
          }),
      },
    ];
    for (const host of hosts)
      assert.equal(await failedCode(Execution.invoke(bundle(), call, host)), "dispatch: dispatch_failed");
  });

  test("a stage answering a promise: the stages after it and dispatch run once it settles, in order", async () => {
    const log: string[] = [];
    const r = await Execution.invoke(bundle(), call, {
      authorize: () => void log.push("authorize"),
      approve: async () => {
        log.push("approve");
        return { ok: true };
      },
      publishIntent: () => void log.push("publishIntent"),
      dispatch: () => {
        log.push("dispatch");
        return "ran";
      },
    });
    assert.deepEqual(r, { ok: true, value: "ran" });
    assert.deepEqual(log, ["authorize", "approve", "publishIntent", "dispatch"]);
    const refused = Execution.invoke(bundle(), call, {
      approve: async () => false,
      dispatch: () => assert.fail("dispatch ran after a refusal"),
    });
    assert.equal(await failedCode(refused), "approve: stage_refused");
  });
});
