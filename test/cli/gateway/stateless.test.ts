/**
 * The MCP 2026-07-28 parts of the gateway that need no process: a posted body's era, the envelope, the mirrored
 * headers (standard and `Mcp-Param-*`, the base64 sentinel), the `requestState` codec, and a parked call's rounds.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RequestStateCodec, paramsDigest } from "../../../src/cli/gateway/policy/request-state.js";
import { Exchange, RequestFront } from "../../../src/cli/gateway/routing/exchange.js";
import { classify, type ModernRequest } from "../../../src/cli/gateway/transport/stateless.js";
import {
  checkParamHeaders,
  checkStandardHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  mirroredHeaders,
  paramHeadersOf,
} from "../../../src/cli/gateway/transport/mirrored-headers.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function modern(method: string, params: Record<string, unknown>): ModernRequest {
  const classified = classify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }, undefined);
  assert.equal(classified.era, "modern");
  return (classified as { request: ModernRequest }).request;
}

describe("a posted body's era", () => {
  test("a _meta protocol-version claim is modern; initialize, no claim, a batch of 2025 messages are legacy", () => {
    assert.equal(
      classify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }, undefined).era,
      "modern",
    );
    assert.equal(classify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, undefined).era, "legacy");
    assert.equal(classify({ jsonrpc: "2.0", id: 1, method: "tools/list" }, undefined).era, "legacy");
    assert.equal(classify([{ jsonrpc: "2.0", method: "notifications/initialized" }], undefined).era, "legacy");
  });

  test("refusals: a batch with a modern request, a bad envelope, an unknown version, a header that disagrees", () => {
    const refused = (body: unknown, header?: string) => {
      const c = classify(body, header);
      assert.equal(c.era, "refused");
      const { refusal } = c as { refusal: { status: number; code: number } };
      return [refusal.status, refusal.code];
    };
    assert.deepEqual(refused([{ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: META } }]), [400, -32600]);
    const noCaps = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    assert.deepEqual(refused({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: noCaps } }), [400, -32602]);
    const v9 = { ...META, "io.modelcontextprotocol/protocolVersion": "v9" };
    assert.deepEqual(refused({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: v9 } }), [400, -32022]);
    assert.deepEqual(
      refused({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: v9 } }, "2026-07-28"),
      [400, -32020],
    );
    assert.deepEqual(refused({ jsonrpc: "2.0", id: 1, method: "x", params: {} }, "2026-07-28"), [400, -32602]);
    const level = { ...META, "io.modelcontextprotocol/logLevel": "loud" };
    assert.deepEqual(refused({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: level } }), [400, -32602]);
  });

  test("__proto__ in _meta is an ordinary name, never the envelope", () => {
    const meta = JSON.parse('{"__proto__": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}');
    assert.equal(classify({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: meta } }, undefined).era, "legacy");
  });
});

describe("mirrored headers", () => {
  const headers = (h: Record<string, string>) => mirroredHeaders(h);
  const base = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };

  test("Mcp-Name mirrors params.name, plain or as the base64 sentinel; a mismatch or bad sentinel is -32020", () => {
    const request = modern("tools/call", { name: "s__tool é" });
    const code = (h: Record<string, string>) => checkStandardHeaders(headers({ ...base, ...h }), request)?.code;
    assert.equal(code({ "mcp-name": encodeHeaderValue("s__tool é") }), undefined);
    assert.match(encodeHeaderValue("s__tool é"), /^=\?base64\?.+\?=$/);
    assert.equal(code({ "mcp-name": "s__tool e" }), -32020);
    assert.equal(code({ "mcp-name": "=?base64?!!!?=" }), -32020);
    assert.equal(code({}), -32020);
    assert.equal(checkStandardHeaders(headers({ "mcp-method": "tools/call" }), request)?.code, -32020);
    assert.equal(checkStandardHeaders(headers({ ...base, "mcp-method": "tools/list" }), request)?.code, -32020);
  });

  test("the sentinel round-trips, and a plain value that looks like one is encoded", () => {
    for (const value of ["plain", " padded ", "ünïcode", "=?base64?aGk=?=", "tab\there"]) {
      assert.equal(decodeHeaderValue(encodeHeaderValue(value)), value);
    }
    assert.equal(encodeHeaderValue("plain"), "plain");
    assert.equal(decodeHeaderValue("=?base64?aGk?="), undefined, "padding is required");
  });

  test("x-mcp-header declarations: root properties of string, integer or boolean type, names unique", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        other: { type: "string" },
      },
    };
    assert.deepEqual(paramHeadersOf(schema), [
      { property: "region", header: "Region", type: "string" },
      { property: "priority", header: "Priority", type: "integer" },
    ]);
    const twice = {
      properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } },
    };
    assert.match(String(paramHeadersOf(twice)), /declared twice/);
    assert.match(
      String(paramHeadersOf({ properties: { a: { type: "object", "x-mcp-header": "A" } } })),
      /needs a string/,
    );
  });

  test("Mcp-Param-* against the arguments: needed when the argument is there, equal, numbers as numbers", () => {
    const declared = [
      { property: "region", header: "Region", type: "string" as const },
      { property: "priority", header: "Priority", type: "integer" as const },
    ];
    const check = (args: unknown, h: Record<string, string>) => checkParamHeaders(declared, args, headers(h))?.code;
    assert.equal(
      check({ region: "eu", priority: 3 }, { "mcp-param-region": "eu", "mcp-param-priority": "3" }),
      undefined,
    );
    assert.equal(
      check({ region: "eu", priority: 3 }, { "mcp-param-region": "eu", "mcp-param-priority": "3.0" }),
      undefined,
    );
    assert.equal(check({ region: "eu" }, { "mcp-param-region": "us" }), -32020);
    assert.equal(check({ region: "eu" }, {}), -32020);
    assert.equal(check({ region: null }, {}), undefined, "null expects no header");
    assert.equal(check({}, { "mcp-param-region": "anything" }), undefined, "an absent argument expects none");
  });
});

describe("the requestState codec", () => {
  const claims = { park: "p", principal: "who", method: "tools/call", digest: "d", round: 1, exp: Date.now() + 60_000 };

  test("opens what it minted; a changed byte, another key, expiry are refused", () => {
    const key = new Uint8Array(32).fill(7);
    const codec = new RequestStateCodec(key, "a");
    const state = codec.mint(claims);
    assert.deepEqual(codec.open(state), { ...claims, replica: "a" });
    assert.deepEqual(
      new RequestStateCodec(key, "b").open(state),
      { ...claims, replica: "a" },
      "a replica sharing the key",
    );
    assert.match(String(new RequestStateCodec(new Uint8Array(32).fill(8)).open(state)), /signature/);
    const [text, mac] = state.split(".");
    const flipped = `${text!.slice(0, -1)}${text!.endsWith("A") ? "B" : "A"}.${mac}`;
    assert.equal(typeof codec.open(flipped), "string");
    assert.match(String(codec.open(codec.mint({ ...claims, exp: Date.now() - 1 }))), /expired/);
    assert.throws(() => new RequestStateCodec(new Uint8Array(31)), RangeError);
  });

  test("the params digest ignores _meta, inputResponses, requestState and member order", () => {
    const a = paramsDigest({ name: "t", arguments: { x: 1, y: 2 }, _meta: { a: 1 } });
    const b = paramsDigest({ arguments: { y: 2, x: 1 }, name: "t", inputResponses: {}, requestState: "s" });
    assert.equal(a, b);
    assert.notEqual(a, paramsDigest({ name: "t", arguments: { x: 1, y: 3 } }));
  });
});

describe("a parked call's rounds", () => {
  test("questions asked together go out together; answered ones are not asked again; the result ends it", async () => {
    let ended = 0;
    const exchange = new Exchange("tools/call", "d", "p", () => ended++);
    const signal = new AbortController().signal;
    let answers: unknown[] = [];
    exchange.run(
      (async () => {
        answers = await Promise.all([
          exchange.ask({ method: "roots/list" }, signal),
          exchange.ask({ method: "x" }, signal),
        ]);
        return { done: true };
      })(),
    );
    const first = await exchange.next();
    assert.deepEqual(first, { kind: "input", requests: { q1: { method: "roots/list" }, q2: { method: "x" } } });
    exchange.answer({ q1: "one" });
    assert.deepEqual(await exchange.next(), { kind: "input", requests: { q2: { method: "x" } } });
    exchange.answer({ q2: "two", q9: "never asked" });
    assert.deepEqual(await exchange.next(), { kind: "done", result: { done: true } });
    assert.deepEqual(answers, ["one", "two"]);
    assert.equal(ended, 1);
  });

  test("a call nobody retries is cancelled when its time is up: its signal aborts, its questions are refused", async () => {
    const exchange = new Exchange("tools/call", "d", "p", () => undefined);
    const asked = exchange.ask({ method: "sampling/createMessage" }, exchange.controller.signal);
    exchange.run(asked);
    assert.equal((await exchange.next()).kind, "input");
    // The park timer does not hold the process open (unref); the test holds it while it waits.
    const hold = setTimeout(() => undefined, 5_000);
    exchange.park(20);
    await assert.rejects(asked, /no retry came in time/);
    clearTimeout(hold);
    assert.equal(exchange.controller.signal.aborted, true);
  });

  test("a request front: log messages only at the level asked, a missing capability ends the request with -32021", async () => {
    const sent: object[] = [];
    const exchange = new Exchange("tools/call", "d", "p", () => undefined);
    const front = new RequestFront(exchange, { elicitation: {} }, "warning", (n) => sent.push(n) > 0);
    await front.notify({ method: "notifications/message", params: { level: "info", data: "quiet" } });
    await front.notify({ method: "notifications/message", params: { level: "error", data: "loud" } });
    assert.deepEqual([...sent], [{ method: "notifications/message", params: { level: "error", data: "loud" } }]);
    const silent = new RequestFront(exchange, {}, undefined, (n) => sent.push(n) > 0);
    await silent.notify({ method: "notifications/message", params: { level: "emergency", data: "x" } });
    assert.equal(sent.length, 1, "no logLevel: no log messages");
    front.lacks("roots");
    assert.equal(exchange.ended, false, "a server asking for roots does not end the request");
    front.lacks("sampling");
    const step = await exchange.next();
    assert.equal(step.kind, "failed");
    const error = (step as { error: { code: number; data: unknown } }).error;
    assert.deepEqual([error.code, error.data], [-32021, { requiredCapabilities: { sampling: {} } }]);
  });
});
