/**
 * One configured server as the gateway sees it (docs/guide/gateway.md §Faults): started (a child over stdio, or a
 * Streamable HTTP connection), initialised and listed within the startup budget, then up until it exits, writes
 * something that is not a bounded JSON-RPC message, or stops answering (a call timed out and a ping got no answer
 * either). Then it is down: its pending requests fail with the reason, the gateway drops its tools, and with
 * `--restart` a stdio server is started again with backoff. Nothing a server does can throw into the gateway.
 */

import { errorMessage, isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { BackplaneJsonSchemaValidator } from "../../../adapters/mcp.js";
import { oneLine } from "../../args.js";
import { packageInfo } from "../../package-info.js";
import { spawnServer, type ChildServer } from "../transport/child-transport.js";
import type { ServerConfig } from "../config.js";
import { httpTransport } from "./http-upstream.js";
import type { LineFault } from "../transport/line-transport.js";
import { CAPABILITIES } from "./capabilities.js";
import { listAll, ListingBound, type ListingBounds } from "./listing.js";
import { Relisting } from "./relisting.js";
import { judgeFault } from "./stdout-noise.js";
import { AS_SENT, type RequestExtra, type Sdk, type SdkClient, type Transport } from "../sdk.js";

export type UpstreamState = "starting" | "up" | "down" | "stopped";

export interface UpstreamSettings {
  readonly maxMessageBytes: number;
  readonly startupTimeoutMs: number;
  /** How long a ping may take to show a server still answers after one of its calls timed out. */
  readonly pingTimeoutMs: number;
  readonly restart: boolean;
  /** The total bound on each of its listings. */
  readonly listing: ListingBounds;
  /** Relistings after `list_changed` a server may cause in a minute before it is isolated (relisting.ts). */
  readonly maxListChanged: number;
  /** Lines on a server's stdout that are not JSON-RPC skipped (and reported) before it is isolated, per start. */
  readonly maxStdoutNoise: number;
}

/** What an upstream tells the gateway. */
export interface UpstreamEvents {
  /** The server is up and listed its tools (first start, or a restart). */
  up(upstream: Upstream): void;
  /** The server went down (or could not be started); `reason` says why. */
  down(upstream: Upstream, reason: string): void;
  /** The server sent `notifications/tools/list_changed` and its tools were listed again. */
  toolsChanged(upstream: Upstream): void;
  /** Any other notification the server sent. */
  notification(upstream: Upstream, notification: { method: string; params?: unknown }): void;
  /** A request the server sent (sampling, roots, elicitation, …): the answer, or an error to send back. */
  request(upstream: Upstream, request: { method: string; params?: unknown }, extra: RequestExtra): Promise<unknown>;
  /** A line the server wrote on its stderr, or something the gateway says about it. */
  stderr(upstream: Upstream, line: string): void;
}

/** Restart delays double from the first to the last; a server up for `STABLE_MS` starts again from the first. */
const FIRST_RESTART_MS = 500;
const LAST_RESTART_MS = 30_000;
const STABLE_MS = 60_000;

/** The child's last stderr lines a start failure quotes. */
const STDERR_TAIL = 5;

/** How long a closed connection waits for its child's exit status. */
const EXIT_WAIT_MS = 500;

class Timeout extends Error {}

function pause(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

export class Upstream {
  state: UpstreamState = "starting";
  /** Why it is down (or could not start). */
  reason = "";
  /** The tools it listed last, as published. */
  tools: readonly unknown[] = [];
  /** The server's version (`serverInfo.version`), every tool's revision. */
  revision = "";
  private client: SdkClient | undefined;
  private child: ChildServer | undefined;
  private generation = 0;
  private restarts = 0;
  private upSince = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** A `list_changed` that came while the first listing was under way: listed again once up. */
  private changedWhileStarting = false;
  /** The last stderr lines of the current child, and its stdout lines skipped as not JSON-RPC. */
  private tail: string[] = [];
  private noise = 0;
  /** Whether it was ever up (a tool of a server that never started is told so). */
  everUp = false;
  /** The client capabilities declared to the server (set before it starts: those the gateway's client has). */
  offered: Record<string, unknown> = CAPABILITIES;
  private probing = false;

  private readonly relisting: Relisting;

  constructor(
    readonly config: ServerConfig,
    private readonly sdk: Sdk,
    private readonly settings: UpstreamSettings,
    private readonly events: UpstreamEvents,
  ) {
    this.relisting = new Relisting(
      {
        current: (generation) => generation === this.generation,
        live: (generation) => generation === this.generation && this.state === "up",
        list: () => this.listTools(this.client as SdkClient),
        listed: (tools) => {
          this.tools = tools;
          this.events.toolsChanged(this);
        },
        report: (line) => this.events.stderr(this, line),
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
    return (this.client?.getServerCapabilities() as Record<string, unknown> | undefined) ?? {};
  }

  /** Starts (or restarts) the server; resolves once it is up or down, within the startup budget. */
  async start(): Promise<void> {
    const generation = ++this.generation;
    this.state = "starting";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout()), this.settings.startupTimeoutMs);
    });
    try {
      await Promise.race([this.connect(generation), deadline]);
      if (generation !== this.generation || this.state !== "starting") return;
      this.state = "up";
      this.everUp = true;
      this.upSince = Date.now();
      this.events.up(this);
      if (this.changedWhileStarting) this.relist();
    } catch (e) {
      if (generation !== this.generation || (this.state as UpstreamState) === "stopped") return;
      // A child that exits while starting: how it exited says more than the closed connection.
      const exited = isInstance(e, Timeout) ? undefined : this.child?.exited;
      const how = exited === undefined ? undefined : await Promise.race([exited, pause(EXIT_WAIT_MS)]);
      if (generation !== this.generation || (this.state as UpstreamState) !== "starting") return;
      const reason = isInstance(e, Timeout)
        ? `it did not start and list its tools within ${this.settings.startupTimeoutMs} ms (--startup-timeout)`
        : how !== undefined
          ? `it ${how} before it started`
          : this.reason !== ""
            ? this.reason
            : `it could not be started: ${startFailure(e)}`;
      const tail = this.tail.length === 0 ? "" : `; its last stderr lines: ${this.tail.join(" | ")}`;
      await this.fail(generation, reason + tail);
    } finally {
      clearTimeout(timer);
    }
  }

  private async connect(generation: number): Promise<void> {
    this.reason = "";
    this.changedWhileStarting = false;
    const client = new this.sdk.Client(
      { name: "backplane-schema-gateway", version: packageInfo().version },
      { capabilities: this.offered, jsonSchemaValidator: new BackplaneJsonSchemaValidator() },
    );
    client.fallbackRequestHandler = (request, extra) =>
      this.events.request(this, request, extra) as ReturnType<NonNullable<SdkClient["fallbackRequestHandler"]>>;
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === "notifications/tools/list_changed") this.relist();
      else this.events.notification(this, notification);
    };
    client.onclose = async () => {
      // While starting, `start` reports the failure (with the exit status and the last stderr lines).
      if (generation !== this.generation || this.state !== "up") return;
      // A child's stdout ends as it exits: how it exited is the better reason, when it comes soon.
      const exited = this.child?.exited;
      const how = exited === undefined ? undefined : await Promise.race([exited, pause(EXIT_WAIT_MS)]);
      if (this.reason === "" && how !== undefined) this.reason = `it ${how}`;
      await this.fail(generation, this.reason !== "" ? this.reason : "its connection closed");
    };
    this.client = client;
    this.tail = [];
    this.noise = 0;
    const onFault = (fault: LineFault) => {
      if (generation !== this.generation) return;
      const judged = judgeFault(fault, ++this.noise, this.config.kind === "stdio", this.settings);
      if (judged.report !== undefined) this.events.stderr(this, judged.report);
      if (judged.isolate === undefined) return;
      this.reason = judged.isolate;
      void this.fail(generation, this.reason);
    };
    let transport: Transport;
    if (this.config.kind === "stdio") {
      const child = await spawnServer(this.config, {
        maxMessageBytes: this.settings.maxMessageBytes,
        isMessage: (value) => this.sdk.types.JSONRPCMessageSchema.safeParse(value).success,
        baseEnv: this.sdk.defaultEnvironment(),
        onFault,
        onStderr: (line) => {
          if (generation === this.generation) this.tail = [...this.tail, line].slice(-STDERR_TAIL);
          this.events.stderr(this, line);
        },
      });
      this.child = child;
      void child.exited.then((how) => {
        if (generation === this.generation && this.reason === "") this.reason = `it ${how}`;
      });
      transport = child.transport;
    } else {
      transport = httpTransport(this.sdk, this.config, this.settings.maxMessageBytes, onFault);
    }
    await client.connect(transport);
    this.revision = client.getServerVersion()?.version ?? "";
    if (this.revision === "") this.revision = "unversioned";
    this.tools = await this.listTools(client);
  }

  /** Every page of `tools/list`, within the listing bounds and the startup budget for the whole listing. */
  private listTools(client: SdkClient): Promise<unknown[]> {
    const request = (params: Record<string, unknown>, options: { timeout: number }) =>
      client.request({ method: "tools/list", params }, AS_SENT, options) as Promise<unknown>;
    return listAll(request, "tools/list", "tools", this.settings.listing, this.settings.startupTimeoutMs);
  }

  /** After `list_changed`: listed again (relisting.ts), debounced and bounded; while starting, once up. */
  private relist(): void {
    if (this.state === "starting") this.changedWhileStarting = true;
    if (this.state === "up") this.relisting.changed(this.generation);
  }

  /**
   * Sends a request to the server (as sent: the result is returned untouched). Rejects with the SDK's `McpError`: the
   * server's own error, `RequestTimeout` (then the server is pinged, and isolated if it does not answer), or
   * `ConnectionClosed` when it goes down meanwhile.
   */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: { timeout?: number; signal?: AbortSignal; onprogress?: (progress: Record<string, unknown>) => void },
  ): Promise<unknown> {
    const client = this.client;
    if (client === undefined || this.state !== "up") {
      throw new this.sdk.McpError(this.sdk.types.ErrorCode.ConnectionClosed, `the server ${this.name} is not running`);
    }
    try {
      return await client.request({ method, ...(params === undefined ? {} : { params }) }, AS_SENT, {
        timeout: options.timeout ?? this.settings.startupTimeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onprogress === undefined ? {} : { onprogress: options.onprogress }),
      });
    } catch (e) {
      if (isInstance(e, this.sdk.McpError) && e.code === this.sdk.types.ErrorCode.RequestTimeout) this.probe();
      throw e;
    }
  }

  /**
   * Every page of a listing (`resources/list`, …) within the listing bounds and `deadlineMs` for the whole listing; a
   * server whose listing passes a bound is isolated.
   */
  async list(method: string, key: string, deadlineMs: number, signal?: AbortSignal): Promise<unknown[]> {
    const generation = this.generation;
    const request = (params: Record<string, unknown>, options: { timeout: number }) =>
      this.request(method, params, { ...options, ...(signal === undefined ? {} : { signal }) });
    try {
      return await listAll(request, method, key, this.settings.listing, deadlineMs);
    } catch (e) {
      if (isInstance(e, ListingBound) && generation === this.generation && this.state === "up")
        void this.fail(generation, oneLine(errorMessage(e)));
      throw e;
    }
  }

  /** Sends a notification to the server; one it cannot take is dropped (it is going down). */
  notify(method: string, params?: Record<string, unknown>): void {
    if (this.state !== "up") return;
    this.client?.notification({ method, ...(params === undefined ? {} : { params }) }).catch(() => undefined);
  }

  /** After a timeout: a server that does not answer a ping within the ping budget is isolated. */
  private probe(): void {
    if (this.probing || this.state !== "up") return;
    this.probing = true;
    const generation = this.generation;
    const client = this.client as SdkClient;
    client
      .ping({ timeout: this.settings.pingTimeoutMs })
      .catch(() => {
        if (generation === this.generation && this.state === "up") {
          void this.fail(
            generation,
            `it stopped answering (a call timed out and a ping got no answer within ${this.settings.pingTimeoutMs} ms)`,
          );
        }
      })
      .finally(() => {
        this.probing = false;
      });
  }

  /** Takes the server down: its connection closed (pending requests fail), the child stopped, a restart planned. */
  private async fail(generation: number, reason: string): Promise<void> {
    if (generation !== this.generation || this.state === "down" || this.state === "stopped") return;
    const wasUp = this.state === "up";
    this.state = "down";
    this.reason = reason;
    this.tools = [];
    this.relisting.cancel();
    this.events.down(this, reason);
    await this.close();
    if (!this.settings.restart || this.config.kind !== "stdio") return;
    if (wasUp && Date.now() - this.upSince >= STABLE_MS) this.restarts = 0;
    const delay = Math.min(LAST_RESTART_MS, FIRST_RESTART_MS * 2 ** this.restarts++);
    this.events.stderr(this, `restarting in ${delay} ms (--restart)`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state === "down" && generation === this.generation) void this.start();
    }, delay);
  }

  private async close(): Promise<void> {
    const client = this.client;
    const child = this.child;
    this.client = undefined;
    this.child = undefined;
    await client?.close().catch(() => undefined);
    await child?.stop();
  }

  /** Takes the server down for something the gateway saw it do (a flood); with `--restart` it is started again. */
  isolate(reason: string): void {
    if (this.state === "up") void this.fail(this.generation, reason);
  }

  /** Stops the server for good (the gateway is exiting). */
  async stop(): Promise<void> {
    this.state = "stopped";
    this.generation++;
    clearTimeout(this.restartTimer);
    this.relisting.cancel();
    await this.close();
  }
}

/** Why a server could not be started, in one line. */
function startFailure(e: unknown): string {
  const code = isObject(e) ? (e as { code?: unknown }).code : undefined;
  if (code === "ENOENT") return "no such command";
  if (code === "EACCES") return "permission denied";
  return oneLine(errorMessage(e));
}
