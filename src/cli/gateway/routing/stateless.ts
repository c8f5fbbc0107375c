/**
 * MCP 2026-07-28 requests (stateless: no session, a `_meta` envelope on every request), answered by the same handlers
 * as a 2025-11-25 session's. Each request is its own client (`RequestFront`): it declares its capabilities on itself,
 * and what a server asks meanwhile comes back as `input_required` (exchange.ts). The gateway answers
 * `server/discover` with what it carries, puts `resultType` on every result and cache hints on every cacheable one
 * (its servers speak 2025-11-25 and give none: `ttlMs: 0`, `private`), checks `Mcp-Param-*` headers against the
 * listed tool's `x-mcp-header` declarations (under the name it lists), and keeps `subscriptions/listen` streams.
 * Methods the revision removed, and the tasks extension's, which the gateway does not offer, are `-32601`.
 */

import { errorMessage, isInstance } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { packageInfo } from "../../package-info.js";
import type { GatewayCatalog } from "../policy/catalog.js";
import { paramsDigest, type RequestStateCodec } from "../policy/request-state.js";
import type { RequestExtra, Message } from "../sdk.js";
import { Code, META, refusal, SUPPORTED_VERSIONS, type ModernRequest, type Refusal } from "../transport/stateless.js";
import { checkParamHeaders, paramHeadersOf, type MirroredHeaders } from "../transport/mirrored-headers.js";
import { type StatelessAnswer, type StatelessCall } from "../transport/stateless-call.js";
import { Exchange, ExchangeError, RequestFront, type Step } from "./exchange.js";
import { CAPABILITIES, type FrontHandlers } from "./fronts.js";
import type { Listening, Listeners } from "./listeners.js";

export interface StatelessSettings {
  /** How long a parked call waits for its retry. */
  readonly parkMs: number;
  readonly codec: RequestStateCodec;
  /** The other replicas behind the same load balancer: their MCP endpoints by replica id. */
  readonly peers: ReadonlyMap<string, string>;
}

/** The methods whose complete results are cacheable (MCP 2026-07-28 `server/utilities/caching.mdx`). */
const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);
/** Methods whose handler may come back with questions for the client. */
const MULTI_ROUND = new Set(["tools/call", "prompts/get", "resources/read"]);
/** The session-free methods the 2025 handlers answer. */
const CARRIED = new Set([
  ...MULTI_ROUND,
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "completion/complete",
]);
/** The envelope keys the gateway reads and does not send on to a 2025 server. */
const ENVELOPE = new Set<string>([META.protocolVersion, META.clientCapabilities, META.clientInfo, META.logLevel]);

function serverInfo(): { name: string; version: string } {
  return { name: "backplane-schema-gateway", version: packageInfo().version };
}

/** A JSON-RPC error response. */
function failure(id: string | number | null, r: Refusal): StatelessAnswer {
  const error = { code: r.code, message: r.message, ...(r.data === undefined ? {} : { data: r.data }) };
  return { status: r.status, message: { jsonrpc: "2.0", id, error } };
}

/** The params a 2025 handler (and server) is given: no envelope, no retry fields. */
function onward(params: Record<string, unknown>): Record<string, unknown> {
  const { inputResponses: _i, requestState: _s, _meta, ...rest } = params;
  if (!isObject(_meta)) return rest;
  const kept = Object.fromEntries(Object.entries(_meta).filter(([key]) => !ENVELOPE.has(key)));
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}

/** What the gateway answers `server/discover` with. */
function discover(): Record<string, unknown> {
  return { supportedVersions: SUPPORTED_VERSIONS, capabilities: CAPABILITIES };
}

/** A complete result: `resultType`, the gateway's identity, and cache hints where the method is cacheable. */
function complete(id: string | number, method: string, result: unknown): StatelessAnswer {
  const body = isObject(result) ? { ...result } : {};
  if (body["resultType"] === undefined) body["resultType"] = "complete";
  if (CACHEABLE.has(method)) {
    if (typeof body["ttlMs"] !== "number") body["ttlMs"] = 0;
    if (body["cacheScope"] !== "public") body["cacheScope"] = "private";
  }
  const meta = isObject(body["_meta"]) ? body["_meta"] : {};
  body["_meta"] = { ...meta, [META.serverInfo]: serverInfo() };
  return { status: 200, message: { jsonrpc: "2.0", id, result: body } };
}

/** The JSON-RPC error a handler's failure is sent as (in-band, except a missing capability: 400). */
function refusalOf(error: unknown): Refusal {
  if (isInstance(error, ExchangeError)) {
    const status = error.code === Code.MissingRequiredClientCapability ? 400 : 200;
    return refusal(status, error.code, error.message, error.data);
  }
  const code = isObject(error) && typeof error["code"] === "number" ? error["code"] : Code.InternalError;
  const data = isObject(error) ? error["data"] : undefined;
  const message = errorMessage(error).replace(/^MCP error -?\d+: /, "");
  return refusal(code === Code.MethodNotFound ? 404 : 200, code, message, data);
}
export class Stateless {
  /** Parked calls by id. */
  private readonly parked = new Map<string, Exchange>();

  constructor(
    private readonly handlers: FrontHandlers,
    private readonly catalog: GatewayCatalog,
    private readonly settings: StatelessSettings,
    /** The `subscriptions/listen` streams. */
    private readonly listeners: Listeners,
  ) {}

  listen(request: ModernRequest, send: (message: Message) => boolean): Listening | StatelessAnswer {
    return this.listeners.listen(request, send);
  }

  /** Answers one request. */
  async answer(call: StatelessCall): Promise<StatelessAnswer> {
    const { request } = call;
    const { id, method, params } = request;
    if (method === "server/discover") return complete(id, method, discover());
    if (!CARRIED.has(method))
      return failure(
        id,
        refusal(404, Code.MethodNotFound, `Method not found: ${method} (MCP ${META.protocolVersion})`),
      );
    if (method === "tools/call") {
      const mismatch = this.paramHeaders(params, call.headers);
      if (mismatch !== undefined) return failure(id, mismatch);
    }
    if (!MULTI_ROUND.has(method)) {
      const front = new RequestFront(this.single(), request.envelope.clientCapabilities, undefined, call.stream);
      return this.settle(id, method, await this.run(front, call, call.closed));
    }
    return this.rounds(call);
  }

  /** A `tools/call`'s `Mcp-Param-*` headers against the listed tool's `x-mcp-header` declarations. */
  private paramHeaders(params: Record<string, unknown>, headers: MirroredHeaders): Refusal | undefined {
    const name = params["name"];
    const tool = this.catalog.tools.find((t) => t.name === name);
    if (tool === undefined) return undefined;
    const declared = paramHeadersOf(tool.inputSchema);
    if (typeof declared === "string") return undefined;
    return checkParamHeaders(declared, params["arguments"], headers);
  }

  /** An exchange for a request that has one round. */
  private single(): Exchange {
    return new Exchange("", "", "", () => undefined);
  }

  /** Runs the handler for a request as `front`'s; resolves with its first step. */
  private run(front: RequestFront, call: StatelessCall, signal: AbortSignal): Promise<Step> {
    const { request } = call;
    const exchange = front.exchange;
    const abort = () => exchange.cancel("the client closed its stream");
    signal.addEventListener("abort", abort, { once: true });
    const extra = {
      signal: exchange.controller.signal,
      requestId: request.id,
      sendNotification: async (n: Message) => void call.stream(n),
      sendRequest: () => Promise.reject(new Error("a 2026-07-28 request is asked through input_required")),
      _meta: isObject(request.params["_meta"]) ? request.params["_meta"] : {},
    } as unknown as RequestExtra;
    exchange.run(this.handlers.request(front, { method: request.method, params: onward(request.params) }, extra));
    return exchange.next().finally(() => signal.removeEventListener("abort", abort));
  }

  /** A request that may take several rounds: a retry answers its parked call; a new request starts one. */
  private async rounds(call: StatelessCall): Promise<StatelessAnswer> {
    const { request, principal } = call;
    const { id, method, params } = request;
    const digest = paramsDigest(params);
    if (digest === undefined)
      return failure(id, refusal(200, Code.InvalidParams, "Invalid params: nested deeper than the gateway can read"));
    if (params["requestState"] !== undefined) {
      const resumed = await this.resume(call, digest);
      if (resumed !== undefined) return resumed;
    }
    const exchange = new Exchange(method, digest, principal, (x) => this.parked.delete(x.id));
    const front = new RequestFront(
      exchange,
      request.envelope.clientCapabilities,
      request.envelope.logLevel,
      call.stream,
    );
    this.parked.set(exchange.id, exchange);
    return this.settle(id, method, await this.run(front, call, call.closed), exchange);
  }

  /**
   * A retry: its state checked (minted here or by a replica sharing the key, unexpired, for this principal, method and
   * params, for the round now open), its responses given to the parked call, and the call's next step answered. A
   * state another replica minted is handed on to it when it is a known peer. One whose call is gone (or whose
   * replica cannot be reached) starts the request again (undefined): the client's responses are not used, and the
   * server's questions come again.
   */
  private async resume(call: StatelessCall, digest: string): Promise<StatelessAnswer | undefined> {
    const { id, method, params } = call.request;
    const state = params["requestState"];
    const bad = (why: string) =>
      failure(id, refusal(200, Code.InvalidParams, `Invalid params: requestState refused: ${why}`));
    if (typeof state !== "string") return bad("it is not a string");
    const claims = this.settings.codec.open(state);
    if (typeof claims === "string") return bad(claims);
    if (claims.principal !== call.principal) return bad("it was given to another client");
    if (claims.method !== method || claims.digest !== digest)
      return bad("the retry's method or params differ from the request's");
    const owner = this.settings.peers.get(claims.replica);
    if (owner !== undefined && !call.forwarded) return { status: 0, message: {}, forward: owner };
    const exchange = this.parked.get(claims.park);
    if (claims.replica !== this.settings.codec.replica || exchange === undefined) return undefined;
    if (claims.round !== exchange.round || exchange.answered >= claims.round)
      return bad("it was used already (a requestState is answered once)");
    exchange.answered = claims.round;
    exchange.unpark();
    exchange.answer(params["inputResponses"]);
    const abort = () => exchange.cancel("the client closed its stream");
    call.closed.addEventListener("abort", abort, { once: true });
    const step = await exchange.next();
    call.closed.removeEventListener("abort", abort);
    return this.settle(id, method, step, exchange);
  }

  /** The answer a step makes: a complete result, an error, or `input_required` with a fresh state. */
  private settle(id: string | number, method: string, step: Step, exchange?: Exchange): StatelessAnswer {
    if (step.kind === "done") return complete(id, method, step.result);
    if (step.kind === "failed") return failure(id, refusalOf(step.error));
    if (exchange === undefined)
      return failure(id, refusal(200, Code.InternalError, `${method} cannot ask the client anything`));
    exchange.round++;
    const requestState = this.settings.codec.mint({
      park: exchange.id,
      principal: exchange.principal,
      method,
      digest: exchange.digest,
      round: exchange.round,
      exp: Date.now() + this.settings.parkMs,
    });
    exchange.park(this.settings.parkMs);
    const result = { resultType: "input_required", inputRequests: step.requests, requestState };
    return { status: 200, message: { jsonrpc: "2.0", id, result } };
  }
}
