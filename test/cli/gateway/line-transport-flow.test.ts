/**
 * Issue 44 observation 3: a peer that reads slowly must not make the gateway buffer without limit. A flood of
 * notifications into a Writable nobody reads keeps the bytes waiting at or under `maxQueuedBytes` (counted by the
 * transport), drops what does not fit, and waits for the stream with one `drain` listener, never one per message.
 */

import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { describe, test } from "node:test";
import { LineTransport } from "../../../src/cli/gateway/transport/line-transport.js";
import { QueueFull } from "../../../src/cli/gateway/transport/line-writer.js";

/** A Writable that takes nothing until `open()`: a client that has stopped reading. */
function slowReader() {
  const pending: (() => void)[] = [];
  let read = 0;
  let open = false;
  const output = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      if (open) done();
      else pending.push(done);
    },
  });
  return {
    output,
    read: () => read,
    open: () => {
      open = true;
      for (const done of pending.splice(0)) done();
    },
  };
}

function transportTo(output: Writable, maxQueuedBytes: number) {
  return new LineTransport(new PassThrough(), output, {
    maxMessageBytes: 1024 * 1024,
    maxQueuedBytes,
    onFault: () => undefined,
    isMessage: () => true,
    close: async () => undefined,
  });
}

const notification = (bytes: number) => ({
  jsonrpc: "2.0" as const,
  method: "notifications/message",
  params: { level: "info", data: "x".repeat(bytes) },
});

describe("LineTransport flow control (issue 44, observation 3)", () => {
  test("a flood to a reader that has stopped stays within the bound; the rest is dropped and counted", async () => {
    const reader = slowReader();
    const max = 256 * 1024;
    const transport = transportTo(reader.output, max);
    await transport.start();
    const sends: Promise<void>[] = [];
    let refused = 0;
    for (let i = 0; i < 2_000; i++) {
      sends.push(
        transport.send(notification(16 * 1024)).catch((e: unknown) => {
          assert.ok(e instanceof QueueFull);
          refused++;
        }),
      );
      assert.ok(transport.writer.queuedBytes <= max, `queued ${transport.writer.queuedBytes} > ${max}`);
      assert.ok(reader.output.listenerCount("drain") <= 1, `${reader.output.listenerCount("drain")} drain listeners`);
    }
    await new Promise((resolve) => setImmediate(resolve));
    // 2,000 messages of 16 KiB are 32 MiB; at most the bound waits, the rest is dropped.
    assert.ok(transport.writer.highWater <= max, `high water ${transport.writer.highWater}`);
    assert.ok(refused >= 2_000 - Math.ceil(max / (16 * 1024)) - 1, `only ${refused} dropped`);
    assert.equal(transport.writer.dropped, refused);
    reader.open();
    await Promise.all(sends);
    assert.equal(transport.writer.queuedBytes, 0);
  });

  test("responses pass a full queue up to four times the bound, in order", async () => {
    const reader = slowReader();
    const max = 64 * 1024;
    const transport = transportTo(reader.output, max);
    await transport.start();
    const sent: number[] = [];
    const all: Promise<void>[] = [];
    for (let id = 0; id < 24; id++) {
      all.push(
        transport
          .send({ jsonrpc: "2.0", id, result: { data: "y".repeat(8 * 1024) } })
          .then(() => void sent.push(id))
          .catch(() => undefined),
      );
    }
    assert.ok(transport.writer.queuedBytes <= 4 * max);
    assert.ok(transport.writer.queuedBytes > max, "responses are held past the notification bound");
    await assert.rejects(transport.send(notification(1024)), QueueFull);
    reader.open();
    await Promise.all(all);
    assert.deepEqual(sent, [...Array(24).keys()]);
    assert.equal(sent.length, 24);
  });

  test("a message that cannot be written as JSON is an error, not silence", async () => {
    const transport = transportTo(new PassThrough(), 1024);
    await transport.start();
    let deep: unknown = {};
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    await assert.rejects(transport.send({ jsonrpc: "2.0", id: 1, result: { deep } } as never), /cannot be written/);
  });
});
