/**
 * The stateless half of a 2026-07-28 server's connection (modern-http.ts): one POST per request with the `_meta`
 * envelope and the mirrored headers (`Mcp-Param-*` from the server's own `x-mcp-header` declarations), the server's
 * answers read as JSON or SSE with every message bounded, the era probe, and the `subscriptions/listen` stream that
 * brings its list changes.
 */

import { isObject } from "../../../engine/json/json.js";
import { encodeHeaderValue, paramHeadersOf, type ParamHeader } from "../transport/mirrored-headers.js";

const VERSION = "2026-07-28";
/** How long to wait before opening a listen stream again after it ended. */
const LISTEN_RETRY_MS = [1_000, 5_000, 30_000];
const NAME_SOURCE = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);

export type Id = string | number;
export type Message = Record<string, unknown>;

/** The envelope every request carries. */
function envelope(capabilities: Record<string, unknown>, logLevel: string | undefined): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "backplane-schema-gateway", version: "1" },
    ...(logLevel === undefined ? {} : { "io.modelcontextprotocol/logLevel": logLevel }),
  };
}

/** Reads a response's JSON-RPC messages (one JSON body, or SSE events), each bounded by `max` bytes. */
async function* messagesOf(response: Response, max: number): AsyncGenerator<Message> {
  const type = response.headers.get("content-type") ?? "";
  if (response.body === null) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const sse = type.includes("text/event-stream");
  for (;;) {
    const { value, done } = await reader.read();
    if (value !== undefined) buffer += decoder.decode(value, { stream: true });
    if (sse) {
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data.length > 0) yield JSON.parse(data) as Message;
      }
    }
    if (buffer.length > max) {
      await reader.cancel();
      throw new Error(`a message from the server exceeds ${max} bytes (--max-message-bytes)`);
    }
    if (done) break;
  }
  if (!sse && buffer.trim().length > 0) yield JSON.parse(buffer) as Message;
}

/**
 * Whether the server at `url` speaks 2026-07-28: it answers `server/discover` with a result naming that version.
 * Anything else (an error, a 2025-only server's `400`, no answer in `timeoutMs`) is the 2025-11-25 era.
 */
export async function speaksModern(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": "server/discover",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "server/discover",
        params: { _meta: envelope({}, undefined) },
      }),
    });
    if (!response.ok) return false;
    for await (const message of messagesOf(response, 1024 * 1024)) {
      const result = message["result"];
      const versions = isObject(result) ? result["supportedVersions"] : undefined;
      if (message["id"] === 0) return Array.isArray(versions) && versions.includes(VERSION);
    }
  } catch {
    return false;
  }
  return false;
}

export class StatelessClient {
  /** What the gateway's client declared (sent as `clientCapabilities`), and the log level it asked for. */
  capabilities: Record<string, unknown> = {};
  logLevel: string | undefined;
  /** What the server declared in its `server/discover` answer. */
  serverCapabilities: Record<string, unknown> = {};
  /** The server's `x-mcp-header` declarations, by its own tool names (from its latest `tools/list`). */
  private readonly paramHeaders = new Map<string, ParamHeader[]>();

  constructor(
    private readonly server: {
      readonly url: URL;
      readonly headers: Record<string, string>;
      readonly maxMessageBytes: number;
    },
    /** Aborted when the connection closes. */
    private readonly closing: AbortSignal,
    /** Hands a message of the server's (a notification) to the gateway's client. */
    private readonly deliver: (message: Message) => void,
  ) {}

  /** One stateless POST: its notifications passed on as they come, its response returned. */
  async post(id: Id, method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Message> {
    const meta = isObject(params["_meta"]) ? params["_meta"] : {};
    const body = {
      jsonrpc: "2.0",
      id,
      method,
      params: { ...params, _meta: { ...meta, ...envelope(this.capabilities, this.logLevel) } },
    };
    const response = await fetch(this.server.url, {
      method: "POST",
      signal,
      headers: this.headersFor(method, params),
      body: JSON.stringify(body),
    });
    for await (const message of messagesOf(response, this.server.maxMessageBytes)) {
      if (message["id"] === id && message["method"] === undefined) return message;
      if (typeof message["method"] === "string" && message["id"] === undefined) this.deliver(message);
    }
    throw new Error(`the server answered ${method} with HTTP ${response.status} and no JSON-RPC response`);
  }

  /** The mirrored headers of a request, `Mcp-Param-*` from the server's own declarations of the tool. */
  private headersFor(method: string, params: Record<string, unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.server.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      "mcp-method": method,
    };
    const field = NAME_SOURCE.get(method);
    const name = field === undefined ? undefined : params[field];
    if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    const args = params["arguments"];
    const declared = typeof name === "string" && method === "tools/call" ? this.paramHeaders.get(name) : undefined;
    for (const { property, header } of declared ?? []) {
      const value = isObject(args) && Object.hasOwn(args, property) ? args[property] : undefined;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
    return headers;
  }

  /** The `x-mcp-header` declarations of a `tools/list` result's tools. */
  learn(result: Record<string, unknown>): void {
    const tools = Array.isArray(result["tools"]) ? result["tools"] : [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      const declared = paramHeadersOf(tool["inputSchema"]);
      if (typeof declared !== "string" && declared.length > 0) this.paramHeaders.set(tool["name"], declared);
    }
  }

  /** The server's list changes, from a listen stream opened again (with a growing pause) whenever it ends. */
  async listen(attempt: number): Promise<void> {
    const wanted = (kind: string) => {
      const c = this.serverCapabilities[kind];
      return isObject(c) && c["listChanged"] === true;
    };
    const notifications = {
      ...(wanted("tools") ? { toolsListChanged: true } : {}),
      ...(wanted("prompts") ? { promptsListChanged: true } : {}),
      ...(wanted("resources") ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(notifications).length === 0 || this.closing.aborted) return;
    const id = "backplane-listen";
    try {
      const response = await fetch(this.server.url, {
        method: "POST",
        signal: this.closing,
        headers: this.headersFor("subscriptions/listen", {}),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "subscriptions/listen",
          params: { notifications, _meta: envelope(this.capabilities, undefined) },
        }),
      });
      for await (const message of messagesOf(response, this.server.maxMessageBytes)) {
        const method = message["method"];
        if (typeof method !== "string" || method === "notifications/subscriptions/acknowledged") continue;
        attempt = 0;
        this.deliver(message);
      }
    } catch {
      // The stream failed or was closed: opened again below, unless the transport is closing.
    }
    if (this.closing.aborted) return;
    const pause = LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)] as number;
    setTimeout(() => void this.listen(attempt + 1), pause).unref();
  }
}
