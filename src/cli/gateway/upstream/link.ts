/**
 * One start of a server: the gateway's SDK client over the connection a `Connector` opened, initialised and its
 * tools listed, then carrying requests until it closes. What the server sends that is not a bounded message is judged
 * here (stdout-noise.ts), a timed-out request is followed by a ping, and a listing past its bounds or a ping without an
 * answer asks the upstream to isolate the server. A restart is a new link: nothing an old connection does reaches it.
 */

import { errorMessage, isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { BackplaneJsonSchemaValidator } from "../../../adapters/mcp.js";
import { oneLine } from "../../args.js";
import { packageInfo } from "../../package-info.js";
import type { ServerConfig } from "../config.js";
import { AS_SENT, type Message, type RequestExtra, type Sdk, type SdkClient } from "../sdk.js";
import type { LineFault } from "../transport/line-transport.js";
import type { Connection, Connector } from "./connector.js";
import { DirectRequests } from "./direct-requests.js";
import { listAll, ListingBound, type ListingBounds } from "./listing.js";
import { judgeFault } from "./stdout-noise.js";

/** The bounds one start runs within. */
export interface LinkSettings {
  readonly maxMessageBytes: number;
  readonly startupTimeoutMs: number;
  /** How long a ping may take to show a server still answers after one of its calls timed out. */
  readonly pingTimeoutMs: number;
  /** The total bound on each of its listings. */
  readonly listing: ListingBounds;
  /** Lines on a server's stdout that are not JSON-RPC skipped (and reported) before it is isolated, per start. */
  readonly maxStdoutNoise: number;
}

/** What a link needs besides its server's configuration. */
export interface LinkContext {
  readonly sdk: Sdk;
  readonly settings: LinkSettings;
  readonly connect: Connector;
  /** The client capabilities declared to the server. */
  readonly offered: Record<string, unknown>;
}

/** What a link tells its upstream. */
export interface LinkEvents {
  /** A request the server sent: the answer, or an error to send back. */
  request(request: Message, extra: RequestExtra): Promise<unknown>;
  notification(notification: Message): void;
  /** The server sent `notifications/tools/list_changed`. */
  listChanged(): void;
  /** The connection closed, for `reason` (how the child exited, when it did). */
  closed(reason: string): void;
  /** The server must be isolated, for `reason`. */
  isolate(reason: string): void;
  /** A line to report under the server's name: its own stderr, or what was skipped of its stdout. */
  stderr(line: string): void;
}

export interface RequestOptions {
  timeout?: number;
  signal?: AbortSignal;
  onprogress?: (progress: Record<string, unknown>) => void;
}

/** The child's last stderr lines a start failure quotes. */
const STDERR_TAIL = 5;
/** How long a closed connection waits for its child's exit status. */
const EXIT_WAIT_MS = 500;

function pause(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

export class Link {
  readonly client: SdkClient;
  private connection: Connection | undefined;
  /** A stdio server's requests without progress, sent and answered beside the SDK client (direct-requests.ts). */
  private direct: DirectRequests | undefined;
  /** Why the link ended as far as it knows: how the child exited, or what it sent that isolates it. */
  reason = "";
  /** The last stderr lines of the child, and its stdout lines skipped as not JSON-RPC. */
  private tail: string[] = [];
  private noise = 0;
  private probing = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly context: LinkContext,
    private readonly events: LinkEvents,
  ) {
    const client = new context.sdk.Client(
      { name: "backplane-schema-gateway", version: packageInfo().version },
      { capabilities: context.offered, jsonSchemaValidator: new BackplaneJsonSchemaValidator() },
    );
    client.fallbackRequestHandler = (request, extra) =>
      events.request(request, extra) as ReturnType<NonNullable<SdkClient["fallbackRequestHandler"]>>;
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === "notifications/tools/list_changed") events.listChanged();
      else events.notification(notification);
    };
    client.onclose = () => void this.closed();
    this.client = client;
  }

  /** Connects and initialises; resolves with the server's version and its tools. */
  async open(): Promise<{ revision: string; tools: unknown[] }> {
    const connection = await this.context.connect(this.config, {
      onFault: (fault) => this.fault(fault),
      onStderr: (line) => {
        this.tail = [...this.tail, line].slice(-STDERR_TAIL);
        this.events.stderr(line);
      },
    });
    this.connection = connection;
    void connection.exited?.then((how) => {
      if (this.reason === "") this.reason = `it ${how}`;
    });
    await this.client.connect(connection.transport);
    if (this.config.kind === "stdio") this.direct = new DirectRequests(connection.transport, this.context.sdk);
    const revision = this.client.getServerVersion()?.version ?? "";
    return { revision: revision === "" ? "unversioned" : revision, tools: await this.listTools() };
  }

  /** A child's stdout ends as it exits: how it exited is the better reason, when it comes soon. */
  private async closed(): Promise<void> {
    const how = await this.exitStatus();
    if (this.reason === "" && how !== undefined) this.reason = `it ${how}`;
    this.events.closed(this.reason !== "" ? this.reason : "its connection closed");
  }

  private fault(fault: LineFault): void {
    const judged = judgeFault(fault, ++this.noise, this.config.kind === "stdio", this.context.settings);
    if (judged.report !== undefined) this.events.stderr(judged.report);
    if (judged.isolate === undefined) return;
    this.reason = judged.isolate;
    this.events.isolate(judged.isolate);
  }

  /** How the child exited, if it has or does within a moment; undefined where no child is behind the link. */
  async exitStatus(): Promise<string | undefined> {
    const exited = this.connection?.exited;
    return exited === undefined ? undefined : Promise.race([exited, pause(EXIT_WAIT_MS)]);
  }

  /** The child's last stderr lines, as a start failure quotes them ("" when it wrote none). */
  get stderrTail(): string {
    return this.tail.length === 0 ? "" : `; its last stderr lines: ${this.tail.join(" | ")}`;
  }

  /** Every page of `tools/list`, within the listing bounds and the startup budget for the whole listing. */
  listTools(): Promise<unknown[]> {
    const { listing, startupTimeoutMs } = this.context.settings;
    const request = (params: Record<string, unknown>, options: { timeout: number }) =>
      this.client.request({ method: "tools/list", params }, AS_SENT, options) as Promise<unknown>;
    return listAll(request, "tools/list", "tools", listing, startupTimeoutMs);
  }

  /**
   * A request as sent (the result is returned untouched). Rejects with the SDK's `McpError`: the server's own error,
   * `RequestTimeout` (then the server is pinged, and isolated if it does not answer), or `ConnectionClosed`.
   */
  async request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions) {
    const { sdk, settings } = this.context;
    const timeout = options.timeout ?? settings.startupTimeoutMs;
    try {
      if (this.direct !== undefined && options.onprogress === undefined)
        return await this.direct.request(method, params, timeout, options.signal);
      return await this.client.request({ method, ...(params === undefined ? {} : { params }) }, AS_SENT, {
        timeout,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onprogress === undefined ? {} : { onprogress: options.onprogress }),
      });
    } catch (e) {
      if (isInstance(e, sdk.McpError) && e.code === sdk.types.ErrorCode.RequestTimeout) this.probe();
      throw e;
    }
  }

  /** Every page of a listing within the listing bounds and `deadlineMs`; a listing past a bound isolates. */
  async list(method: string, key: string, deadlineMs: number, signal?: AbortSignal): Promise<unknown[]> {
    const request = (params: Record<string, unknown>, options: { timeout: number }) =>
      this.request(method, params, { ...options, ...(signal === undefined ? {} : { signal }) });
    try {
      return await listAll(request, method, key, this.context.settings.listing, deadlineMs);
    } catch (e) {
      if (isInstance(e, ListingBound)) this.events.isolate(oneLine(errorMessage(e)));
      throw e;
    }
  }

  /** A notification to the server; one it cannot take is dropped (it is going down). */
  notify(method: string, params?: Record<string, unknown>): void {
    this.client.notification({ method, ...(params === undefined ? {} : { params }) }).catch(() => undefined);
  }

  /** After a timeout: a server that does not answer a ping within the ping budget is isolated. */
  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    const { pingTimeoutMs } = this.context.settings;
    this.client
      .ping({ timeout: pingTimeoutMs })
      .catch(() =>
        this.events.isolate(
          `it stopped answering (a call timed out and a ping got no answer within ${pingTimeoutMs} ms)`,
        ),
      )
      .finally(() => {
        this.probing = false;
      });
  }

  /** Closes the connection (pending requests fail) and stops what is behind it. */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.connection?.stop();
  }
}

class Timeout extends Error {}

/** How one start ended: the server's version and tools, or why it did not start (its last stderr lines quoted). */
type Opened = { ok: true; revision: string; tools: unknown[] } | { ok: false; reason: string };

/** Opens `link` within `ms` for the whole start (connection, initialisation, every page of the tools). */
export async function openWithin(link: Link, ms: number): Promise<Opened> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  try {
    return { ok: true, ...(await Promise.race([link.open(), deadline])) };
  } catch (e) {
    if (isInstance(e, Timeout))
      return { ok: false, reason: `it did not start and list its tools within ${ms} ms (--startup-timeout)` };
    // A child that exits while starting: how it exited says more than the closed connection.
    const how = await link.exitStatus();
    const why = how !== undefined ? `it ${how} before it started` : link.reason;
    return { ok: false, reason: (why !== "" ? why : `it could not be started: ${failure(e)}`) + link.stderrTail };
  } finally {
    clearTimeout(timer);
  }
}

/** Why a server could not be started, in one line. */
function failure(e: unknown): string {
  const code = isObject(e) ? (e as { code?: unknown }).code : undefined;
  if (code === "ENOENT") return "no such command";
  if (code === "EACCES") return "permission denied";
  return oneLine(errorMessage(e));
}
