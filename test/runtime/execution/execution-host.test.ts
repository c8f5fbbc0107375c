/**
 * The host object fails closed (docs/guide/admission.md): a missing or malformed bundle, call or
 * host is an error Result, never a `TypeError`; an unknown host field (a misspelt stage) is refused before any stage
 * runs; `dispatch` is required up front; stages and `dispatch` are called with the host as `this`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Conversation,
  Execution,
  InputSchema,
  OutputSchema,
  ToolCatalog,
  upgradeDraft07,
  type AdmittedBundle,
  type ExecutionError,
  type ExecutionHost,
  type StageContext,
} from "../../../src/index.js";
import { tool } from "../helpers.js";

const backends = ["b"];

function bundle(): AdmittedBundle {
  const r = ToolCatalog.admitBatch([tool("search", { type: "object" })], { backends });
  assert.ok(r.ok);
  return r.value;
}

const call = { name: "search", arguments: {} };

async function failed(run: Promise<unknown>): Promise<ExecutionError> {
  const r = (await run) as { ok: boolean; error: ExecutionError };
  assert.equal(r.ok, false);
  assert.equal(typeof r.error.modelText, "string");
  return r.error;
}

/** A host whose every stage records that it ran. */
function recording(log: string[]): Record<string, (ctx: StageContext) => unknown> {
  const stage = (name: string) => () => void log.push(name);
  return {
    authorize: stage("authorize"),
    approve: stage("approve"),
    reserveBudget: stage("reserveBudget"),
    publishIntent: stage("publishIntent"),
    dispatch: () => log.push("dispatch"),
  };
}

describe("a missing or malformed bundle, call or host is an error Result", () => {
  const host = { dispatch: () => "ran" };
  test("no host, a null host, or a host that is not an object: options_invalid at stage host", async () => {
    for (const bad of [undefined, null, 7, "host", () => "ran"]) {
      const e = await failed(Execution.invoke(bundle(), call, bad as never));
      assert.deepEqual([e.class, e.code, e.stage], ["validation", "options_invalid", "host"]);
      assert.match(e.message, /Execution\.invoke host must be an object/);
    }
    const e = await failed((Execution.invoke as (...args: unknown[]) => Promise<unknown>)(bundle(), call));
    assert.equal(e.code, "options_invalid");
  });
  test("a null, missing or foreign bundle: bundle_invalid at stage lookup", async () => {
    for (const bad of [undefined, null, {}, { registry: new Map(), rejected: [] }, "bundle"]) {
      const e = await failed(Execution.invoke(bad as never, call, host));
      assert.deepEqual([e.class, e.code, e.stage], ["validation", "bundle_invalid", "lookup"]);
      assert.match(e.message, /ToolCatalog\.admitBatch/);
    }
  });
  test("a null, missing or non-object call: call_invalid at stage lookup", async () => {
    for (const bad of [undefined, null, "search", 1]) {
      const e = await failed(Execution.invoke(bundle(), bad as never, host));
      assert.deepEqual([e.class, e.code, e.stage], ["validation", "call_invalid", "lookup"]);
      assert.equal(e.modelText, "The tool call could not be read.");
    }
  });
  test("Conversation.tryStart without options, or with null, is an options_invalid Result", () => {
    for (const bad of [undefined, null, 3]) {
      const r = (Conversation.tryStart as (o?: unknown) => ReturnType<typeof Conversation.tryStart>)(bad);
      assert.ok(!r.ok);
      assert.equal(r.error.code, "options_invalid");
      assert.match(r.error.message, /Conversation\.start/);
    }
  });
});

test("every other Result API returns a Result for missing or null input", () => {
  const results: [string, { ok: boolean; error?: { code: string } }, string][] = [
    ["InputSchema.validateSchema()", (InputSchema.validateSchema as (s?: unknown) => never)(), "root_not_object"],
    [
      "InputSchema.validate(schema, undefined, null)",
      InputSchema.validate({}, undefined, null as never),
      "options_invalid",
    ],
    ["InputSchema.validate(schema, undefined)", InputSchema.validate({}, undefined), "arguments_invalid"],
    [
      "OutputSchema.validate(true, undefined, null)",
      OutputSchema.validate(true, undefined, null as never),
      "options_invalid",
    ],
    ["ToolCatalog.admitBatch()", (ToolCatalog.admitBatch as (t?: unknown) => never)(), "catalog_invalid"],
    ["ToolCatalog.admitBatch([], null)", ToolCatalog.admitBatch([], null as never), "options_invalid"],
    ["upgradeDraft07()", (upgradeDraft07 as (s?: unknown) => never)(), "schema_not_json"],
    [
      "Conversation.restore(null, options)",
      Conversation.restore(null as never, { tools: [], backends }),
      "checkpoint_invalid",
    ],
  ];
  const c = Conversation.start({ tools: [], backends });
  results.push(["updateCatalog(null)", c.updateCatalog(null as never), "catalog_invalid"]);
  results.push(["updateCatalog([], null)", c.updateCatalog([], null as never), "options_invalid"]);
  for (const [label, r, code] of results) {
    assert.equal(r.ok, false, label);
    assert.equal(r.error?.code, code, label);
  }
});

describe("unknown host fields are refused before any stage runs", () => {
  test("a misspelt stage (authorise) is options_invalid naming it, the known fields and the near miss", async () => {
    const log: string[] = [];
    const { authorize, ...rest } = recording(log);
    // The README's own pattern: a host held in a variable, so TypeScript's excess-property check does not apply.
    const host = { ...rest, authorise: () => false };
    const e = await failed(Execution.invoke(bundle(), call, host as never));
    assert.deepEqual([e.class, e.code, e.stage], ["validation", "options_invalid", "host"]);
    assert.match(e.message, /"authorise"/);
    assert.match(e.message, /did you mean "authorize"\?/);
    assert.match(e.message, /authorize, approve, reserveBudget, publishIntent, dispatch/);
    assert.deepEqual(log, [], "no stage ran");
    assert.equal(typeof authorize, "function");
  });
  test("a missing dispatch is refused up front: no stage runs", async () => {
    const log: string[] = [];
    const { dispatch: _dispatch, ...stages } = recording(log);
    const e = await failed(Execution.invoke(bundle(), call, stages as never));
    assert.equal(e.code, "options_invalid");
    assert.match(e.message, /dispatch/);
    assert.deepEqual(log, []);
  });
  test("a stage or dispatch that is not a function is refused up front", async () => {
    for (const host of [
      { dispatch: "run" },
      { dispatch: () => 1, approve: true },
      { dispatch: () => 1, authorize: null },
    ]) {
      const e = await failed(Execution.invoke(bundle(), call, host as never));
      assert.equal(e.code, "options_invalid");
    }
  });
  test("an unknown field is refused for a tool the bundle does not have, too", async () => {
    const host = { dispatch: () => 1, aprove: () => true };
    const e = await failed(Execution.invoke(bundle(), { name: "nope" }, host));
    assert.equal(e.code, "options_invalid");
    assert.match(e.message, /did you mean "approve"\?/);
  });
  test("undefined stages count as absent", async () => {
    const r = await Execution.invoke(bundle(), call, { authorize: undefined, dispatch: () => "ran" });
    assert.deepEqual(r, { ok: true, value: "ran" });
  });
  test("a class-instance host: its methods along the prototype chain are its fields", async () => {
    class Base {
      dispatch(): string {
        return "ran";
      }
    }
    class Misspelt extends Base {
      publishIntnet(): boolean {
        return true;
      }
    }
    const e = await failed(Execution.invoke(bundle(), call, new Misspelt()));
    assert.match(e.message, /"publishIntnet".*did you mean "publishIntent"\?/);
    class WithState extends Base {
      cache = new Map();
    }
    assert.equal((await failed(Execution.invoke(bundle(), call, new WithState()))).code, "options_invalid");
    class Private extends Base {
      #calls = 0;
      authorize(): boolean {
        return ++this.#calls > 0;
      }
    }
    assert.deepEqual(await Execution.invoke(bundle(), call, new Private()), { ok: true, value: "ran" });
  });
  test("a host changed between calls is read again: an added, renamed or emptied field is seen at once", async () => {
    const log: string[] = [];
    const host: Record<string, unknown> = recording(log);
    const b = bundle();
    const ran = async () => {
      log.length = 0;
      const r = await Execution.invoke(b, call, host as never);
      return r.ok ? [...log] : (r.error.message.match(/"[a-zA-Z]+"/)?.[0] ?? r.error.code);
    };
    const all = ["authorize", "approve", "reserveBudget", "publishIntent", "dispatch"];
    assert.deepEqual(await ran(), all);
    assert.deepEqual(await ran(), all, "the same host, unchanged, a second time");
    // A field added (a misspelling beside the stages).
    host["aprove"] = () => false;
    assert.equal(await ran(), '"aprove"');
    delete host["aprove"];
    assert.deepEqual(await ran(), all);
    // A field renamed: the count of names is the same, the stage it was is gone.
    const approve = host["approve"];
    delete host["approve"];
    host["aprove"] = approve;
    assert.equal(await ran(), '"aprove"');
    delete host["aprove"];
    host["approve"] = approve;
    assert.deepEqual(await ran(), all);
    // A stage replaced, emptied, removed; dispatch replaced.
    host["approve"] = () => void log.push("approve2");
    assert.deepEqual(await ran(), ["authorize", "approve2", "reserveBudget", "publishIntent", "dispatch"]);
    host["approve"] = undefined;
    assert.deepEqual(await ran(), ["authorize", "reserveBudget", "publishIntent", "dispatch"]);
    host["approve"] = "yes";
    assert.equal(await ran(), '"approve"');
    delete host["approve"];
    host["dispatch"] = () => void log.push("dispatch2");
    assert.deepEqual(await ran(), ["authorize", "reserveBudget", "publishIntent", "dispatch2"]);
    // An emptied field renamed: refused too.
    host["approve"] = undefined;
    assert.deepEqual(await ran(), ["authorize", "reserveBudget", "publishIntent", "dispatch2"]);
    delete host["approve"];
    host["aprove"] = undefined;
    assert.equal(await ran(), '"aprove"');
    // Its prototype changed: a class's misspelt method is seen.
    delete host["aprove"];
    Object.setPrototypeOf(host, { publishIntnet: () => true });
    assert.equal(await ran(), '"publishIntnet"');
  });
});

describe("stages and dispatch are called with the host as this", () => {
  test("a class-instance host keeps this in every stage and in dispatch", async () => {
    const seen: string[] = [];
    class Host {
      // A helper method would be a field; an ES private method is not a property at all.
      #note(stage: string): boolean {
        seen.push(stage);
        return true;
      }
      authorize(): boolean {
        return this.#note("authorize");
      }
      approve(): boolean {
        return this.#note("approve");
      }
      reserveBudget(): boolean {
        return this.#note("reserveBudget");
      }
      publishIntent(): boolean {
        return this.#note("publishIntent");
      }
      dispatch(ctx: StageContext): string {
        this.#note("dispatch");
        return `ran ${ctx.name}`;
      }
    }
    const r = await Execution.invoke(bundle(), call, new Host());
    assert.deepEqual(r, { ok: true, value: "ran search" });
    assert.deepEqual(seen, ["authorize", "approve", "reserveBudget", "publishIntent", "dispatch"]);
  });
  test("a plain host's stages see the host as this", async () => {
    const selves: unknown[] = [];
    const host: ExecutionHost<number> = {
      authorize() {
        selves.push(this);
        return true;
      },
      dispatch() {
        selves.push(this);
        return 1;
      },
    };
    assert.deepEqual(await Execution.invoke(bundle(), call, host), { ok: true, value: 1 });
    assert.deepEqual(selves, [host, host]);
  });
  test("each host field is read once: a getter cannot show one stage to the check and run another", async () => {
    let reads = 0;
    const host = {
      get dispatch() {
        reads++;
        return reads === 1 ? () => "checked" : () => "swapped";
      },
    };
    assert.deepEqual(await Execution.invoke(bundle(), call, host), { ok: true, value: "checked" });
    assert.equal(reads, 1);
  });
});
