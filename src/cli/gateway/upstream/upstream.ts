/**
 * One configured server as the gateway sees it (docs/guide/gateway.md §Faults): started (a child over stdio, or a
 * Streamable HTTP connection, through its `Connector`), initialised and listed within the startup budget, then up until
 * it exits, writes something that is not a bounded JSON-RPC message, or stops answering (a call timed out and a ping
 * got no answer either). Then it is down: its pending requests fail with the reason, the gateway drops its tools, and
 * with `--restart` a stdio server is started again with backoff (restarts.ts). Each start is a `Link` (link.ts); this
 * class keeps the lifecycle. Nothing a server does can throw into the gateway.
 */

import type { ServerConfig } from "../config.js";
import type { Message, RequestExtra, Sdk } from "../sdk.js";
import { CAPABILITIES } from "./capabilities.js";
import { processConnector, type Connector } from "./connector.js";
import { Link, openWithin, type LinkSettings, type RequestOptions } from "./link.js";
import { Relisting } from "./relisting.js";
import { Restarts } from "./restarts.js";

export type UpstreamState = "starting" | "up" | "down" | "stopped";

export interface UpstreamSettings extends LinkSettings {
  readonly restart: boolean;
  /** The most bytes waiting to be written to a stdio server (`--max-queued-bytes`, as for the client). */
  readonly maxQueuedBytes: number;
  /** Relistings after `list_changed` a server may cause in a minute before it is isolated (relisting.ts). */
  readonly maxListChanged: number;
}

/** What an upstream tells the gateway. */
interface UpstreamEvents {
  /** The server is up and listed its tools (first start, or a restart). */
  up(upstream: Upstream): void;
  /** The server went down (or could not be started); `reason` says why. */
  down(upstream: Upstream, reason: string): void;
  /** The server sent `notifications/tools/list_changed` and its tools were listed again. */
  toolsChanged(upstream: Upstream): void;
  /** Any other notification the server sent. */
  notification(upstream: Upstream, notification: Message): void;
  /** A request the server sent (sampling, roots, elicitation, …): the answer, or an error to send back. */
  request(upstream: Upstream, request: Message, extra: RequestExtra): Promise<unknown>;
  /** A line the server wrote on its stderr, or something the gateway says about it. */
  stderr(upstream: Upstream, line: string): void;
}

/** What an upstream is given: the SDK, whom it tells, and how it reaches its server (the process one by default). */
export interface UpstreamServices {
  readonly sdk: Sdk;
  readonly events: UpstreamEvents;
  readonly connect?: Connector;
}

export class Upstream {
  state: UpstreamState = "starting";
  /** Why it is down (or could not start). */
  reason = "";
  /** The tools it listed last, as published. */
  tools: readonly unknown[] = [];
  /** The server's version (`serverInfo.version`), every tool's revision. */
  revision = "";
  /** Whether it was ever up (a tool of a server that never started is told so). */
  everUp = false;
  /** The client capabilities declared to the server (set before it starts: those the gateway's client has). */
  offered: Record<string, unknown> = CAPABILITIES;
  private link: Link | undefined;
  private generation = 0;
  /** A `list_changed` that came while the first listing was under way: listed again once up. */
  private changedWhileStarting = false;
  private readonly relisting: Relisting;
  private readonly restarts: Restarts;

  constructor(
    readonly config: ServerConfig,
    private readonly settings: UpstreamSettings,
    private readonly services: UpstreamServices,
  ) {
    const report = (line: string) => services.events.stderr(this, line);
    this.restarts = new Restarts(settings.restart && config.kind === "stdio", report);
    this.relisting = new Relisting(
      {
        current: (generation) => generation === this.generation,
        live: (generation) => generation === this.generation && this.state === "up",
        list: () => (this.link as Link).listTools(),
        listed: (tools) => {
          this.tools = tools;
          this.services.events.toolsChanged(this);
        },
        report,
        fail: (generation, reason) => void this.fail(generation, reason),
      },
      settings.maxListChanged,
    );
  }

  get name(): string {
    return this.config.name;
  }

  /** The server's capabilities (after it is up). */
  get capabilities(): Record<string, unknown> {
    return (this.link?.client.getServerCapabilities() as Record<string, unknown> | undefined) ?? {};
  }

  /** Starts (or restarts) the server; resolves once it is up or down, within the startup budget. */
  async start(): Promise<void> {
    const generation = ++this.generation;
    this.state = "starting";
    this.reason = "";
    this.changedWhileStarting = false;
    const link = (this.link = this.newLink(generation));
    const opened = await openWithin(link, this.settings.startupTimeoutMs);
    if (generation !== this.generation || this.state !== "starting") return;
    if (!opened.ok) return this.fail(generation, opened.reason);
    ({ revision: this.revision, tools: this.tools } = opened);
    this.state = "up";
    this.everUp = true;
    this.restarts.up();
    this.services.events.up(this);
    if (this.changedWhileStarting) this.relist();
  }

  /**
   * One start's link; what it reports counts only while it is the current start, and its connection closing only once
   * it is up (while starting, `start` reports the failure, with the exit status and the last stderr lines).
   */
  private newLink(generation: number): Link {
    const current = () => generation === this.generation;
    const { sdk, connect = processConnector(sdk, this.settings) } = this.services;
    const context = { sdk, settings: this.settings, connect, offered: this.offered };
    return new Link(this.config, context, {
      request: (request, extra) => this.services.events.request(this, request, extra),
      notification: (notification) => this.services.events.notification(this, notification),
      listChanged: () => current() && this.relist(),
      closed: (reason) => current() && this.state === "up" && void this.fail(generation, reason),
      isolate: (reason) => current() && void this.fail(generation, reason),
      stderr: (line) => this.services.events.stderr(this, line),
    });
  }

  /** After `list_changed`: listed again (relisting.ts), debounced and bounded; while starting, once up. */
  private relist(): void {
    if (this.state === "starting") this.changedWhileStarting = true;
    if (this.state === "up") this.relisting.changed(this.generation);
  }

  /** A request to the server, as sent (link.ts); `ConnectionClosed` when it is not up or goes down meanwhile. */
  request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions): Promise<unknown> {
    return this.running().request(method, params, options);
  }

  /** Every page of a listing (`resources/list`, …) within the listing bounds and `deadlineMs` for all of it. */
  list(method: string, key: string, deadlineMs: number, signal?: AbortSignal): Promise<unknown[]> {
    return this.running().list(method, key, deadlineMs, signal);
  }

  private running(): Link {
    const { sdk } = this.services;
    if (this.link === undefined || this.state !== "up")
      throw new sdk.McpError(sdk.types.ErrorCode.ConnectionClosed, `the server ${this.name} is not running`);
    return this.link;
  }

  /** Sends a notification to the server; one it cannot take is dropped (it is going down). */
  notify(method: string, params?: Record<string, unknown>): void {
    if (this.state === "up") this.link?.notify(method, params);
  }

  /** Takes the server down: its connection closed (pending requests fail), the child stopped, a restart planned. */
  private async fail(generation: number, reason: string): Promise<void> {
    if (generation !== this.generation || this.state === "down" || this.state === "stopped") return;
    const wasUp = this.state === "up";
    this.state = "down";
    this.reason = reason;
    this.tools = [];
    this.relisting.cancel();
    this.services.events.down(this, reason);
    await this.close();
    this.restarts.plan(wasUp, () => {
      if (this.state === "down" && generation === this.generation) void this.start();
    });
  }

  private async close(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    await link?.close();
  }

  /** Takes the server down for something the gateway saw it do (a flood); with `--restart` it is started again. */
  isolate(reason: string): void {
    if (this.state === "up") void this.fail(this.generation, reason);
  }

  /** Stops the server for good (the gateway is exiting). */
  async stop(): Promise<void> {
    this.state = "stopped";
    this.generation++;
    this.restarts.cancel();
    this.relisting.cancel();
    await this.close();
  }
}
