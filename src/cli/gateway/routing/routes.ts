/**
 * Resources, prompts, completion and logging, carried by server (docs/guide/gateway.md §What is carried): resources
 * and their templates are resources.ts's (a read goes to the server that listed the resource or whose template matches
 * it); prompt lists are gathered from every server that offers prompts (all pages, served as one) and their names
 * namespaced like tools (`<server>__<prompt>`); `completion/complete` goes to the prompt's or the resource's server;
 * `logging/setLevel` goes to every server that logs (and to those that start later).
 */

import { errorMessage } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { oneLine } from "../../args.js";
import type { Names } from "../policy/names.js";
import { hopOptions, onwardParams } from "../forward.js";
import type { RequestExtra } from "../sdk.js";
import type { Upstream } from "../upstream/upstream.js";
import { gather, noCursor, offering, routeError, type RouteContext } from "./gathering.js";
import { Resources } from "./resources.js";

const PROMPTS = { feature: "prompts", method: "prompts/list", key: "prompts" };

export class Routes {
  private readonly resources: Resources;
  private level: string | undefined;

  constructor(
    private readonly context: RouteContext,
    private readonly names: Names,
  ) {
    this.resources = new Resources(context);
  }

  private invalid(message: string): Error {
    return routeError(this.context, this.context.sdk.types.ErrorCode.InvalidParams, message);
  }

  listResources(params: unknown, extra: RequestExtra): Promise<unknown> {
    return this.resources.list(params, extra);
  }

  listTemplates(params: unknown, extra: RequestExtra): Promise<unknown> {
    return this.resources.listTemplates(params, extra);
  }

  /** Lists every server's templates once they are up, to report overlaps at start-up. */
  survey(): Promise<void> {
    return this.resources.survey();
  }

  /** `resources/read`, `resources/subscribe` and `resources/unsubscribe`: to the resource's server, as sent. */
  resource(method: string, params: unknown, extra: RequestExtra): Promise<unknown> {
    return this.resources.carry(method, params, extra);
  }

  async listPrompts(params: unknown, extra: RequestExtra): Promise<unknown> {
    noCursor(this.context, params, PROMPTS.method);
    const all: unknown[] = [];
    for (const { up, items } of await gather(this.context, PROMPTS, extra)) {
      for (const item of items) {
        if (isObject(item) && typeof item["name"] === "string")
          all.push({ ...item, name: this.names.listed(up.name, item["name"]) });
      }
    }
    return { prompts: all };
  }

  /** A namespaced prompt name: its server and the name the server knows it by. */
  private prompt(name: unknown): { up: Upstream; name: string } {
    const named = typeof name === "string" ? this.names.split(name) : undefined;
    const up = named === undefined ? undefined : offering(this.context, "prompts").find((u) => u.name === named.server);
    if (named !== undefined && up !== undefined) return { up, name: named.name };
    throw this.invalid(`there is no prompt named ${JSON.stringify(name)}`);
  }

  async getPrompt(params: unknown, extra: RequestExtra): Promise<unknown> {
    const { up, name } = this.prompt(isObject(params) ? params["name"] : undefined);
    const options = hopOptions(params, extra, this.context.timeoutMs);
    const answer = await up.request("prompts/get", { ...onwardParams(params), name }, options);
    return this.context.screen.answer(up.name, "prompts/get", name, answer);
  }

  /** `completion/complete`: a prompt argument to the prompt's server, a template argument to the template's. */
  async complete(params: unknown, extra: RequestExtra): Promise<unknown> {
    const ref = isObject(params) ? params["ref"] : undefined;
    const options = hopOptions(params, extra, this.context.timeoutMs);
    if (isObject(ref) && ref["type"] === "ref/prompt") {
      const { up, name } = this.prompt(ref["name"]);
      return up.request("completion/complete", { ...onwardParams(params), ref: { ...ref, name } }, options);
    }
    if (isObject(ref) && ref["type"] === "ref/resource") {
      const owner = await this.resources.ownerOf(ref["uri"], extra);
      return owner.request("completion/complete", onwardParams(params), options);
    }
    throw this.invalid("completion/complete needs a ref/prompt or ref/resource");
  }

  /** `logging/setLevel`: every server that logs; remembered for servers that start later. */
  async setLevel(params: unknown, extra: RequestExtra): Promise<unknown> {
    const level = isObject(params) ? params["level"] : undefined;
    if (typeof level !== "string") throw this.invalid("logging/setLevel needs a level");
    this.level = level;
    const { timeoutMs, warn } = this.context;
    await Promise.all(
      offering(this.context, "logging").map((up) =>
        up.request("logging/setLevel", { level }, { timeout: timeoutMs, signal: extra.signal }).catch((e: unknown) => {
          warn(`${up.name}: logging/setLevel failed: ${oneLine(errorMessage(e))}`);
        }),
      ),
    );
    return {};
  }

  /** A server that just started gets the level the client set. */
  applyLevel(up: Upstream): void {
    if (this.level === undefined || up.capabilities["logging"] === undefined) return;
    up.request("logging/setLevel", { level: this.level }, { timeout: this.context.timeoutMs }).catch(() => undefined);
  }
}
