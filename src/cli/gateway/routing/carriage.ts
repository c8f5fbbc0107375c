/**
 * What a server sends the clients, and its bounds: a request (sampling, roots, elicitation) goes to one client that
 * supports it, one handler per method, elicitation checked on the way, at most `MAX_CLIENT_REQUESTS` of one server
 * waiting at once; a notification goes to the clients it concerns, and a server whose notifications a slow client
 * keeps dropping is isolated.
 */

import { isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { ElicitationSchema } from "../../../index.js";
import { reportedAt, type Reporter } from "../audit.js";
import type { HiddenTextScreen } from "../policy/hidden-text.js";
import { hopOptions, onwardParams } from "../forward.js";
import type { RequestExtra, Sdk, Message } from "../sdk.js";
import { QueueFull } from "../transport/line-writer.js";
import type { Upstream } from "../upstream/upstream.js";
import { CLIENT_INIT_MS, type Fronts } from "./fronts.js";

export interface CarriageSettings {
  /** How long a server's request (sampling, roots, elicitation) may wait for the client. */
  readonly clientRequestTimeoutMs: number;
  /** Notifications of one server dropped for a slow client before the server is isolated. */
  readonly maxDroppedNotifications: number;
  /** Hidden text in an elicitation's message (`--hidden-text`). */
  readonly screen: HiddenTextScreen;
}

/** Requests one server may have waiting at the clients at once; more are refused at once. */
const MAX_CLIENT_REQUESTS = 16;

/** A server's request on its way to a client: what the client declared, and how to send the request on. */
interface ClientAsk {
  readonly up: Upstream;
  readonly params: unknown;
  readonly capabilities: Record<string, unknown>;
  readonly onward: () => Promise<unknown>;
  readonly lacks: (capability: string) => Error;
}

/** A server's notification as the clients are sent it: its params, or `undefined` for none. */
type Carried = (up: Upstream, params: unknown) => unknown;

const asSent: Carried = (_up, params) => params;

/** The notifications carried to the clients; a log message's logger is prefixed with the server's name. */
const NOTIFICATIONS = new Map<string, Carried>([
  [
    "notifications/message",
    (up, params) => {
      const p = isObject(params) ? params : {};
      const logger = typeof p["logger"] === "string" ? `${up.name}/${p["logger"]}` : up.name;
      return { ...p, logger };
    },
  ],
  ["notifications/resources/updated", asSent],
  ["notifications/resources/list_changed", asSent],
  ["notifications/prompts/list_changed", asSent],
  ["notifications/elicitation/complete", asSent],
]);

/**
 * `elicitation/create`: a form's `requestedSchema` must be in the MCP form-mode subset (else the server gets an
 * error and the client is never asked), and the client's answer must match it (else the server gets an error, never
 * the answer). URL mode is carried as it is.
 */
async function elicit(ask: ClientAsk, sdk: Sdk, reporter: Reporter, screen: HiddenTextScreen): Promise<unknown> {
  const { up, params, onward, lacks } = ask;
  // A message a person reads: under --hidden-text refuse, withheld (the server gets an error, the client is not asked).
  screen.answer(up.name, "elicitation/create", isObject(params) && params["mode"] === "url" ? "url" : "form", params);
  const { McpError, types } = sdk;
  const mode = isObject(params) ? (params["mode"] ?? "form") : "form";
  const declared = ask.capabilities["elicitation"];
  const supported = isObject(declared) ? declared : undefined;
  if (supported === undefined) throw lacks("elicitation");
  if (mode === "url") {
    if (supported["url"] === undefined) throw lacks("URL-mode elicitation");
    return onward();
  }
  if (mode !== "form")
    throw new McpError(types.ErrorCode.InvalidParams, `unknown elicitation mode ${JSON.stringify(mode)}`);
  // An empty elicitation capability means form mode (MCP 2025-11-25 client/elicitation.mdx §Capabilities).
  if (supported["form"] === undefined && Object.keys(supported).length > 0) throw lacks("form-mode elicitation");
  const schema = ElicitationSchema.validateSchema(isObject(params) ? params["requestedSchema"] : undefined);
  if (!schema.ok) {
    const { error } = schema;
    reporter.say(`${up.name}: elicitation refused: ${error.code} at ${error.schemaPointer ?? ""}: ${error.message}`);
    throw new McpError(
      types.ErrorCode.InvalidParams,
      `Elicitation refused by the gateway: ${error.class}/${error.code}: ${error.message}`,
    );
  }
  const answer = await onward();
  const checked = schema.value.validate(answer);
  if (!checked.ok) {
    const { error } = checked;
    const problems =
      error.problems !== undefined && error.problems.length > 0 ? error.problems.join("; ") : error.message;
    reporter.say(
      `${up.name}: the client's elicitation answer was not returned to the server: ${error.code}: ${problems}`,
    );
    throw new McpError(
      types.ErrorCode.InvalidParams,
      `Elicitation response content does not match requested schema: ${problems}`,
    );
  }
  return answer;
}

export class Carriage {
  /** Per server: its requests waiting at a client. */
  private readonly asking = new Map<string, number>();
  /** Per server: its notifications dropped for a slow client since it (re)started. */
  private readonly drops = new Map<string, number>();
  private readonly warnedNotifications = new Set<string>();
  /** The requests carried to a client, one handler each. */
  private readonly requests = new Map<string, (ask: ClientAsk) => Promise<unknown>>([
    ["sampling/createMessage", async (ask) => this.needs(ask, "sampling")],
    ["roots/list", async (ask) => this.needs(ask, "roots")],
    ["elicitation/create", (ask) => elicit(ask, this.sdk, this.reporter, this.settings.screen)],
  ]);

  constructor(
    private readonly sdk: Sdk,
    private readonly fronts: Fronts,
    private readonly settings: CarriageSettings,
    private readonly reporter: Reporter,
  ) {}

  /** A server (re)started: its count of dropped notifications starts again. */
  started(up: Upstream): void {
    this.drops.delete(up.name);
  }

  /** A request from a server (sampling, roots, elicitation), carried to a client that supports it. */
  async request(up: Upstream, request: Message, extra: RequestExtra): Promise<unknown> {
    const { McpError, types } = this.sdk;
    const waiting = this.asking.get(up.name) ?? 0;
    if (waiting >= MAX_CLIENT_REQUESTS) {
      this.reporter.say(`${up.name}: a ${request.method} request was refused: ${MAX_CLIENT_REQUESTS} already wait`);
      throw new McpError(
        types.ErrorCode.InvalidRequest,
        `too many requests wait at the client (${MAX_CLIENT_REQUESTS}); answer or cancel one first`,
      );
    }
    this.asking.set(up.name, waiting + 1);
    try {
      return await this.carry(up, request, extra);
    } finally {
      this.asking.set(up.name, (this.asking.get(up.name) ?? 1) - 1);
    }
  }

  private async carry(up: Upstream, request: Message, extra: RequestExtra): Promise<unknown> {
    const { McpError, types } = this.sdk;
    const { method, params } = request;
    const front = this.fronts.frontFor(up.name);
    if (front === undefined) throw new McpError(types.ErrorCode.InternalError, "no client is connected to the gateway");
    // A server may ask at once (roots, on its own initialisation): the client's capabilities are known once it is.
    await Promise.race([front.initialized, new Promise((resolve) => setTimeout(resolve, CLIENT_INIT_MS).unref())]);
    const capabilities = front.capabilities();
    const lacks = (capability: string) => {
      front.lacks?.(capability);
      return new McpError(
        types.ErrorCode.InvalidRequest,
        `the client does not support ${capability} (the gateway carries it when the client declares it)`,
      );
    };
    const call = this.fronts.callOf(up.name);
    const related = call !== undefined && call.front === front ? { relatedRequestId: call.requestId } : {};
    const onward = () =>
      front.ask(
        { method, ...(params === undefined ? {} : { params: onwardParams(params) }) },
        { ...hopOptions(params, extra, this.settings.clientRequestTimeoutMs), ...related },
      );
    const handler = this.requests.get(method);
    if (handler === undefined)
      throw new McpError(
        types.ErrorCode.MethodNotFound,
        `Method not found: the gateway does not carry ${method} to the client`,
      );
    return handler({ up, params, capabilities, onward, lacks });
  }

  /** A request carried as it is to a client that declares `capability`. */
  private needs(ask: ClientAsk, capability: string): Promise<unknown> {
    if (ask.capabilities[capability] === undefined) throw ask.lacks(capability);
    return ask.onward();
  }

  /** A notification from a server, carried to the clients it concerns. */
  notification(up: Upstream, notification: Message): void {
    const { method } = notification;
    const carried = NOTIFICATIONS.get(method);
    if (carried === undefined) {
      if (!this.warnedNotifications.has(method))
        this.reporter.say(`${up.name}: a ${method} notification is not carried`);
      this.warnedNotifications.add(method);
      return;
    }
    const params = carried(up, notification.params);
    const send = { method, ...(params === undefined ? {} : { params }) };
    // A log message sent during a call goes with that call (its POST stream over HTTP); the rest to every client.
    const call = method === "notifications/message" ? this.fronts.callOf(up.name) : undefined;
    // A 2026-07-28 request is no standing client: only what belongs to its call reaches it.
    const fronts = new Set(this.fronts.open());
    if (call !== undefined && !call.front.closed) fronts.add(call.front);
    for (const front of fronts) {
      const related = call?.front === front ? call.requestId : undefined;
      front.notify(send, related).catch((e: unknown) => this.dropped(up, e));
    }
  }

  /**
   * A server's notification a client could not take (its outgoing queue is full): counted, reported at the 1st,
   * 10th, 100th, … drop, and past `maxDroppedNotifications` the server is isolated.
   */
  private dropped(up: Upstream, e: unknown): void {
    if (!isInstance(e, QueueFull)) return;
    const count = (this.drops.get(up.name) ?? 0) + 1;
    this.drops.set(up.name, count);
    const max = this.settings.maxDroppedNotifications;
    if (count > max) {
      this.drops.delete(up.name);
      up.isolate(
        `it flooded a slow client: more than ${max} of its notifications dropped (--max-dropped-notifications)`,
      );
      return;
    }
    if (reportedAt(count))
      this.reporter.say(`${up.name}: ${count} notification(s) dropped: ${e.message} (--max-queued-bytes)`);
  }
}
