/**
 * The gateway's clients ("fronts": the stdio client, or Streamable HTTP sessions): each is served by an SDK `Server`
 * whose every request but initialize and ping is handed to the gateway's handlers, read as sent. The fronts also
 * remember which client called each server last and which tool calls run on it, so what a server sends meanwhile goes
 * to that client (over HTTP, on that call's stream).
 */

import { errorMessage, isInstance } from "../../../engine/errors.js";
import { oneLine } from "../../args.js";
import { packageInfo } from "../../package-info.js";
import type { Reporter } from "../audit.js";
import { AS_SENT, type Message, type RequestExtra, type Sdk, type Transport } from "../sdk.js";
import { FrontCalls } from "./front-calls.js";

/** How a server's request is sent on to a client. */
export interface AskOptions {
  readonly timeout: number;
  readonly signal: AbortSignal;
  /** The client's request it belongs to (over HTTP it travels on that request's stream). */
  readonly relatedRequestId?: string | number;
  readonly onprogress?: (progress: Record<string, unknown>) => void;
}

/**
 * A client of the gateway: a 2025-11-25 session (the stdio client, or one Streamable HTTP session), or, for
 * MCP 2026-07-28, one stateless request or one `subscriptions/listen` stream.
 */
export interface Front {
  readonly attached: number;
  /** Settles when the client has initialised (its capabilities are known). */
  readonly initialized: Promise<void>;
  closed: boolean;
  /** What the client declared it supports: at `initialize`, or (2026-07-28) on the request itself. */
  capabilities(): Record<string, unknown>;
  /** A server's request sent on to the client; resolves with the client's answer. */
  ask(request: Message, options: AskOptions): Promise<unknown>;
  /** A notification sent to the client, tied to one of its requests when `related` is given. */
  notify(notification: Message, related?: string | number): Promise<void>;
  /** Told when a server's request needed a capability this client did not declare. */
  lacks?(capability: string): void;
  close(): Promise<void>;
}

/** A tool call running on a server: the client that made it and its request id. */
export interface RunningCall {
  readonly front: Front;
  readonly requestId: string | number;
}

/** What a front's requests and notifications are handed to. */
export interface FrontHandlers {
  request(front: Front, request: Message, extra: RequestExtra): Promise<unknown>;
  notification(notification: Message): void;
}

/** What the gateway declares to its clients: everything it carries. */
export const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

/** How long a server's request waits for a client that is still initialising (and the start for the first client). */
export const CLIENT_INIT_MS = 10_000;

export class Fronts {
  private readonly fronts = new Set<Front>();
  /** The front that last called each server: its server-to-client requests go there. */
  private readonly lastCaller = new Map<string, Front>();
  /**
   * Per server: the tool calls running on it (the client and its request id, latest last). What the server sends
   * meanwhile (a request, a log message) is tied to the latest, so over HTTP it travels on that call's POST stream.
   */
  private readonly running = new Map<string, RunningCall[]>();
  /** Settles with the first client's capabilities (or none, when it has not initialised in `CLIENT_INIT_MS`). */
  private firstClient: (capabilities: Record<string, unknown>) => void = () => undefined;
  readonly firstCapabilities = new Promise<Record<string, unknown> | undefined>((resolve) => {
    this.firstClient = resolve;
    setTimeout(() => resolve(undefined), CLIENT_INIT_MS).unref();
  });

  constructor(
    private readonly sdk: Sdk,
    private readonly reporter: Reporter,
  ) {}

  /**
   * Connects a client over `transport`; it is served by `handlers` until its connection closes. With `direct` (the
   * stdio client), its tool calls are taken from the transport and answered by the same handler (front-calls.ts).
   */
  async attach(transport: Transport, handlers: FrontHandlers, onclose: () => void, direct: boolean): Promise<void> {
    const server = new this.sdk.Server(
      { name: "backplane-schema-gateway", version: packageInfo().version },
      { capabilities: CAPABILITIES },
    );
    let initialized: () => void = () => undefined;
    let ready = false;
    const front: Front = {
      attached: Date.now(),
      initialized: new Promise((resolve) => (initialized = resolve)),
      closed: false,
      capabilities: () => (server.getClientCapabilities() ?? {}) as Record<string, unknown>,
      ask: (request, options) => server.request(request as never, AS_SENT, options),
      notify: (notification, related) =>
        server.notification(notification as never, related === undefined ? undefined : { relatedRequestId: related }),
      close: () => server.close(),
    };
    server.oninitialized = () => {
      ready = true;
      initialized();
      this.firstClient((server.getClientCapabilities() ?? {}) as Record<string, unknown>);
    };
    // Every request but initialize and ping is the gateway's, read as sent (the SDK's schemas would reshape it).
    server.removeRequestHandler("logging/setLevel");
    const answer = async (request: Message, extra: RequestExtra): Promise<unknown> => {
      try {
        return this.answerable(request.method, await handlers.request(front, request, extra));
      } catch (e) {
        throw this.passedOnce(e);
      }
    };
    server.fallbackRequestHandler = (request, extra) => answer(request, extra) as never;
    server.fallbackNotificationHandler = async (notification) => handlers.notification(notification);
    server.onclose = () => {
      front.closed = true;
      this.fronts.delete(front);
      onclose();
    };
    this.fronts.add(front);
    await server.connect(transport);
    if (direct) new FrontCalls(transport, answer, () => ready);
  }

  /**
   * An answer the client can be sent: one JSON cannot write (nested past what the serialiser survives: a server's
   * result may be) becomes a JSON-RPC error to the client, reported on stderr, never a request left unanswered.
   */
  private answerable(method: string, answer: unknown): unknown {
    try {
      JSON.stringify(answer);
    } catch (e) {
      const why = oneLine(errorMessage(e));
      this.reporter.say(`the answer to a ${method} request cannot be written (${why}): the client gets an error`);
      const { McpError, types } = this.sdk;
      throw new McpError(types.ErrorCode.InternalError, `the gateway cannot write its answer to ${method}: ${why}`);
    }
    return answer;
  }

  /**
   * A JSON-RPC error as the client is sent it, its text passed on once: the SDK writes an `McpError`'s message, which
   * its constructor prefixed with `MCP error <code>: `, so an upstream's error would gain a prefix at every hop. The
   * client gets the text the error was made with (a server's error exactly as the server sent it), code and data kept.
   */
  private passedOnce(e: unknown): unknown {
    if (!isInstance(e, this.sdk.McpError)) return e;
    const prefix = `MCP error ${e.code}: `;
    const text = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    return Object.assign(new Error(text), { code: e.code, ...(e.data === undefined ? {} : { data: e.data }) });
  }

  /** A client that is no session (a 2026-07-28 listen stream) joins those notified; returns how it leaves. */
  join(front: Front): () => void {
    this.fronts.add(front);
    return () => {
      front.closed = true;
      this.fronts.delete(front);
    };
  }

  /** The clients still connected. */
  open(): Front[] {
    return [...this.fronts].filter((front) => !front.closed);
  }

  /** `call`, a tool call of `running.front` on `server`, remembered as running on it until it settles. */
  track<T>(server: string, running: RunningCall, call: () => Promise<T>): Promise<T> {
    this.lastCaller.set(server, running.front);
    this.running.set(server, [...(this.running.get(server) ?? []), running]);
    return call().finally(() => {
      const left = (this.running.get(server) ?? []).filter((c) => c !== running);
      if (left.length === 0) this.running.delete(server);
      else this.running.set(server, left);
    });
  }

  /** The latest tool call running on `server` whose client is still connected. */
  callOf(server: string): RunningCall | undefined {
    const calls = (this.running.get(server) ?? []).filter((c) => !c.front.closed);
    return calls[calls.length - 1];
  }

  /** The client a server's request goes to: the one that called it last, else the latest one connected. */
  frontFor(server: string): Front | undefined {
    const call = this.callOf(server);
    if (call !== undefined) return call.front;
    const last = this.lastCaller.get(server);
    if (last !== undefined && !last.closed) return last;
    let latest: Front | undefined;
    for (const front of this.fronts)
      if (!front.closed && (latest === undefined || front.attached >= latest.attached)) latest = front;
    return latest;
  }

  /** Tells every connected client that the tools it was shown changed. */
  toolListChanged(): void {
    const changed = { method: "notifications/tools/list_changed" };
    for (const front of this.open()) front.notify(changed).catch(() => undefined);
  }

  /** Closes every client; resolves when all are closed. */
  close(): Promise<unknown> {
    return Promise.all([...this.fronts].map((front) => front.close().catch(() => undefined)));
  }
}
