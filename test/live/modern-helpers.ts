/**
 * What the live tests of the gateway's MCP 2026-07-28 front share: the envelope, a raw request with its mirrored
 * headers, a `subscriptions/listen` stream read as it comes, and the SDK 2.x client in auto mode with answers for a
 * server's sampling and elicitation questions.
 */

import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";

export const MODERN = "2026-07-28";

/** A request's `_meta` envelope, declaring `capabilities`, with `more` keys beside. */
export function envelope(capabilities: Record<string, unknown> = {}, more: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...more,
  };
}

/** Where requests go and with which bearer token. */
export interface Front {
  readonly endpoint: string;
  readonly token: string;
}

/** The headers of a 2026-07-28 POST of `method`: `Mcp-Name` from `params.name` when there is one. */
function headersOf(front: Front, method: string, params: Record<string, unknown>): Record<string, string> {
  return {
    authorization: `Bearer ${front.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...(typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {}),
  };
}

/** The last JSON-RPC message of a response's text (a JSON body, or the last event of a stream). */
function lastMessage(text: string): Record<string, unknown> {
  if (!text.startsWith("event:")) return JSON.parse(text || "{}") as Record<string, unknown>;
  const data = text
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .pop();
  return JSON.parse(data?.replace(/^data: /, "") ?? "{}") as Record<string, unknown>;
}

/** A 2026-07-28 request as a client writes it; `headers` adds to or overrides the derived ones. */
export async function post(
  front: Front,
  request: { method: string; params: Record<string, unknown>; id?: string | number },
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const { method, params, id = 7 } = request;
  const response = await fetch(front.endpoint, {
    method: "POST",
    ...(signal === undefined ? {} : { signal }),
    headers: { ...headersOf(front, method, params), ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  const text = await response.text();
  return { status: response.status, body: lastMessage(text), text };
}

/** A `subscriptions/listen` stream, read as it comes. */
export interface Listening {
  readonly contentType: string | null;
  /** Reads until the text so far matches (or the stream ends). */
  read(pattern: RegExp): Promise<void>;
  text(): string;
  close(): void;
}

/** Opens a `subscriptions/listen` stream with id `id` for `notifications`. */
export async function listen(front: Front, id: string, notifications: Record<string, unknown>): Promise<Listening> {
  const controller = new AbortController();
  const params = { _meta: envelope(), notifications };
  const response = await fetch(front.endpoint, {
    method: "POST",
    signal: controller.signal,
    headers: { ...headersOf(front, "subscriptions/listen", params), accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params }),
  });
  const reader = response.body!.getReader();
  let text = "";
  return {
    contentType: response.headers.get("content-type"),
    read: async (pattern) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    },
    text: () => text,
    close: () => controller.abort(),
  };
}

/** What the client answers a server's questions with. */
export interface Answers {
  readonly sampling?: unknown;
  readonly elicitation?: unknown;
}

/** The SDK 2.x client in auto mode, declaring sampling and form elicitation, connected to `front`. */
export async function modernClient(front: Front, answers: Answers = {}): Promise<InstanceType<typeof ModernClient>> {
  const client = new ModernClient(
    { name: "modern-test", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
  );
  const sampled = answers.sampling ?? { role: "assistant", content: { type: "text", text: "sampled!" }, model: "m" };
  client.setRequestHandler("sampling/createMessage", async () => sampled as never);
  client.setRequestHandler("elicitation/create", async () => (answers.elicitation ?? { action: "decline" }) as never);
  const headers = { authorization: `Bearer ${front.token}` };
  await client.connect(new ModernTransport(new URL(front.endpoint), { requestInit: { headers } }));
  return client;
}
