/**
 * The Streamable HTTP front (`--http host:port`; MCP 2025-11-25 `basic/transports.mdx` §Streamable HTTP and §Security
 * Warning): loopback only unless `--allow-remote`; every request needs `Authorization: Bearer <token>` (the token
 * from `--token-file`, compared in constant time); a request with an `Origin` header is refused unless that origin
 * was allowed (`--allow-origin`) or is the loopback front's own (`originAllowed`), and on loopback the `Host` must
 * name the loopback address (DNS rebinding). Each MCP
 * session is one client of the gateway, through the SDK's server transport, its bodies bounded by
 * `--max-message-bytes`.
 *
 * Sessions are bounded: one with no request open (no POST answering, no GET stream) for `--session-idle-timeout`
 * is closed, and when `MAX_SESSIONS` are open a new client takes the place of the least recently used idle one
 * (clients such as the SDK 1.x one close without a `DELETE`); only when every session is busy is it refused.
 */

import { randomUUID, timingSafeEqual, createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Reporter } from "../audit.js";
import { loadHttpServerTransport, type HttpServerTransport, type Transport } from "../sdk.js";
import { classify, refusal, type Refusal } from "./stateless.js";
import { refusalAnswer, serveStateless, writeAnswer, type StatelessHost } from "./stateless-http.js";

/** One value of a request header. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

export interface HttpFrontOptions {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly allowedOrigins: readonly string[];
  readonly maxMessageBytes: number;
  /** How long a session with no request open is kept. */
  readonly sessionIdleMs: number;
  /** Bytes a 2026-07-28 stream may leave unread before its notifications are dropped. */
  readonly maxQueuedBytes: number;
  /** How long a retry handed on to the replica holding its call may take. */
  readonly forwardTimeoutMs: number;
}

/** A session: its transport, its requests open now, and when it was last used. */
interface Session {
  readonly transport: HttpServerTransport;
  open: number;
  lastUsed: number;
}

/** The endpoint path (the one MCP clients use by convention). */
const MCP_PATH = "/mcp";
/** Sessions served at once; a new one evicts the least recently used idle one, or is refused when none is idle. */
const MAX_SESSIONS = 64;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Whether a host given to `--http` is a loopback address. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Whether a request's `Origin` may reach the gateway: one `--allow-origin` names, or, for a front on loopback, the
 * front's own origin (`http://localhost:<port>`, `http://127.0.0.1:<port>`, `http://[::1]:<port>`: a page the gateway
 * itself could serve, never a rebound name). Any other origin is refused (DNS rebinding, a foreign page).
 */
export function originAllowed(
  origin: string,
  allowed: readonly string[],
  self: { readonly loopback: boolean; readonly port: number },
): boolean {
  if (allowed.includes(origin)) return true;
  if (!self.loopback) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return url.protocol === "http:" && isLoopback(host) && url.port === String(self.port) && url.origin === origin;
}

function digest(text: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(text).digest());
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** What the front hands each new session to: the gateway, seen from below (the transport knows nothing of policy). */
export interface SessionHost {
  /**
   * Serves one client over `transport`; `onclose` runs when that client is gone. `direct` false: every request goes
   * through the SDK's server, which ties what belongs to a call to the call's stream.
   */
  attach(transport: Transport, onclose: () => void, direct: false): Promise<void>;
  /** Answers MCP 2026-07-28 requests, which belong to no session. */
  readonly stateless: StatelessHost;
}

/** A posted body, read whole up to `max` bytes: its JSON, or the refusal to send. */
async function readBody(req: IncomingMessage, max: number): Promise<{ body: unknown } | { refusal: Refusal }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Uint8Array).length;
    if (size > max) {
      req.resume();
      const why = `Payload too large: the body is over --max-message-bytes (${max})`;
      return { refusal: refusal(413, -32600, why) };
    }
    chunks.push(chunk as Uint8Array);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { refusal: refusal(400, -32700, "Parse error: the body is not JSON") };
  }
}

/** Starts the HTTP front; resolves with its address and a function that closes it (and every session). */
export async function serveHttp(
  gateway: SessionHost,
  options: HttpFrontOptions,
  reporter: Reporter,
): Promise<{ address: AddressInfo; close: () => Promise<void> }> {
  const Transport = await loadHttpServerTransport();
  /** In order of last use: the first is the least recently used. */
  const sessions = new Map<string, Session>();
  const expected = digest(`Bearer ${options.token}`);
  const loopback = isLoopback(options.host);
  const stateless = {
    maxQueuedBytes: options.maxQueuedBytes,
    keepAliveMs: 15_000,
    forwardTimeoutMs: options.forwardTimeoutMs,
  };

  /** Serves one request of a session: it is busy until the response closes, and moves to the most recently used. */
  const using = async (id: string, session: Session, res: ServerResponse, serve: () => Promise<void>) => {
    session.open++;
    session.lastUsed = Date.now();
    sessions.delete(id);
    sessions.set(id, session);
    res.once("close", () => {
      session.open--;
      session.lastUsed = Date.now();
    });
    await serve();
  };
  const closeSession = async (id: string, session: Session, why: string) => {
    sessions.delete(id);
    reporter.say(`HTTP session ${id.slice(0, 8)}… closed: ${why}`);
    await session.transport.close().catch(() => undefined);
  };
  /** Closes the least recently used idle session; false when every session is busy. */
  const evictIdle = async (): Promise<boolean> => {
    for (const [id, session] of sessions) {
      if (session.open > 0) continue;
      await closeSession(id, session, `the least recently used idle session, for a new client (${MAX_SESSIONS} open)`);
      return true;
    }
    return false;
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.open === 0 && now - session.lastUsed >= options.sessionIdleMs) {
          void closeSession(id, session, `idle for ${options.sessionIdleMs} ms (--session-idle-timeout)`);
        }
      }
    },
    Math.max(50, Math.min(60_000, Math.floor(options.sessionIdleMs / 4))),
  );
  sweep.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://gateway");
    if (url.pathname !== MCP_PATH) return refuse(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    const origin = req.headers.origin;
    const self = { loopback, port: (server.address() as AddressInfo).port };
    if (origin !== undefined && !originAllowed(origin, options.allowedOrigins, self)) {
      return refuse(res, 403, "forbidden: this Origin is not allowed (--allow-origin)");
    }
    if (loopback) {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
      if (!isLoopback(host)) return refuse(res, 403, "forbidden: the Host header does not name the loopback address");
    }
    // Hashing both sides gives equal lengths, so the comparison takes the same time whatever was sent.
    const given = req.headers.authorization;
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      const why =
        given === undefined
          ? "unauthorized: a bearer token is required (Authorization: Bearer <the token in --token-file>)"
          : "unauthorized: the bearer token sent is not the one in --token-file";
      return refuse(res, 401, why, { "www-authenticate": 'Bearer realm="backplane-schema gateway"' });
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, options.maxMessageBytes);
      if ("refusal" in read) return writeAnswer(res, refusalAnswer(null, read.refusal));
      body = read.body;
      // The era is the body's (MCP 2026-07-28 `basic/versioning.mdx`): a `_meta` claim is stateless, whatever else.
      const era = classify(body, header(req, "mcp-protocol-version"));
      if (era.era === "refused") return writeAnswer(res, refusalAnswer(era.id, era.refusal));
      if (era.era === "modern")
        return serveStateless({ req, res, body, options: stateless }, era.request, gateway.stateless);
    }
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (typeof id === "string" && known === undefined) return refuse(res, 404, "session not found");
    if (known !== undefined)
      return using(id as string, known, res, () => known.transport.handleRequest(req, res, body));
    if (req.method !== "POST") return refuse(res, 400, "bad request: no session (initialize first)");
    if (sessions.size >= MAX_SESSIONS && !(await evictIdle())) {
      return refuse(res, 503, `too many sessions (${MAX_SESSIONS}), none of them idle`);
    }
    const transport: HttpServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, open: 0, lastUsed: Date.now() });
      },
      maxRequestBodySize: options.maxMessageBytes,
    });
    const closed = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await gateway.attach(transport, closed, false);
    await transport.handleRequest(req, res, body);
    // A first request that did not initialise a session leaves nothing behind.
    if (transport.sessionId === undefined) await transport.close();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      reporter.say(`an HTTP request failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    address,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
