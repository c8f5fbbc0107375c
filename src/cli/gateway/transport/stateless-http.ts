/**
 * An MCP 2026-07-28 request on the HTTP front (MCP 2026-07-28 `basic/transports/streamable-http.mdx`): its mirrored
 * headers checked, then answered with one JSON response, or with a stream when something goes ahead of the answer
 * (progress, a log message at the level the request asked for); a client that closes the stream before the answer
 * cancels the request. `subscriptions/listen` keeps its stream open: the acknowledgement first, the granted
 * notifications after, comment lines to keep it alive, until the client closes it. Writes to a client that does not
 * read are bounded: past `maxQueuedBytes` a notification is dropped.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Message } from "../sdk.js";
import { type ModernRequest, type Refusal } from "./stateless.js";
import { checkStandardHeaders, mirroredHeaders } from "./mirrored-headers.js";
import { principalOf, type StatelessAnswer, type StatelessCall } from "./stateless-call.js";

/** What answers 2026-07-28 requests (the gateway's stateless routing). */
export interface StatelessHost {
  answer(call: StatelessCall): Promise<StatelessAnswer>;
  listen(
    request: ModernRequest,
    send: (message: Message) => boolean,
  ): { acknowledged: Message; leave: () => void } | StatelessAnswer;
}

interface StatelessHttpOptions {
  /** Bytes a client may leave unread before its notifications are dropped. */
  readonly maxQueuedBytes: number;
  /** How often a listen stream gets a comment line. */
  readonly keepAliveMs: number;
  /** How long a retry handed on to the replica holding its call may take. */
  readonly forwardTimeoutMs: number;
}

/** The header a replica marks a retry it hands on with (the receiving replica never hands it on again). */
const FORWARDED = "mcp-gateway-forwarded";
/** The request headers a handed-on retry keeps. */
const KEPT = ["authorization", "content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name"];

/** One posted 2026-07-28 request on its way: the HTTP exchange, its parsed body, and the front's bounds. */
export interface Posted {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: unknown;
  readonly options: StatelessHttpOptions;
}

/**
 * A retry handed on to the replica holding its call, its answer streamed back as that replica writes it; false when
 * that replica cannot be reached (the caller then starts the request again here).
 */
async function handOn(posted: Posted, url: string, closed: AbortSignal): Promise<boolean> {
  const { req, res, body, options } = posted;
  const headers: Record<string, string> = { [FORWARDED]: "1" };
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && (KEPT.includes(name) || name.startsWith("mcp-param-"))) headers[name] = value;
  }
  let response: Response;
  try {
    const abort = new AbortController();
    closed.addEventListener("abort", () => abort.abort(), { once: true });
    setTimeout(() => abort.abort(), options.forwardTimeoutMs).unref();
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: abort.signal });
  } catch {
    return false;
  }
  res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
  if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
  res.end();
  return true;
}

/** A JSON-RPC response written as one JSON body; one that cannot be written becomes an internal error. */
export function writeAnswer(res: ServerResponse, answer: StatelessAnswer): void {
  let text: string;
  let status = answer.status;
  try {
    text = JSON.stringify(answer.message);
  } catch {
    status = 200;
    const error = { code: -32603, message: "Internal error: the gateway cannot write its answer" };
    text = JSON.stringify({ jsonrpc: "2.0", id: answer.message["id"] ?? null, error });
  }
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
}

/** A refusal as the JSON-RPC error response it is sent as. */
export function refusalAnswer(id: string | number | null, r: Refusal): StatelessAnswer {
  const error = { code: r.code, message: r.message, ...(r.data === undefined ? {} : { data: r.data }) };
  return { status: r.status, message: { jsonrpc: "2.0", id, error } };
}

function event(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

/** What writes notifications ahead of a request's answer: the response becomes a stream at the first. */
function streamOf(posted: Posted): { send: (message: Message) => boolean; streaming: () => boolean } {
  const { req, res, options } = posted;
  const accepts = (req.headers.accept ?? "").includes("text/event-stream");
  let streaming = false;
  const send = (message: Message): boolean => {
    if (!accepts || res.writableEnded || res.destroyed) return false;
    if (res.writableLength > options.maxQueuedBytes) return false;
    if (!streaming) res.writeHead(200, SSE_HEADERS);
    streaming = true;
    try {
      res.write(event({ jsonrpc: "2.0", ...message }));
      return true;
    } catch {
      return false;
    }
  };
  return { send, streaming: () => streaming };
}

/** Serves one 2026-07-28 request. */
export async function serveStateless(posted: Posted, request: ModernRequest, host: StatelessHost): Promise<void> {
  const { req, res } = posted;
  const headers = mirroredHeaders(req.headers);
  const mismatch = checkStandardHeaders(headers, request);
  if (mismatch !== undefined) return writeAnswer(res, refusalAnswer(request.id, mismatch));
  const stream = streamOf(posted);
  if (request.method === "subscriptions/listen") return listen(posted, request, host, stream.send);
  const closed = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) closed.abort();
  });
  const principal = principalOf(req.headers.authorization);
  const forwarded = req.headers[FORWARDED] !== undefined;
  const call = { request, headers, principal, closed: closed.signal, stream: stream.send, forwarded };
  let answer = await host.answer(call);
  if (answer.forward !== undefined) {
    if (await handOn(posted, answer.forward, closed.signal)) return;
    answer = await host.answer({ ...call, forwarded: true });
  }
  if (res.destroyed) return;
  if (!stream.streaming()) return writeAnswer(res, answer);
  try {
    res.end(event(answer.message));
  } catch {
    res.end(event(refusalAnswer(request.id, { status: 200, code: -32603, message: "the answer cannot be written" })));
  }
}

/** A `subscriptions/listen` stream, open until the client closes it. */
function listen(
  posted: Posted,
  request: ModernRequest,
  host: StatelessHost,
  send: (message: Message) => boolean,
): void {
  const { res, options } = posted;
  const stream = host.listen(request, send);
  if (!("acknowledged" in stream)) return writeAnswer(res, stream);
  if (!send(stream.acknowledged)) {
    stream.leave();
    const why = "Invalid Request: subscriptions/listen needs a stream (Accept: text/event-stream)";
    return writeAnswer(res, refusalAnswer(request.id, { status: 400, code: -32600, message: why }));
  }
  const alive = setInterval(() => {
    if (res.writableLength <= options.maxQueuedBytes) res.write(": keep-alive\n\n");
  }, options.keepAliveMs);
  alive.unref();
  res.once("close", () => {
    clearInterval(alive);
    stream.leave();
  });
}
