/**
 * MCP's stdio framing (MCP 2025-11-25 `basic/transports.mdx` §stdio: one JSON-RPC message per line, UTF-8, no embedded
 * newlines) over any pair of streams, bounded: a line longer than `maxMessageBytes`, a line that is not JSON, or JSON
 * that is not a JSON-RPC message is a fault, reported once with what it was; the owner decides what a fault means (a
 * server is isolated, the client's message is dropped). Parsed messages are handed on exactly as `JSON.parse` made
 * them, so nothing a peer sent is reshaped on the way through.
 *
 * Writing is flow-controlled and bounded: once the stream's buffer is full (`write` returned false) messages wait in
 * the transport's own queue until one `drain`; a notification that would take the queued bytes past `maxQueuedBytes`
 * (or the queue past `MAX_QUEUED_MESSAGES`) is dropped (`send` rejects with `QueueFull`), and a request or response
 * is refused past four times that bound, so a peer that reads slowly holds the gateway's memory to the bound.
 */

import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, Transport } from "../sdk.js";

/** What was wrong with a line a peer wrote. */
export type LineFault = { kind: "oversized"; bytes: number } | { kind: "not_json" } | { kind: "not_jsonrpc" };

export interface LineTransportOptions {
  /** The largest message accepted, in bytes of its line (without the newline). */
  readonly maxMessageBytes: number;
  /** A line that is not an MCP message. */
  readonly onFault: (fault: LineFault) => void;
  /** Whether a parsed value is a JSON-RPC message (the SDK's `JSONRPCMessageSchema`). */
  readonly isMessage: (value: unknown) => boolean;
  /** Called by `close()`: ends the streams (or the child behind them). */
  readonly close: () => Promise<void>;
  /** The most bytes waiting to be written (in the queue and the stream's buffer); unbounded when not given. */
  readonly maxQueuedBytes?: number;
}

/** Messages waiting to be written, at most. */
const MAX_QUEUED_MESSAGES = 10_000;

/** A message not sent: the peer reads too slowly and the outgoing queue is full. */
export class QueueFull extends Error {}

interface Queued {
  readonly line: string;
  readonly bytes: number;
  readonly resolve: () => void;
}

const NEWLINE = 0x0a;
const UTF8 = new TextDecoder();

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A `Transport` (the SDK's interface) over a readable and a writable stream of newline-delimited JSON. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private chunks: Uint8Array[] = [];
  private pending = 0;
  /** After an oversized line: its remaining bytes are skipped up to the next newline. */
  private skipping = false;
  private closed = false;
  /** Messages waiting for `drain`, and their bytes. */
  private queue: Queued[] = [];
  private queueBytes = 0;
  private waiting = false;
  /** Notifications dropped because the queue was full. */
  dropped = 0;
  /** The most bytes ever waiting at once (the queue and the stream's buffer). */
  highWater = 0;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk: Uint8Array) => this.read(chunk));
    this.input.on("end", () => this.ended());
    this.input.on("close", () => this.ended());
    this.input.on("error", (e) => this.onerror?.(e));
    this.output.on("error", (e) => this.onerror?.(e));
  }

  private read(chunk: Uint8Array): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0 && !this.closed; nl = chunk.indexOf(NEWLINE, start)) {
      const part = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pending + part.length > this.options.maxMessageBytes) {
        this.oversized(this.pending + part.length);
        continue;
      }
      const line = this.pending === 0 ? part : concat([...this.chunks, part], this.pending + part.length);
      this.chunks = [];
      this.pending = 0;
      this.line(line);
    }
    if (this.closed || start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.skipping) return;
    if (this.pending + rest.length > this.options.maxMessageBytes) {
      this.oversized(this.pending + rest.length);
      this.skipping = true;
      return;
    }
    this.chunks.push(rest);
    this.pending += rest.length;
  }

  private oversized(bytes: number): void {
    this.chunks = [];
    this.pending = 0;
    this.options.onFault({ kind: "oversized", bytes });
  }

  private line(bytes: Uint8Array): void {
    let text = UTF8.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.onFault({ kind: "not_json" });
      return;
    }
    if (!this.options.isMessage(value)) {
      this.options.onFault({ kind: "not_jsonrpc" });
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.chunks = [];
    // What was waiting is lost with the connection; its senders learn of the close through `onclose`.
    for (const queued of this.queue) queued.resolve();
    this.queue = [];
    this.queueBytes = 0;
    this.onclose?.();
  }

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
      const max = this.options.maxQueuedBytes ?? Infinity;
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

  /** Ends the connection at once (what is pending fails now), then stops the streams or the child behind them. */
  async close(): Promise<void> {
    this.ended();
    await this.options.close();
  }
}
