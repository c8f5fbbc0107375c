/**
 * Resources carried by server (docs/guide/gateway.md §What is carried): `resources/list` and
 * `resources/templates/list` gathered from every server that offers resources (all pages, served as one); a resource
 * read, subscribed to or completed at the server that listed it, or whose URI template matches it (templates.ts).
 */

import { isObject } from "../../../engine/json/json.js";
import { hopOptions, onwardParams } from "../forward.js";
import type { RequestExtra } from "../sdk.js";
import type { Upstream } from "../upstream/upstream.js";
import { gather, noCursor, offering, routeError, type RouteContext } from "./gathering.js";
import { RESOURCE_NOT_FOUND, Templates } from "./templates.js";

const RESOURCES = { feature: "resources", method: "resources/list", key: "resources" };
const TEMPLATES = { feature: "resources", method: "resources/templates/list", key: "resourceTemplates" };

export class Resources {
  /** URI → the server that listed it. */
  private listed = new Map<string, string>();
  private readonly templates: Templates;

  constructor(private readonly context: RouteContext) {
    this.templates = new Templates(context);
  }

  async list(params: unknown, extra: RequestExtra): Promise<unknown> {
    noCursor(this.context, params, RESOURCES.method);
    const listed = new Map<string, string>();
    const all: unknown[] = [];
    for (const { up, items } of await gather(this.context, RESOURCES, extra)) {
      for (const item of items) {
        const uri = isObject(item) ? item["uri"] : undefined;
        if (typeof uri !== "string") continue;
        const first = listed.get(uri);
        if (first !== undefined) {
          this.context.warn(`${up.name} lists a resource ${first} lists too; it is read from ${first}`);
          continue;
        }
        listed.set(uri, up.name);
        all.push(item);
      }
    }
    this.listed = listed;
    return { resources: all };
  }

  async listTemplates(params: unknown, extra: RequestExtra): Promise<unknown> {
    noCursor(this.context, params, TEMPLATES.method);
    const all: unknown[] = [];
    const found: { server: string; template: string }[] = [];
    for (const { up, items } of await gather(this.context, TEMPLATES, extra)) {
      for (const item of items) {
        const template = isObject(item) ? item["uriTemplate"] : undefined;
        if (typeof template !== "string") continue;
        all.push(item);
        found.push({ server: up.name, template });
      }
    }
    this.templates.replace(found);
    return { resourceTemplates: all };
  }

  /** Lists every server's templates once they are up, to report overlaps at start-up. */
  async survey(): Promise<void> {
    const extra = { signal: new AbortController().signal } as RequestExtra;
    await this.listTemplates({}, extra).catch(() => undefined);
  }

  /** The server a resource URI (or URI template) belongs to. */
  async ownerOf(uri: unknown, extra: RequestExtra): Promise<Upstream> {
    const { context } = this;
    if (typeof uri !== "string")
      throw routeError(context, context.sdk.types.ErrorCode.InvalidParams, "the request has no uri");
    const servers = offering(context, "resources");
    const find = () => this.listed.get(uri) ?? this.templates.owner(uri);
    let server = find();
    if (server === undefined && servers.length > 1) {
      // Not listed yet (or listed since): list again before giving up.
      await this.list({}, extra);
      await this.listTemplates({}, extra);
      server = find();
    }
    const owner =
      server === undefined ? (servers.length === 1 ? servers[0] : undefined) : servers.find((up) => up.name === server);
    if (owner === undefined) throw routeError(context, RESOURCE_NOT_FOUND, "Resource not found");
    return owner;
  }

  /** `resources/read`, `resources/subscribe` and `resources/unsubscribe`: to the resource's server, as sent. */
  async carry(method: string, params: unknown, extra: RequestExtra): Promise<unknown> {
    const uri = isObject(params) ? params["uri"] : undefined;
    const owner = await this.ownerOf(uri, extra);
    const answer = await owner.request(method, onwardParams(params), hopOptions(params, extra, this.context.timeoutMs));
    return method === "resources/read" ? this.context.screen.answer(owner.name, method, String(uri), answer) : answer;
  }
}
