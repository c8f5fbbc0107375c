/** The bounded newline-delimited JSON-RPC transport: framing across chunks, limits, garbage, exact messages. */

import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, test } from "node:test";
import { LineTransport, type LineFault } from "../../../src/cli/gateway/transport/line-transport.js";

function setup(maxMessageBytes = 64) {
  const input = new PassThrough();
  const output = new PassThrough();
  const faults: LineFault[] = [];
  const messages: unknown[] = [];
  let closed = 0;
  const transport = new LineTransport(input, output, {
    maxMessageBytes,
    onFault: (fault) => faults.push(fault),
    isMessage: (value) =>
      typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0",
    close: async () => undefined,
  });
  transport.onmessage = (message) => messages.push(message);
  transport.onclose = () => closed++;
  return { input, output, transport, faults, messages, closed: () => closed };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("LineTransport", () => {
  test("messages split across chunks and several in one chunk, CRLF and blank lines", async () => {
    const t = setup();
    await t.transport.start();
    t.input.write('{"jsonrpc":"2.0","method":"a"');
    t.input.write('}\n\n{"jsonrpc":"2.0","id":1,"result":{}}\r\n{"jsonrpc":"2.0",');
    t.input.write(Buffer.from('"method":"é"}\n'));
    await tick();
    assert.deepEqual(t.messages, [
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", method: "é" },
    ]);
    assert.deepEqual(t.faults, []);
  });

  test("a multi-byte character split between chunks is decoded whole", async () => {
    const t = setup();
    await t.transport.start();
    const bytes = Buffer.from('{"jsonrpc":"2.0","method":"€"}\n');
    const euro = bytes.indexOf(0xe2);
    t.input.write(bytes.subarray(0, euro + 1));
    t.input.write(bytes.subarray(euro + 1));
    await tick();
    assert.deepEqual(t.messages, [{ jsonrpc: "2.0", method: "€" }]);
  });

  test("__proto__ stays an own member: the message is handed on as JSON.parse made it", async () => {
    const t = setup(1024);
    await t.transport.start();
    t.input.write('{"jsonrpc":"2.0","method":"m","params":{"__proto__":{"x":1}}}\n');
    await tick();
    const params = (t.messages[0] as { params: object }).params;
    assert.ok(Object.hasOwn(params, "__proto__"));
    assert.equal(Object.getPrototypeOf(params), Object.prototype);
  });

  test("an oversized line is a fault, within one chunk or across many, and the next message still arrives", async () => {
    const t = setup(40);
    await t.transport.start();
    t.input.write(`{"jsonrpc":"2.0","method":"${"x".repeat(50)}"}\n{"jsonrpc":"2.0","method":"ok"}\n`);
    for (let i = 0; i < 10; i++) t.input.write("y".repeat(20));
    t.input.write('\n{"jsonrpc":"2.0","method":"ok2"}\n');
    await tick();
    assert.deepEqual(
      t.faults.map((f) => f.kind),
      ["oversized", "oversized"],
    );
    assert.deepEqual(t.messages, [
      { jsonrpc: "2.0", method: "ok" },
      { jsonrpc: "2.0", method: "ok2" },
    ]);
  });

  test("a line that is not JSON, and JSON that is not JSON-RPC, are faults", async () => {
    const t = setup();
    await t.transport.start();
    t.input.write('Server running on stdio\n[1,2]\n{"jsonrpc":"1.0"}\n');
    await tick();
    assert.deepEqual(
      t.faults.map((f) => f.kind),
      ["not_json", "not_jsonrpc", "not_jsonrpc"],
    );
    assert.deepEqual(t.messages, []);
  });

  test("send writes one line per message; the end of input closes it once; a closed transport refuses to send", async () => {
    const t = setup();
    await t.transport.start();
    let written = "";
    t.output.on("data", (chunk: Buffer) => (written += String(chunk)));
    await t.transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await tick();
    assert.equal(written, '{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    t.input.end();
    await tick();
    assert.equal(t.closed(), 1);
    await t.transport.close();
    assert.equal(t.closed(), 1);
    await assert.rejects(t.transport.send({ jsonrpc: "2.0", method: "x" }), /closed/);
  });
});
