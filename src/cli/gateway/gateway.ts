/**
 * The gateway (docs/guide/gateway.md): one MCP server in front of the configured ones. It starts them, admits their
 * tools as one catalog, and serves clients ("fronts": the stdio client, or Streamable HTTP sessions): every tool call
 * through `Execution.invoke`, every other request carried to the server that answers it, every server-to-client
 * request carried to a client (elicitation checked on the way). A server's faults stay that server's.
 */

import { errorMessage, isInstance } from "../../engine/errors.js";
import { isObject } from "../../engine/json/json.js";
import { ElicitationSchema, type ExecutionError } from "../../index.js";
import { oneLine } from "../args.js";
import { packageInfo } from "../package-info.js";
import type { Audit, CallOutcome, Reporter } from "./audit.js";
import type { ServerConfig } from "./config.js";
import { hopOptions, onwardParams } from "./forward.js";
import { GatewayCatalog, type Admission, type CatalogSettings } from "./policy/catalog.js";
import type { PinLedger } from "./policy/pin-ledger.js";
import { Routes } from "./routes.js";
import { AS_SENT, type RequestExtra, type Sdk, type SdkServer, type Transport } from "./sdk.js";
import { carriedCapabilities, Upstream, type UpstreamSettings } from "./upstream/upstream.js";
import { QueueFull } from "./transport/line-transport.js";

export interface GatewaySettings extends UpstreamSettings {
  readonly callTimeoutMs: number;
  /** How long a server's request (sampling, roots, elicitation) may wait for the client. */
  readonly clientRequestTimeoutMs: number;
  /** Notifications of one server dropped for a slow client before the server is isolated. */
  readonly maxDroppedNotifications: number;
  /**
   * One client (the stdio front): the servers start once it has initialised, offered only the capabilities it has
   * (sampling, roots, elicitation). Several (HTTP): every capability is offered and carried where a client has it.
   */
  readonly oneClient?: boolean;
  readonly catalog: CatalogSettings;
}

/** A connected client. */
interface Front {
  readonly server: SdkServer;
  readonly attached: number;
  /** Settles when the client has initialised (its capabilities are known). */
  readonly initialized: Promise<void>;
  closed: boolean;
}

/** What the gateway declares to its clients: everything it carries. */
const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

/** How long a server's request waits for a client that is still initialising. */
const CLIENT_INIT_MS = 10_000;
/** Requests one server may have waiting at the clients at once; more are refused at once. */
const MAX_CLIENT_REQUESTS = 16;

/** A tool result the client is given instead of a call's value: a tool error with text written for a model. */
function toolError(text: string): { content: { type: "text"; text: string }[]; isError: true } {
  return { content: [{ type: "text", text }], isError: true };
}

export class Gateway {
  readonly upstreams: Upstream[];
  private readonly catalog: GatewayCatalog;
  private readonly routes: Routes;
  private readonly fronts = new Set<Front>();
  /** The front that last called each server: its server-to-client requests go there. */
  private readonly lastCaller = new Map<string, Front>();
  /**
   * Per server: the tool calls running on it (the client and its request id, latest last). What the server sends
   * meanwhile (a request, a log message) is tied to the latest, so over HTTP it travels on that call's POST stream.
   */
  private readonly running = new Map<string, { front: Front; requestId: string | number }[]>();
  /** Settles once every server is up or down for the first time, and the first catalog is admitted. */
  readonly ready: Promise<void>;
  private started = false;
  private stopWatching: (() => void) | undefined;
  private warnedNotifications = new Set<string>();
  /** The tools held after the last admission, and the names shown to clients (to tell them when those change). */
  private held = new Set<string>();
  /** What the last admission reported of tools left out and of hidden text. */
  private reported = new Set<string>();
  private shown = "";
  private admitting: Promise<void> = Promise.resolve();
  /** Every tool ever listed, with its server: a call to one whose server is down is told so. */
  private readonly known = new Map<string, string>();
  /** Per server: its notifications dropped for a slow client since it (re)started. */
  private readonly drops = new Map<string, number>();
  /** Per server: its requests waiting at a client. */
  private readonly asking = new Map<string, number>();

  constructor(
    private readonly sdk: Sdk,
    configs: readonly ServerConfig[],
    private readonly settings: GatewaySettings,
    /** The pins admitted against and the held tools: a pins file's, or memory's for the run. */
    private readonly ledger: PinLedger,
    private readonly reporter: Reporter,
    private readonly audit: Audit,
  ) {
    this.catalog = new GatewayCatalog(settings.catalog);
    this.routes = new Routes(
      sdk,
      () => this.upstreams,
      settings.callTimeoutMs,
      (text) => reporter.say(text),
      this.catalog.names,
    );
    this.upstreams = configs.map(
      (config) =>
        new Upstream(config, sdk, settings, {
          up: (up) => this.serverUp(up),
          down: (up, reason) => this.serverDown(up, reason),
          toolsChanged: (up) => void (this.started && this.readmit(`${up.name} changed its tools`)),
          notification: (up, notification) => this.serverNotification(up, notification),
          request: (up, request, extra) => this.serverRequest(up, request, extra),
          stderr: (up, line) => reporter.server(up.name, line),
        }),
    );
    this.ready = this.startAll();
  }

  /** Settles with the first client's capabilities (or none, when it has not initialised in `CLIENT_INIT_MS`). */
  private firstClient: (capabilities: Record<string, unknown>) => void = () => undefined;
  private readonly firstCapabilities = new Promise<Record<string, unknown> | undefined>((resolve) => {
    this.firstClient = resolve;
    setTimeout(() => resolve(undefined), CLIENT_INIT_MS).unref();
  });

  private async startAll(): Promise<void> {
    const { draft07 } = this.settings.catalog;
    this.reporter.say(
      draft07 === "upgrade"
        ? "draft-07 tool schemas are translated exactly to 2020-12 " +
            "(--draft07 upgrade, the default here; --draft07 reject refuses them)"
        : "draft-07 tool schemas are refused (--draft07 reject)",
    );
    if (this.settings.oneClient === true) {
      const client = await this.firstCapabilities;
      if (client !== undefined) {
        const offered = carriedCapabilities(client);
        for (const up of this.upstreams) up.offered = offered;
        const lacking = ["sampling", "roots", "elicitation"].filter((c) => offered[c] === undefined);
        if (lacking.length > 0)
          this.reporter.say(`the client does not declare ${lacking.join(", ")}: the servers are not offered it either`);
      }
    }
    await Promise.all(this.upstreams.map((up) => up.start()));
    this.started = true;
    await this.readmit("started");
    // Overlapping URI templates are reported now, not at the first read they decide.
    void this.routes.survey();
    this.stopWatching = this.ledger.watch(() => void this.readmit("the pins file changed"));
  }

  private serverUp(up: Upstream): void {
    this.drops.delete(up.name);
    this.reporter.say(`${up.name}: started (${up.tools.length} tools listed)`);
    this.audit.catalog({ server: up.name, outcome: "started" });
    this.routes.applyLevel(up);
    if (this.started) void this.readmit(`${up.name} started`);
  }

  private serverDown(up: Upstream, reason: string): void {
    const tools = this.catalog.tools.filter((t) => this.catalog.serverOf(t.name) === up.name).map((t) => t.name);
    const unavailable = tools.length === 0 ? "" : `; its tools are unavailable: ${tools.join(", ")}`;
    this.reporter.say(`${up.name}: ${this.started ? "stopped" : "failed to start"}: ${reason}${unavailable}`);
    this.audit.catalog({ server: up.name, outcome: this.started ? "stopped" : "failed", message: reason });
    if (this.started) void this.readmit(`${up.name} stopped`);
  }

  /** Admits the listings of the servers that are up, reports what changed, and tells the clients. */
  /** Admissions run one at a time, in the order they were asked for. */
  private readmit(why: string): Promise<void> {
    this.admitting = this.admitting
      .then(() => this.admitNow(why))
      .catch((e: unknown) => this.reporter.say(`${why}: the admission failed: ${errorMessage(e)}`));
    return this.admitting;
  }

  private async admitNow(why: string): Promise<void> {
    let pins: Record<string, string>;
    try {
      pins = await this.ledger.pins();
    } catch (e) {
      this.reporter.say(`${why}: the pins file cannot be read, the catalog in force stays: ${errorMessage(e)}`);
      return;
    }
    const listed = this.upstreams
      .filter((up) => up.state === "up")
      .map((up) => ({ name: up.name, revision: up.revision, tools: up.tools }));
    const admitted = this.catalog.admit(listed, pins);
    if (!admitted.ok) {
      this.reporter.say(`${why}: the catalog could not be admitted, the one in force stays: ${admitted.error}`);
      return;
    }
    const a = admitted.value;
    // A tool held before and admitted now was approved (through `gateway approve` or the pins file).
    const approved = a.accepted.filter((name) => this.held.has(name));
    this.held = new Set(a.held.map((h) => h.name));
    this.report(a, approved);
    for (const [name, server] of this.catalog.listed()) this.known.set(name, server);
    const accepted = new Set(a.accepted);
    const inForce = Object.entries(this.catalog.pins).filter(([name]) => accepted.has(name));
    const added = await this.ledger.record(Object.fromEntries(inForce), this.catalog.held());
    if (added.length > 0) this.reporter.say(`${this.ledger.path}: pinned on first use: ${added.join(", ")}`);
    const shown = a.accepted.join("\n");
    if (shown !== this.shown && !a.first) {
      for (const front of this.fronts) if (!front.closed) front.server.sendToolListChanged().catch(() => undefined);
    }
    this.shown = shown;
  }

  private report(a: Admission, approved: readonly string[]): void {
    const serverOf = (name: string) => this.catalog.serverOf(name) ?? this.known.get(name);
    // Tools left out, and hidden text, are reported when they first appear, not at every admission.
    const reported = this.reported;
    this.reported = new Set();
    const fresh = (key: string) => {
      this.reported.add(key);
      return !reported.has(key);
    };
    if (a.first) {
      const up = this.upstreams.filter((u) => u.state === "up").length;
      this.reporter.say(`admitted ${a.accepted.length} tools from ${up} of ${this.upstreams.length} servers`);
    }
    for (const q of a.quarantined) {
      if (!fresh(`quarantined ${q.name} ${q.code}`)) continue;
      this.reporter.say(`quarantined ${q.name}: ${q.reason}`);
      this.audit.catalog({ server: q.server, tool: q.name, outcome: "quarantined", code: q.code });
    }
    for (const x of a.excluded) {
      if (!fresh(`excluded ${x.name} ${x.code}`)) continue;
      this.reporter.say(`excluded ${x.name}: ${x.reason}`);
      this.audit.catalog({ server: x.server, tool: x.name, outcome: "excluded", code: x.code });
    }
    const changed = new Map(a.changed.map((c) => [c.name, c.fields]));
    for (const h of a.held) {
      if (!a.first && !changed.has(h.name) && !a.added.includes(h.name)) continue;
      const where = h.code === "tool_changed" ? ` at ${h.fields.join(", ")}` : " (no pin)";
      this.reporter.say(`held ${h.name}: ${h.code}${where}; ${this.ledger.advice()}`);
      this.audit.catalog({ server: serverOf(h.name), tool: h.name, outcome: "held", code: h.code, fields: h.fields });
    }
    for (const name of new Set([...a.approved, ...approved])) {
      this.reporter.say(`approved ${name}`);
      this.audit.catalog({ server: serverOf(name), tool: name, outcome: "approved" });
    }
    const held = new Set(a.held.map((h) => h.name));
    for (const name of a.added) {
      if (held.has(name)) continue;
      if (!a.first) this.reporter.say(`added ${name}`);
      this.audit.catalog({ server: serverOf(name), tool: name, outcome: "admitted" });
    }
    for (const name of a.removed) {
      this.reporter.say(`removed ${name}`);
      this.audit.catalog({ server: serverOf(name), tool: name, outcome: "removed" });
    }
    for (const h of a.hiddenText) {
      const at = h.pointers.join(", ");
      if (fresh(`hidden ${h.name} ${at}`))
        this.reporter.say(`${h.name}: hidden characters at ${at} (--hidden-text report)`);
    }
  }

  /** Connects a client over `transport`; it is served until its connection closes. */
  async attach(transport: Transport, onclose: () => void = () => undefined): Promise<void> {
    const server = new this.sdk.Server(
      { name: "backplane-schema-gateway", version: packageInfo().version },
      { capabilities: CAPABILITIES },
    );
    let initialized: () => void = () => undefined;
    const front: Front = {
      server,
      attached: Date.now(),
      initialized: new Promise((resolve) => (initialized = resolve)),
      closed: false,
    };
    server.oninitialized = () => {
      initialized();
      this.firstClient((server.getClientCapabilities() ?? {}) as Record<string, unknown>);
    };
    // Every request but initialize and ping is the gateway's, read as sent (the SDK's schemas would reshape it).
    server.removeRequestHandler("logging/setLevel");
    server.fallbackRequestHandler = async (request, extra) => {
      try {
        return this.answerable(request.method, await this.clientRequest(front, request, extra)) as never;
      } catch (e) {
        throw this.passedOnce(e);
      }
    };
    server.fallbackNotificationHandler = async (notification) => {
      if (notification.method === "notifications/roots/list_changed") {
        for (const up of this.upstreams) up.notify("notifications/roots/list_changed");
      }
    };
    server.onclose = () => {
      front.closed = true;
      this.fronts.delete(front);
      onclose();
    };
    this.fronts.add(front);
    await server.connect(transport);
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

  private async clientRequest(
    front: Front,
    request: { method: string; params?: unknown },
    extra: RequestExtra,
  ): Promise<unknown> {
    const { method, params } = request;
    if (isObject(params) && params["task"] !== undefined) {
      throw new this.sdk.McpError(
        this.sdk.types.ErrorCode.InvalidParams,
        "task-augmented requests are not carried by the gateway",
      );
    }
    await this.ready;
    switch (method) {
      case "tools/list":
        if (isObject(params) && params["cursor"] !== undefined) {
          throw new this.sdk.McpError(
            this.sdk.types.ErrorCode.InvalidParams,
            "tools/list: the gateway serves one page; it gave no cursor",
          );
        }
        return { tools: this.catalog.tools };
      case "tools/call":
        return this.callTool(front, params, extra);
      case "resources/list":
        return this.routes.listResources(params, extra);
      case "resources/templates/list":
        return this.routes.listTemplates(params, extra);
      case "resources/read":
      case "resources/subscribe":
      case "resources/unsubscribe":
        return this.routes.resource(method, params, extra);
      case "prompts/list":
        return this.routes.listPrompts(params, extra);
      case "prompts/get":
        return this.routes.getPrompt(params, extra);
      case "completion/complete":
        return this.routes.complete(params, extra);
      case "logging/setLevel":
        return this.routes.setLevel(params, extra);
      default:
        throw new this.sdk.McpError(
          this.sdk.types.ErrorCode.MethodNotFound,
          `Method not found: the gateway does not carry ${method}`,
        );
    }
  }

  /** `tools/call` through `Execution.invoke`: arguments checked first, the result against its output schema. */
  private async callTool(front: Front, params: unknown, extra: RequestExtra): Promise<unknown> {
    const began = performance.now();
    const call = isObject(params) ? params : {};
    const name = call["name"];
    // An admitted tool's server is its backend (what the call is dispatched by); else the one that listed it.
    const server =
      typeof name === "string"
        ? (this.catalog.backendOf(name) ?? this.catalog.serverOf(name) ?? this.known.get(name))
        : undefined;
    const upstream = this.upstreams.find((up) => up.name === server);
    const values = this.audit.withValues ? { arguments: call["arguments"] } : {};
    const done = (outcome: CallOutcome, result: unknown, fields: { stage?: string; code?: string } = {}) => {
      this.audit.call({
        ...(server === undefined ? {} : { server }),
        tool: typeof name === "string" ? name : String(name),
        outcome,
        ...fields,
        durationMs: Math.round((performance.now() - began) * 1000) / 1000,
        ...values,
        ...(this.audit.withValues ? { result } : {}),
      });
      return result;
    };
    const neverStarted =
      upstream === undefined && typeof name === "string"
        ? this.upstreams.find((up) => !up.everUp && this.catalog.names.split(name)?.server === up.name)
        : undefined;
    if (neverStarted !== undefined) {
      const text = `The tool ${JSON.stringify(name)} is not available: its server did not start.`;
      return done("failed", toolError(text), { stage: "lookup", code: "server_unavailable" });
    }
    if (upstream !== undefined && upstream.state !== "up") {
      const text = `The tool ${JSON.stringify(name)} is not available: its server is not running.`;
      return done("failed", toolError(text), { stage: "lookup", code: "server_unavailable" });
    }
    const invoked = this.catalog.invoke(
      { name: name as string, arguments: call["arguments"] },
      {
        dispatch: ({ serverName, tool }) => {
          const backend = this.upstreams.find((up) => up.name === tool.backend);
          if (backend === undefined) throw new Error(`the tool's backend ${String(tool.backend)} is not configured`);
          this.lastCaller.set(backend.name, front);
          const onward = { ...onwardParams(params), name: serverName };
          const call = { front, requestId: extra.requestId };
          this.running.set(backend.name, [...(this.running.get(backend.name) ?? []), call]);
          return backend
            .request("tools/call", onward, hopOptions(params, extra, this.settings.callTimeoutMs))
            .finally(() => {
              const left = (this.running.get(backend.name) ?? []).filter((c) => c !== call);
              if (left.length === 0) this.running.delete(backend.name);
              else this.running.set(backend.name, left);
            });
        },
      },
    );
    const result = invoked === undefined ? undefined : await invoked;
    if (result === undefined)
      return done("refused", toolError(`There is no tool named ${JSON.stringify(name)}.`), {
        stage: "lookup",
        code: "tool_unknown",
      });
    if (result.ok) return done("dispatched", result.value);
    const e = result.error;
    const fields = { stage: e.stage, code: e.code };
    if (e.stage === "dispatch" && extra.signal.aborted)
      return done("failed", undefined, { stage: "dispatch", code: "cancelled" });
    if (e.stage === "dispatch") return this.dispatchFailed(e, name, done);
    if (e.stage === "result") return done("withheld", toolError(e.modelText), fields);
    if (e.code === "tool_held") return done("held", toolError(e.modelText), fields);
    return done("refused", toolError(e.modelText), fields);
  }

  /** A call that failed at the server: timed out, the server went down, or the server answered with an error. */
  private dispatchFailed(
    e: ExecutionError,
    name: unknown,
    done: (outcome: CallOutcome, result: unknown, fields?: { stage?: string; code?: string }) => unknown,
  ): unknown {
    const { McpError, types } = this.sdk;
    const thrown = e.detail;
    const quoted = JSON.stringify(name);
    if (isInstance(thrown, McpError) && thrown.code === types.ErrorCode.RequestTimeout) {
      const text = `The call to ${quoted} timed out after ${this.settings.callTimeoutMs} ms.`;
      return done("timeout", toolError(text), { stage: "dispatch", code: "timeout" });
    }
    if (isInstance(thrown, McpError) && thrown.code === types.ErrorCode.ConnectionClosed) {
      return done("failed", toolError(`The tool ${quoted} is not available: its server stopped.`), {
        stage: "dispatch",
        code: "server_stopped",
      });
    }
    if (isInstance(thrown, McpError)) {
      // The server answered with a JSON-RPC error: the client gets that answer, as it would without the gateway.
      done("failed", undefined, { stage: "dispatch", code: `jsonrpc_${thrown.code}` });
      throw thrown;
    }
    return done("failed", toolError(e.modelText), { stage: "dispatch", code: e.code });
  }

  /** The latest tool call running on `server` whose client is still connected. */
  private callOf(server: string): { front: Front; requestId: string | number } | undefined {
    const calls = (this.running.get(server) ?? []).filter((c) => !c.front.closed);
    return calls[calls.length - 1];
  }

  /** The client a server's request goes to: the one that called it last, else the latest one connected. */
  private frontFor(server: string): Front | undefined {
    const call = this.callOf(server);
    if (call !== undefined) return call.front;
    const last = this.lastCaller.get(server);
    if (last !== undefined && !last.closed) return last;
    let latest: Front | undefined;
    for (const front of this.fronts)
      if (!front.closed && (latest === undefined || front.attached >= latest.attached)) latest = front;
    return latest;
  }

  /** A request from a server (sampling, roots, elicitation), carried to a client that supports it. */
  private async serverRequest(
    up: Upstream,
    request: { method: string; params?: unknown },
    extra: RequestExtra,
  ): Promise<unknown> {
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
      return await this.carryRequest(up, request, extra);
    } finally {
      this.asking.set(up.name, (this.asking.get(up.name) ?? 1) - 1);
    }
  }

  private async carryRequest(
    up: Upstream,
    request: { method: string; params?: unknown },
    extra: RequestExtra,
  ): Promise<unknown> {
    const { McpError, types } = this.sdk;
    const { method, params } = request;
    const front = this.frontFor(up.name);
    if (front === undefined) throw new McpError(types.ErrorCode.InternalError, "no client is connected to the gateway");
    // A server may ask at once (roots, on its own initialisation): the client's capabilities are known once it is.
    await Promise.race([front.initialized, new Promise((resolve) => setTimeout(resolve, CLIENT_INIT_MS).unref())]);
    const capabilities = (front.server.getClientCapabilities() ?? {}) as Record<string, unknown>;
    const lacks = (capability: string) =>
      new McpError(
        types.ErrorCode.InvalidRequest,
        `the client does not support ${capability} (the gateway carries it when the client declares it)`,
      );
    const call = this.callOf(up.name);
    const related = call !== undefined && call.front === front ? { relatedRequestId: call.requestId } : {};
    const onward = () =>
      front.server.request(
        { method, ...(params === undefined ? {} : { params: onwardParams(params) }) } as never,
        AS_SENT,
        { ...hopOptions(params, extra, this.settings.clientRequestTimeoutMs), ...related },
      );
    switch (method) {
      case "sampling/createMessage":
        if (capabilities["sampling"] === undefined) throw lacks("sampling");
        return onward();
      case "roots/list":
        if (capabilities["roots"] === undefined) throw lacks("roots");
        return onward();
      case "elicitation/create":
        return this.elicit(up, params, capabilities["elicitation"], onward, lacks);
      default:
        throw new McpError(
          types.ErrorCode.MethodNotFound,
          `Method not found: the gateway does not carry ${method} to the client`,
        );
    }
  }

  /**
   * `elicitation/create`: a form's `requestedSchema` must be in the MCP form-mode subset (else the server gets an
   * error and the client is never asked), and the client's answer must match it (else the server gets an error, never
   * the answer). URL mode is carried as it is.
   */
  private async elicit(
    up: Upstream,
    params: unknown,
    declared: unknown,
    onward: () => Promise<unknown>,
    lacks: (capability: string) => Error,
  ): Promise<unknown> {
    const { McpError, types } = this.sdk;
    const mode = isObject(params) ? (params["mode"] ?? "form") : "form";
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
      this.reporter.say(
        `${up.name}: elicitation refused: ${error.code} at ${error.schemaPointer ?? ""}: ${error.message}`,
      );
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
      this.reporter.say(
        `${up.name}: the client's elicitation answer was not returned to the server: ${error.code}: ${problems}`,
      );
      throw new McpError(
        types.ErrorCode.InvalidParams,
        `Elicitation response content does not match requested schema: ${problems}`,
      );
    }
    return answer;
  }

  /** A notification from a server, carried to the clients it concerns. */
  private serverNotification(up: Upstream, notification: { method: string; params?: unknown }): void {
    const { method, params } = notification;
    let send = { method, ...(params === undefined ? {} : { params }) };
    switch (method) {
      case "notifications/message": {
        const p = isObject(params) ? params : {};
        const logger = typeof p["logger"] === "string" ? `${up.name}/${p["logger"]}` : up.name;
        send = { method, params: { ...p, logger } };
        break;
      }
      case "notifications/resources/updated":
      case "notifications/resources/list_changed":
      case "notifications/prompts/list_changed":
      case "notifications/elicitation/complete":
        break;
      default:
        if (!this.warnedNotifications.has(method))
          this.reporter.say(`${up.name}: a ${method} notification is not carried`);
        this.warnedNotifications.add(method);
        return;
    }
    // A log message sent during a call goes with that call (its POST stream over HTTP); the rest to every client.
    const call = method === "notifications/message" ? this.callOf(up.name) : undefined;
    for (const front of this.fronts) {
      if (front.closed) continue;
      const related = call?.front === front ? { relatedRequestId: call.requestId } : undefined;
      front.server.notification(send as never, related).catch((e: unknown) => this.dropped(up, e));
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
    if (/^10*$/.test(String(count)))
      this.reporter.say(`${up.name}: ${count} notification(s) dropped: ${e.message} (--max-queued-bytes)`);
  }

  /** Stops every server and closes every client; resolves when all are gone. */
  async stop(): Promise<void> {
    this.stopWatching?.();
    await Promise.all([
      ...this.upstreams.map((up) => up.stop()),
      ...[...this.fronts].map((front) => front.server.close().catch(() => undefined)),
    ]);
    await this.audit.close();
  }
}
