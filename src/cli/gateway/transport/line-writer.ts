/**
 * The writing side of a line transport, flow-controlled and bounded: once the stream's buffer is full (`write`
 * returned false) messages wait in the writer's own queue until one `drain`; a notification that would take the
 * queued bytes past `maxQueuedBytes` (or the queue past `MAX_QUEUED_MESSAGES`) is dropped (`send` rejects with
 * `QueueFull`), and a request or response is refused past four times that bound, so a peer that reads slowly holds the
 * gateway's memory to the bound.
 */

import type { Writable } from "node:stream";
import type { JSONRPCMessage } from "../sdk.js";

/** Messages waiting to be written, at most. */
const MAX_QUEUED_MESSAGES = 10_000;

/** A message not sent: the peer reads too slowly and the outgoing queue is full. */
export class QueueFull extends Error {}

interface Queued {
  readonly line: string;
  readonly bytes: number;
  readonly resolve: () => void;
}

export class LineWriter {
  /** Messages waiting for `drain`, and their bytes. */
  private queue: Queued[] = [];
  private queueBytes = 0;
  private waiting = false;
  private closed = false;
  /** Notifications dropped because the queue was full. */
  dropped = 0;
  /** The most bytes ever waiting at once (the queue and the stream's buffer). */
  highWater = 0;

  /** `maxQueuedBytes`: the most bytes waiting (in the queue and the stream's buffer); unbounded when not given. */
  constructor(
    private readonly output: Writable,
    private readonly maxQueuedBytes = Infinity,
  ) {}

  /** Bytes waiting to be written: in the queue, and in the stream's own buffer. */
  get queuedBytes(): number {
    return this.queueBytes + this.output.writableLength;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.output.destroyed || this.output.writableEnded) {
        reject(new Error("the connection is closed"));
        return;
      }
      let line: string;
      try {
        line = JSON.stringify(message) + "\n";
      } catch (e) {
        reject(new Error(`the message cannot be written as JSON: ${e instanceof Error ? e.message : String(e)}`));
        return;
      }
      const bytes = Buffer.byteLength(line);
      const max = this.maxQueuedBytes;
      const notification = !Object.hasOwn(message, "id");
      const queued = this.queuedBytes + bytes;
      if (notification ? queued > max || this.queue.length >= MAX_QUEUED_MESSAGES : queued > 4 * max) {
        if (notification) this.dropped++;
        reject(
          new QueueFull(`the peer reads too slowly: ${this.queuedBytes} bytes wait to be written, at most ${max}`),
        );
        return;
      }
      if (this.waiting) {
        this.queue.push({ line, bytes, resolve });
        this.queueBytes += bytes;
      } else {
        this.write(line);
        resolve();
      }
      this.highWater = Math.max(this.highWater, this.queuedBytes);
    });
  }

  /** Writes one line; when the stream's buffer is full, what follows waits for one `drain`. */
  private write(line: string): void {
    if (this.output.write(line)) return;
    this.waiting = true;
    this.output.once("drain", () => this.flush());
  }

  private flush(): void {
    this.waiting = false;
    while (!this.waiting && this.queue.length > 0 && !this.closed) {
      const next = this.queue.shift() as Queued;
      this.queueBytes -= next.bytes;
      this.write(next.line);
      next.resolve();
    }
  }

  /** The connection ended: what was waiting is lost with it (its senders learn of the close through `onclose`). */
  close(): void {
    this.closed = true;
    for (const queued of this.queue) queued.resolve();
    this.queue = [];
    this.queueBytes = 0;
  }
}
