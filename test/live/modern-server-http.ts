/**
 * The HTTP front of the SDK 2.x test server (modern-server.ts): Node's http server in front of the SDK's fetch-shaped
 * entry. A request the SDK classifies as 2026-07-28 (`isLegacyRequest` false) goes to a strict `createMcpHandler`; a
 * 2025-era one goes, in `sessions` mode (the default), to a sessionful `WebStandardStreamableHTTPServerTransport` per
 * `initialize` — the SDK's documented way to keep serving 2025 clients beside the stateless entry — so a 2025 client
 * gets `elicitation/create` and `sampling/createMessage` as real requests (the SDK's legacy shim turns the tools'
 * `input_required` into them) and `tools/list_changed` on its GET stream; in `stateless` mode it goes to the entry's
 * own stateless legacy leg, which cannot send a 2025 client any request.
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from "@modelcontextprotocol/server";
import { build, registerExtraPrompt, registerExtraTool, type Changed } from "./modern-server-tools.js";

/** How 2025-era requests are served. */
export type LegacyMode = "sessions" | "stateless";

/** The largest request body the front buffers (the SDK's own default bound). */
const MAX_BODY = 4 * 1024 * 1024;
/** The most 2025 sessions kept at once; a new one closes the oldest. */
export const MAX_SESSIONS = 64;

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
}

/** A Node request as a web-standard one, its body buffered under a bound (`undefined` past it). */
async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  chunks.reduce((at, chunk) => (body.set(chunk, at), at + chunk.length), 0);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(key, one);
  }
  const method = req.method ?? "GET";
  const init = { method, headers, signal, ...(method === "GET" || method === "HEAD" ? {} : { body }) };
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, init);
}

/** Writes a web-standard response; a client that goes away aborts the request (the 2026-07-28 cancellation). */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (response.body === null) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Sessionful 2025-era serving: one instance and transport per `initialize`, at most {@link MAX_SESSIONS}. */
function legacySessions(name: string, changed: Changed) {
  const sessions = new Map<string, Session>();
  const close = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close().catch(() => undefined);
  };
  const open = async (request: Request): Promise<Response> => {
    const oldest = sessions.keys().next();
    if (sessions.size >= MAX_SESSIONS && oldest.done !== true) close(oldest.value);
    const server = build(name, changed);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close();
    return response;
  };
  return {
    sessions,
    serve: (request: Request): Promise<Response> => {
      const id = request.headers.get("mcp-session-id");
      const session = id === null ? undefined : sessions.get(id);
      if (session !== undefined) return session.transport.handleRequest(request);
      if (id !== null) {
        const error = { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null };
        return Promise.resolve(Response.json(error, { status: 404 }));
      }
      return open(request);
    },
  };
}

/** The handler for every `/mcp` request, modern or 2025-era. */
function front(name: string, legacy: LegacyMode): (request: Request) => Promise<Response> {
  const changed: Changed = (_, kind, added) => {
    if (kind === "tools") modern.notify.toolsChanged();
    else modern.notify.promptsChanged();
    // Each 2025 session's own instance lists the new entry and tells its client (on the session's GET stream).
    for (const { server } of old.sessions.values()) {
      if (kind === "tools") registerExtraTool(server, added);
      else registerExtraPrompt(server, added);
    }
  };
  const modern = createMcpHandler(() => build(name, changed), {
    legacy: legacy === "sessions" ? "reject" : "stateless",
    onerror: () => undefined,
  });
  const old = legacySessions(name, changed);
  return async (request) =>
    legacy === "sessions" && (await isLegacyRequest(request)) ? old.serve(request) : modern.fetch(request);
}

/** Listens on a free loopback port and prints `modern MCP server listening at <url>` on stdout. */
export async function serveHttp(name: string, legacy: LegacyMode): Promise<void> {
  const handle = front(name, legacy);
  const http = createServer((req, res) => {
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    void (async () => {
      if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return void res.writeHead(404).end();
      const request = await toWebRequest(req, aborted.signal);
      if (request === undefined) return void res.writeHead(413).end();
      await writeResponse(await handle(request), res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`modern MCP server listening at http://127.0.0.1:${port}/mcp\n`);
}
