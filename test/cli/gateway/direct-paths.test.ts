/**
 * The gateway's direct paths for tool calls, each over the SDK's in-memory linked pair: `DirectRequests` (a stdio
 * server's requests answered beside the SDK client) and `FrontCalls` (the stdio client's tool calls answered beside
 * the SDK server). Each must do what the SDK's protocol does for the messages it takes, and pass on every other.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { FrontCalls } from "../../../src/cli/gateway/routing/front-calls.js";
import { loadSdk, type RequestExtra } from "../../../src/cli/gateway/sdk.js";
import { DirectRequests } from "../../../src/cli/gateway/upstream/direct-requests.js";
import { until } from "../../until.js";

type Received = Record<string, unknown>;

/** A linked pair, both started: what reaches `near` (past whatever installs itself) and what reaches `far`. */
async function pair() {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const passed: Received[] = [];
  const atFar: Received[] = [];
  let closed = 0;
  near.onmessage = (m) => passed.push(m as Received);
  near.onclose = () => closed++;
  far.onmessage = (m) => atFar.push(m as Received);
  await near.start();
  await far.start();
  return { near, far, passed, atFar, closed: () => closed };
}

describe("DirectRequests (a stdio server's requests beside the SDK client)", () => {
  test("answers are settled here; the server's requests, notifications and other answers pass on", async () => {
    const sdk = await loadSdk("test");
    const p = await pair();
    const direct = new DirectRequests(p.near, sdk);
    const pending = direct.request("tools/call", { name: "echo" }, 10_000);
    await until("the request to reach the server", () => p.atFar.length === 1);
    const sent = p.atFar[0] as Received;
    assert.equal(sent["method"], "tools/call");
    assert.deepEqual(sent["params"], { name: "echo" });
    assert.ok(Number.isSafeInteger(sent["id"]) && (sent["id"] as number) >= 2 ** 30, "an integer id above the SDK's");
    await p.far.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
    await p.far.send({ jsonrpc: "2.0", id: 0, result: {} });
    await p.far.send({ jsonrpc: "2.0", id: 7, method: "roots/list" });
    await p.far.send({ jsonrpc: "2.0", id: sent["id"] as number, result: { content: [], extra: { kept: true } } });
    assert.deepEqual(await pending, { content: [], extra: { kept: true } });
    assert.deepEqual(
      p.passed.map((m) => m["method"] ?? `answer ${String(m["id"])}`),
      ["notifications/message", "answer 0", "roots/list"],
    );
    assert.equal(direct.size, 0);
  });

  test("an error answer is the SDK's McpError with the server's code, text and data", async () => {
    const sdk = await loadSdk("test");
    const p = await pair();
    const direct = new DirectRequests(p.near, sdk);
    const pending = direct.request("tools/call", undefined, 10_000);
    await until("the request", () => p.atFar.length === 1);
    assert.equal(Object.hasOwn(p.atFar[0] as Received, "params"), false);
    await p.far.send({
      jsonrpc: "2.0",
      id: p.atFar[0]?.["id"] as number,
      error: { code: -32602, message: "no", data: [1] },
    });
    await assert.rejects(pending, (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, -32602);
      assert.equal(e.message, "MCP error -32602: no");
      assert.deepEqual(e.data, [1]);
      return true;
    });
  });

  test("a timeout fails as RequestTimeout and tells the server; a late answer passes on to the client", async () => {
    const sdk = await loadSdk("test");
    const p = await pair();
    const direct = new DirectRequests(p.near, sdk);
    await assert.rejects(direct.request("slow", {}, 20), (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, ErrorCode.RequestTimeout);
      assert.deepEqual(e.data, { timeout: 20 });
      return true;
    });
    await until("the cancellation", () => p.atFar.length === 2);
    const [request, cancelled] = p.atFar as [Received, Received];
    assert.equal(cancelled["method"], "notifications/cancelled");
    assert.equal((cancelled["params"] as Received)["requestId"], request["id"]);
    await p.far.send({ jsonrpc: "2.0", id: request["id"] as number, result: {} });
    assert.equal(p.passed.length, 1, "the SDK client sees the late answer, as it would have");
    assert.equal(direct.size, 0);
  });

  test("a signal aborts the request with the SDK's error; an aborted signal sends nothing", async () => {
    const sdk = await loadSdk("test");
    const p = await pair();
    const direct = new DirectRequests(p.near, sdk);
    const controller = new AbortController();
    const pending = direct.request("slow", {}, 10_000, controller.signal);
    controller.abort("the client cancelled");
    await assert.rejects(pending, (e: unknown) => e instanceof McpError && e.code === ErrorCode.RequestTimeout);
    await until("the cancellation", () => p.atFar.length === 2);
    assert.equal(((p.atFar[1] as Received)["params"] as Received)["reason"], "the client cancelled");
    await assert.rejects(direct.request("x", {}, 10_000, controller.signal), /the client cancelled/);
    assert.equal(p.atFar.length, 2);
  });

  test("the connection closing fails every request with ConnectionClosed, then tells the client", async () => {
    const sdk = await loadSdk("test");
    const p = await pair();
    const direct = new DirectRequests(p.near, sdk);
    const pending = [direct.request("a", {}, 10_000), direct.request("b", {}, 10_000)];
    await p.near.close();
    for (const one of pending)
      await assert.rejects(one, (e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
    assert.ok(p.closed() > 0, "the client is told");
    assert.equal(direct.size, 0);
  });
});

/** A FrontCalls whose handler is `answer`, ready when `ready` says so; what the SDK server would see is `passed`. */
async function front(answer: (request: Received, extra: RequestExtra) => Promise<unknown>, ready = () => true) {
  const p = await pair();
  const calls = new FrontCalls(p.near, (request, extra) => answer(request as unknown as Received, extra), ready);
  const call = (id: number, params: unknown = { name: "t", arguments: {} }) =>
    p.far.send({ jsonrpc: "2.0", id, method: "tools/call", params } as never);
  return { ...p, calls, call };
}

describe("FrontCalls (the stdio client's tool calls beside the SDK server)", () => {
  test("a tool call is answered by the handler; other requests, and calls before initialising, pass on", async () => {
    let ready = false;
    const f = await front(
      async (request) => ({ content: [], echoed: request["params"] }),
      () => ready,
    );
    await f.call(1);
    await f.far.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    ready = true;
    await f.call(3, { name: "t", arguments: { a: 1 } });
    await f.call(4, { name: "t", task: {} });
    await f.call(5, { name: "t", _meta: { "io.modelcontextprotocol/related-task": { taskId: "x" } } });
    await until("the answer", () => f.atFar.length === 1);
    assert.deepEqual(f.atFar[0], {
      result: { content: [], echoed: { name: "t", arguments: { a: 1 } } },
      jsonrpc: "2.0",
      id: 3,
    });
    assert.deepEqual(
      f.passed.map((m) => m["id"]),
      [1, 2, 4, 5],
    );
  });

  test("a failure is answered as the SDK's server answers it: the code when a safe integer, else InternalError", async () => {
    const errors: unknown[] = [
      Object.assign(new Error("bad params"), { code: -32602, data: { why: 1 } }),
      Object.assign(new Error("odd code"), { code: 1.5 }),
      "not an Error",
    ];
    const f = await front(async () => {
      throw errors.shift();
    });
    for (const id of [1, 2, 3]) await f.call(id);
    await until("three answers", () => f.atFar.length === 3);
    assert.deepEqual(
      f.atFar.map((m) => m["error"]),
      [
        { code: -32602, message: "bad params", data: { why: 1 } },
        { code: -32603, message: "odd code" },
        { code: -32603, message: "Internal error" },
      ],
    );
  });

  test("the client's cancellation aborts the handler's signal and the call is not answered", async () => {
    let signal: AbortSignal | undefined;
    let finish: () => void = () => undefined;
    const f = await front(async (_request, extra) => {
      signal = extra.signal;
      await new Promise<void>((resolve) => (finish = resolve));
      return { content: [] };
    });
    await f.call(9);
    await until("the handler to run", () => signal !== undefined);
    await f.far.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "no" } });
    await f.far.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10 } });
    assert.equal(signal?.aborted, true);
    assert.equal(signal?.reason, "no");
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(f.atFar.length, 0, "no answer to a cancelled call");
    assert.deepEqual(
      f.passed.map((m) => (m["params"] as Received)["requestId"]),
      [10],
      "a cancellation of a request this path did not take goes on to the server",
    );
  });

  test("progress and other notifications of a call go to the client; the connection closing aborts every call", async () => {
    const signals: AbortSignal[] = [];
    const f = await front(async (_request, extra) => {
      signals.push(extra.signal);
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
      return new Promise(() => undefined);
    });
    await f.call(1);
    await f.call(2);
    await until("both running", () => f.calls.size === 2 && f.atFar.length === 2);
    assert.deepEqual(f.atFar[0], {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    });
    await f.near.close();
    assert.deepEqual(
      signals.map((s) => s.aborted),
      [true, true],
    );
    assert.equal(f.calls.size, 0);
    assert.ok(f.closed() > 0, "the server is told");
  });
});
