/**
 * The gateway (docs/guide/gateway.md): one MCP server in front of the configured ones. It starts them, admits their
 * tools as one catalog, and serves clients ("fronts": the stdio client, or Streamable HTTP sessions): every tool call
 * through `Execution.invoke`, every other request carried to the server that answers it, every server-to-client
 * request carried to a client (elicitation checked on the way). A server's faults stay that server's.
 *
 * This class ties the parts together and runs the servers' lifecycle; each role is a module of `routing/`: the
 * clients (fronts.ts), one handler per client method (methods.ts), tool calls (calls.ts), resources and prompts
 * (routes.ts), what servers send the clients (carriage.ts), and the catalog admitted again as things change
 * (admissions.ts).
 */

import { isObject } from "../../engine/json/json.js";
import type { Audit, Reporter } from "./audit.js";
import type { ServerConfig } from "./config.js";
import { GatewayCatalog, type CatalogSettings } from "./policy/catalog.js";
import { shadowedNames } from "./policy/shadowing.js";
import { HiddenTextScreen, type HiddenTextMode } from "./policy/hidden-text.js";
import { ServerIdentities } from "./policy/server-identity.js";
import type { PinLedger } from "./policy/pin-ledger.js";
import { Admissions, shadowLine } from "./routing/admissions.js";
import { Calls } from "./routing/calls.js";
import { RunningRequests } from "./routing/running.js";
import { Carriage } from "./routing/carriage.js";
import { Fronts, type FrontHandlers } from "./routing/fronts.js";
import { clientHandlers } from "./routing/methods.js";
import { Routes } from "./routing/routes.js";
import { Listeners } from "./routing/listeners.js";
import { Stateless } from "./routing/stateless.js";
import { RequestStateCodec } from "./policy/request-state.js";
import type { Replica } from "./policy/replica-options.js";
import type { Sdk, Transport } from "./sdk.js";
import { carriedCapabilities } from "./upstream/capabilities.js";
import type { Connector } from "./upstream/connector.js";
import { Upstream, type UpstreamSettings } from "./upstream/upstream.js";

/** The bare names of a server's prompts (none when it cannot list them: that failure is reported where it matters). */
export async function promptNames(up: Upstream, timeoutMs: number): Promise<string[]> {
  try {
    const prompts = await up.list("prompts/list", "prompts", timeoutMs);
    return prompts.flatMap((p) => (isObject(p) && typeof p["name"] === "string" ? [p["name"]] : []));
  } catch {
    return [];
  }
}

export interface GatewaySettings extends UpstreamSettings {
  readonly callTimeoutMs: number;
  /** The clients' requests running at once, every client's together (`--max-running-requests`; running.ts). */
  readonly maxRunningRequests: number;
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
  /** The key of the `requestState` the gateway mints (shared by replicas); a fresh one per process when absent. */
  readonly requestStateKey?: Uint8Array;
  /** This gateway's name among replicas (`--replica-id`), and the others' MCP endpoints by name (`--peer`). */
  readonly replica?: Replica;
  /** Hidden text in results, prompts, resources and elicitations (`--hidden-text`; tool definitions: the catalog's). */
  readonly hiddenText: HiddenTextMode;
}

/** `subscriptions/listen` streams held at once. */
const MAX_LISTENERS = 64;

/** What the gateway reports and records with, and the pins it admits against. */
export interface GatewayServices {
  /** The pins admitted against and the held tools: a pins file's, or memory's for the run. */
  readonly ledger: PinLedger;
  readonly reporter: Reporter;
  readonly audit: Audit;
  /** How each server is reached: a child process or an HTTP connection unless a test hands in-memory transports. */
  readonly connect?: Connector;
}

export class Gateway {
  readonly upstreams: Upstream[];
  private readonly catalog: GatewayCatalog;
  private readonly routes: Routes;
  private readonly fronts: Fronts;
  private readonly carriage: Carriage;
  private readonly admissions: Admissions;
  private readonly handlers: FrontHandlers;
  /** MCP 2026-07-28 requests, served without a session. */
  readonly stateless: Stateless;
  /** Settles once every server is up or down for the first time, and the first catalog is admitted. */
  readonly ready: Promise<void>;
  private started = false;
  private stopWatching: (() => void) | undefined;

  constructor(
    sdk: Sdk,
    configs: readonly ServerConfig[],
    private readonly settings: GatewaySettings,
    private readonly services: GatewayServices,
  ) {
    const { reporter, audit } = services;
    const upstreams = () => this.upstreams;
    const identities = new ServerIdentities(configs);
    this.catalog = new GatewayCatalog(settings.catalog, identities);
    const screen = new HiddenTextScreen(settings.hiddenText, sdk, reporter, audit);
    const context = {
      sdk,
      servers: upstreams,
      timeoutMs: settings.callTimeoutMs,
      warn: (t: string) => reporter.say(t),
      screen,
    };
    this.routes = new Routes(context, this.catalog.names);
    this.fronts = new Fronts(sdk, reporter);
    this.carriage = new Carriage(sdk, this.fronts, { ...settings, screen }, reporter);
    this.admissions = new Admissions(this.catalog, services.ledger, upstreams, {
      fronts: this.fronts,
      reporter,
      audit,
    });
    const running = new RunningRequests(settings.maxRunningRequests, reporter);
    const calls = new Calls(sdk, this.catalog, upstreams, {
      fronts: this.fronts,
      callTimeoutMs: settings.callTimeoutMs,
      running,
      reporter,
      known: (name) => this.admissions.knownServer(name),
      screen,
    });
    const { catalog, routes } = this;
    const ready = () => this.ready;
    this.handlers = clientHandlers({ sdk, catalog, calls, routes, audit, upstreams, ready, running });
    const codec = new RequestStateCodec(settings.requestStateKey, settings.replica?.id);
    const stateless = { parkMs: settings.clientRequestTimeoutMs, codec, peers: settings.replica?.peers ?? new Map() };
    const listeners = new Listeners(this.fronts, MAX_LISTENERS);
    this.stateless = new Stateless(this.handlers, this.catalog, stateless, listeners);
    this.upstreams = configs.map(
      (config) =>
        new Upstream(config, settings, {
          sdk: identities.sdkFor(sdk, config.name),
          events: {
            up: (up) => this.serverUp(up),
            down: (up, reason) => this.serverDown(up, reason),
            toolsChanged: (up) => void (this.started && this.admissions.readmit(`${up.name} changed its tools`)),
            notification: (up, notification) => this.carriage.notification(up, notification),
            request: (up, request, extra) => this.carriage.request(up, request, extra),
            stderr: (up, line) => reporter.server(up.name, line),
          },
          ...(services.connect === undefined ? {} : { connect: services.connect }),
        }),
    );
    this.ready = this.startAll();
  }

  private async startAll(): Promise<void> {
    const { reporter, ledger } = this.services;
    const { draft07 } = this.settings.catalog;
    reporter.say(
      draft07 === "upgrade"
        ? "draft-07 tool schemas are translated exactly to 2020-12 " +
            "(--draft07 upgrade, the default here; --draft07 reject refuses them)"
        : "draft-07 tool schemas are refused (--draft07 reject)",
    );
    if (this.settings.oneClient === true) {
      const client = await this.fronts.firstCapabilities;
      if (client !== undefined) {
        const offered = carriedCapabilities(client);
        for (const up of this.upstreams) up.offered = offered;
        const lacking = ["sampling", "roots", "elicitation"].filter((c) => offered[c] === undefined);
        if (lacking.length > 0)
          reporter.say(`the client does not declare ${lacking.join(", ")}: the servers are not offered it either`);
      }
    }
    await Promise.all(this.upstreams.map((up) => up.start()));
    this.started = true;
    await this.admissions.readmit("started");
    // Overlapping URI templates, and prompt names two servers list, are reported now, not when a client meets them.
    void this.routes.survey();
    void this.surveyPrompts();
    this.stopWatching = ledger.watch(() => void this.admissions.readmit("the pins file changed"));
  }

  /** Lists every server's prompts once they are up, to report a bare prompt name more than one server lists. */
  private async surveyPrompts(): Promise<void> {
    const lists = await Promise.all(
      this.upstreams
        .filter((up) => up.state === "up" && up.capabilities["prompts"] !== undefined)
        .map(async (up) => ({ server: up.name, names: await promptNames(up, this.settings.callTimeoutMs) })),
    );
    for (const s of shadowedNames(lists)) {
      this.services.reporter.say(
        "shadowed " + shadowLine("prompt", s.name, s.servers, (server) => this.catalog.names.listed(server, s.name)),
      );
    }
  }

  private serverUp(up: Upstream): void {
    this.carriage.started(up);
    this.services.reporter.say(`${up.name}: started (${up.tools.length} tools listed)`);
    this.services.audit.catalog({ server: up.name, outcome: "started" });
    this.routes.applyLevel(up);
    if (this.started) void this.admissions.readmit(`${up.name} started`);
  }

  private serverDown(up: Upstream, reason: string): void {
    const tools = this.catalog.tools.filter((t) => this.catalog.serverOf(t.name) === up.name).map((t) => t.name);
    const unavailable = tools.length === 0 ? "" : `; its tools are unavailable: ${tools.join(", ")}`;
    this.services.reporter.say(`${up.name}: ${this.started ? "stopped" : "failed to start"}: ${reason}${unavailable}`);
    this.services.audit.catalog({ server: up.name, outcome: this.started ? "stopped" : "failed", message: reason });
    if (this.started) void this.admissions.readmit(`${up.name} stopped`);
  }

  /**
   * Connects a client over `transport`; it is served until its connection closes. `direct`: its tool calls are
   * answered beside the SDK's server (front-calls.ts); a Streamable HTTP session passes false, since the SDK's server
   * is what ties a call's progress to the call's stream.
   */
  attach(transport: Transport, onclose: () => void = () => undefined, direct = true): Promise<void> {
    return this.fronts.attach(transport, this.handlers, onclose, direct);
  }

  /** Stops every server and closes every client; resolves when all are gone. */
  async stop(): Promise<void> {
    this.stopWatching?.();
    await Promise.all([...this.upstreams.map((up) => up.stop()), this.fronts.close()]);
    await this.services.audit.close();
  }
}
