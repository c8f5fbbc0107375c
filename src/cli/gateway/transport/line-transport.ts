/**
 * MCP's stdio framing (MCP 2025-11-25 `basic/transports.mdx` §stdio: one JSON-RPC message per line, UTF-8, no embedded
 * newlines) over any pair of streams, bounded: a line longer than `maxMessageBytes`, a line that is not JSON, or JSON
 * that is not a JSON-RPC message is a fault, reported once with what it was; the owner decides what a fault means (a
 * server is isolated, the client's message is dropped). Parsed messages are handed on exactly as `JSON.parse` made
 * them, so nothing a peer sent is reshaped on the way through. Writing is flow-controlled and bounded by the
 * transport's `LineWriter` (line-writer.ts), so a peer that reads slowly holds the gateway's memory to its bound.
 */

import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, Transport } from "../sdk.js";
import { LineWriter } from "./line-writer.js";

/** What was wrong with a line a peer wrote. */
export type LineFault = { kind: "oversized"; bytes: number } | { kind: "not_json" } | { kind: "not_jsonrpc" };

export interface LineTransportOptions {
  /** The largest message accepted, in bytes of its line (without the newline). */
  readonly maxMessageBytes: number;
  /** A line that is not an MCP message. */
  readonly onFault: (fault: LineFault) => void;
  /** Whether a parsed value is a JSON-RPC message (the gateway gives `isJsonRpcMessage`, jsonrpc.ts). */
  readonly isMessage: (value: unknown) => boolean;
  /** Called by `close()`: ends the streams (or the child behind them). */
  readonly close: () => Promise<void>;
  /** The most bytes waiting to be written (in the queue and the stream's buffer); unbounded when not given. */
  readonly maxQueuedBytes?: number;
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
  /** The outgoing side: its bounded queue and flow control. */
  readonly writer: LineWriter;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions,
  ) {
    this.writer = new LineWriter(output, options.maxQueuedBytes);
  }

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
    this.writer.close();
    this.onclose?.();
  }

  /** Writes one message as a line; rejects with `QueueFull` when the peer reads too slowly (line-writer.ts). */
  send(message: JSONRPCMessage): Promise<void> {
    return this.writer.send(message);
  }

  /** Ends the connection at once (what is pending fails now), then stops the streams or the child behind them. */
  async close(): Promise<void> {
    this.ended();
    await this.options.close();
  }
}
