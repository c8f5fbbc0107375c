/**
 * Resources, prompts, completion and logging, carried by server (docs/guide/gateway.md §What is carried): lists are
 * gathered from every server that offers the feature (all pages, served as one); a resource is read from the server
 * that listed it or whose URI template matches it; prompt names are namespaced like tools (`<server>__<prompt>`);
 * `logging/setLevel` goes to every server that logs (and to those that start later).
 */

import { errorMessage } from "../../engine/errors.js";
import { isObject } from "../../engine/json/json.js";
import { oneLine } from "../args.js";
import { SEPARATOR } from "./catalog.js";
import { hopOptions, onwardParams } from "./forward.js";
import type { RequestExtra, Sdk } from "./sdk.js";
import type { Upstream } from "./upstream/upstream.js";

/** Pages of one list a server may return before it is taken for looping. */
const MAX_PAGES = 1_000;
/** MCP 2025-11-25 `server/resources.mdx` §Error Handling: resource not found. */
const RESOURCE_NOT_FOUND = -32002;

/** A URI template (RFC 6570) as a pattern: its literal parts exactly, each expression as any text. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^]*?")}$`, "u");
}

export class Routes {
  /** URI → the server that listed it. */
  private resources = new Map<string, string>();
  /** The servers' URI templates, in listing order. */
  private templates: { server: string; template: string; pattern: RegExp }[] = [];
  private level: string | undefined;

  constructor(
    private readonly sdk: Sdk,
    private readonly servers: () => readonly Upstream[],
    private readonly timeoutMs: number,
    private readonly warn: (text: string) => void,
  ) {}

  private error(code: number, message: string): Error {
    return new this.sdk.McpError(code, message);
  }

  private offering(feature: string): Upstream[] {
    return this.servers().filter((up) => up.state === "up" && up.capabilities[feature] !== undefined);
  }

  /** Every page of a list from one server. */
  private async listAll(up: Upstream, method: string, key: string, extra: RequestExtra): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await up.request(method, cursor === undefined ? {} : { cursor }, {
        timeout: this.timeoutMs,
        signal: extra.signal,
      });
      const listed = isObject(result) ? result[key] : undefined;
      if (!Array.isArray(listed)) throw new Error(`its ${method} result has no ${key} array`);
      items.push(...listed);
      const next = isObject(result) ? result["nextCursor"] : undefined;
      if (typeof next !== "string" || next === cursor) return items;
      cursor = next;
    }
    return items;
  }

  /** One list gathered from every server offering `feature`; a server that fails is left out and reported. */
  private async gather(feature: string, method: string, key: string, extra: RequestExtra) {
    const lists = await Promise.all(
      this.offering(feature).map(async (up) => {
        try {
          return { up, items: await this.listAll(up, method, key, extra) };
        } catch (e) {
          this.warn(`${up.name}: ${method} failed: ${oneLine(errorMessage(e))}`);
          return { up, items: [] as unknown[] };
        }
      }),
    );
    return lists;
  }

  private noCursor(params: unknown, method: string): void {
    if (isObject(params) && params["cursor"] !== undefined) {
      throw this.error(
        this.sdk.types.ErrorCode.InvalidParams,
        `${method}: the gateway serves one page; it gave no cursor`,
      );
    }
  }

  async listResources(params: unknown, extra: RequestExtra): Promise<unknown> {
    this.noCursor(params, "resources/list");
    const resources = new Map<string, string>();
    const all: unknown[] = [];
    for (const { up, items } of await this.gather("resources", "resources/list", "resources", extra)) {
      for (const item of items) {
        const uri = isObject(item) ? item["uri"] : undefined;
        if (typeof uri !== "string") continue;
        if (resources.has(uri)) {
          this.warn(
            `${up.name} lists a resource ${resources.get(uri)} lists too; it is read from ${resources.get(uri)}`,
          );
          continue;
        }
        resources.set(uri, up.name);
        all.push(item);
      }
    }
    this.resources = resources;
    return { resources: all };
  }

  async listTemplates(params: unknown, extra: RequestExtra): Promise<unknown> {
    this.noCursor(params, "resources/templates/list");
    const templates: { server: string; template: string; pattern: RegExp }[] = [];
    const all: unknown[] = [];
    for (const { up, items } of await this.gather(
      "resources",
      "resources/templates/list",
      "resourceTemplates",
      extra,
    )) {
      for (const item of items) {
        const template = isObject(item) ? item["uriTemplate"] : undefined;
        if (typeof template !== "string") continue;
        templates.push({ server: up.name, template, pattern: templatePattern(template) });
        all.push(item);
      }
    }
    this.templates = templates;
    return { resourceTemplates: all };
  }

  /** The server a resource URI (or URI template) belongs to. */
  private async ownerOf(uri: unknown, extra: RequestExtra): Promise<Upstream> {
    if (typeof uri !== "string") throw this.error(this.sdk.types.ErrorCode.InvalidParams, "the request has no uri");
    const offering = this.offering("resources");
    const find = () =>
      this.resources.get(uri) ??
      this.templates.find((t) => t.template === uri)?.server ??
      this.templates.find((t) => t.pattern.test(uri))?.server;
    let server = find();
    if (server === undefined && offering.length > 1) {
      // Not listed yet (or listed since): list again before giving up.
      await this.listResources({}, extra);
      await this.listTemplates({}, extra);
      server = find();
    }
    const owner =
      server === undefined
        ? offering.length === 1
          ? offering[0]
          : undefined
        : offering.find((up) => up.name === server);
    if (owner === undefined) throw this.error(RESOURCE_NOT_FOUND, "Resource not found");
    return owner;
  }

  /** `resources/read`, `resources/subscribe` and `resources/unsubscribe`: to the resource's server, as sent. */
  async resource(method: string, params: unknown, extra: RequestExtra): Promise<unknown> {
    const owner = await this.ownerOf(isObject(params) ? params["uri"] : undefined, extra);
    return owner.request(method, onwardParams(params), hopOptions(params, extra, this.timeoutMs));
  }

  async listPrompts(params: unknown, extra: RequestExtra): Promise<unknown> {
    this.noCursor(params, "prompts/list");
    const all: unknown[] = [];
    for (const { up, items } of await this.gather("prompts", "prompts/list", "prompts", extra)) {
      for (const item of items) {
        if (isObject(item) && typeof item["name"] === "string")
          all.push({ ...item, name: up.name + SEPARATOR + item["name"] });
      }
    }
    return { prompts: all };
  }

  /** A namespaced prompt name: its server and the name the server knows it by. */
  private prompt(name: unknown): { up: Upstream; name: string } {
    if (typeof name === "string") {
      for (const up of this.offering("prompts")) {
        const prefix = up.name + SEPARATOR;
        if (name.startsWith(prefix)) return { up, name: name.slice(prefix.length) };
      }
    }
    throw this.error(this.sdk.types.ErrorCode.InvalidParams, `there is no prompt named ${JSON.stringify(name)}`);
  }

  async getPrompt(params: unknown, extra: RequestExtra): Promise<unknown> {
    const { up, name } = this.prompt(isObject(params) ? params["name"] : undefined);
    return up.request("prompts/get", { ...onwardParams(params), name }, hopOptions(params, extra, this.timeoutMs));
  }

  /** `completion/complete`: a prompt argument to the prompt's server, a template argument to the template's. */
  async complete(params: unknown, extra: RequestExtra): Promise<unknown> {
    const ref = isObject(params) ? params["ref"] : undefined;
    const options = hopOptions(params, extra, this.timeoutMs);
    if (isObject(ref) && ref["type"] === "ref/prompt") {
      const { up, name } = this.prompt(ref["name"]);
      return up.request("completion/complete", { ...onwardParams(params), ref: { ...ref, name } }, options);
    }
    if (isObject(ref) && ref["type"] === "ref/resource") {
      const owner = await this.ownerOf(ref["uri"], extra);
      return owner.request("completion/complete", onwardParams(params), options);
    }
    throw this.error(this.sdk.types.ErrorCode.InvalidParams, "completion/complete needs a ref/prompt or ref/resource");
  }

  /** `logging/setLevel`: every server that logs; remembered for servers that start later. */
  async setLevel(params: unknown, extra: RequestExtra): Promise<unknown> {
    const level = isObject(params) ? params["level"] : undefined;
    if (typeof level !== "string")
      throw this.error(this.sdk.types.ErrorCode.InvalidParams, "logging/setLevel needs a level");
    this.level = level;
    await Promise.all(
      this.offering("logging").map((up) =>
        up
          .request("logging/setLevel", { level }, { timeout: this.timeoutMs, signal: extra.signal })
          .catch((e: unknown) => {
            this.warn(`${up.name}: logging/setLevel failed: ${oneLine(errorMessage(e))}`);
          }),
      ),
    );
    return {};
  }

  /** A server that just started gets the level the client set. */
  applyLevel(up: Upstream): void {
    if (this.level === undefined || up.capabilities["logging"] === undefined) return;
    up.request("logging/setLevel", { level: this.level }, { timeout: this.timeoutMs }).catch(() => undefined);
  }
}
