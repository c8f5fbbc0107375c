/**
 * Resources, prompts, completion and logging, carried by server (docs/guide/gateway.md §What is carried): lists are
 * gathered from every server that offers the feature (all pages, served as one); a resource is read from the server
 * that listed it or whose URI template matches it; prompt names are namespaced like tools (`<server>__<prompt>`);
 * `logging/setLevel` goes to every server that logs (and to those that start later).
 */

import { errorMessage } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { oneLine } from "../../args.js";
import type { Names } from "../policy/catalog.js";
import { hopOptions, onwardParams } from "../forward.js";
import type { RequestExtra, Sdk } from "../sdk.js";
import type { Upstream } from "../upstream/upstream.js";
import { matchTemplate, overlap, parseTemplate, specificity, type UriTemplate, type Work } from "../uri-template.js";

/** MCP 2025-11-25 `server/resources.mdx` §Error Handling: resource not found. */
const RESOURCE_NOT_FOUND = -32002;
/** Steps one resolution of a URI against every template may take (see uri-template.ts), and one overlap survey. */
const MATCH_BUDGET = 4_000_000;
/** The longest URI template kept; a longer one is left out (reported). */
const MAX_TEMPLATE_LENGTH = 2_048;

interface Template {
  readonly server: string;
  readonly template: UriTemplate;
}

export class Routes {
  /** URI → the server that listed it. */
  private resources = new Map<string, string>();
  /** The servers' URI templates, in listing order. */
  private templates: Template[] = [];
  /** The overlaps already reported. */
  private overlaps = new Set<string>();
  private level: string | undefined;

  constructor(
    private readonly sdk: Sdk,
    private readonly servers: () => readonly Upstream[],
    private readonly timeoutMs: number,
    private readonly warn: (text: string) => void,
    private readonly names: Names,
  ) {}

  private error(code: number, message: string): Error {
    return new this.sdk.McpError(code, message);
  }

  private offering(feature: string): Upstream[] {
    return this.servers().filter((up) => up.state === "up" && up.capabilities[feature] !== undefined);
  }

  /** Every page of a list from one server, within the listing bounds and one call budget for the whole listing. */
  private listAll(up: Upstream, method: string, key: string, extra: RequestExtra): Promise<unknown[]> {
    return up.list(method, key, this.timeoutMs, extra.signal);
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
    const templates: Template[] = [];
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
        all.push(item);
        const parsed = template.length > MAX_TEMPLATE_LENGTH ? undefined : parseTemplate(template);
        if (parsed === undefined) {
          this.report(
            `${up.name}: the URI template ${JSON.stringify(template.slice(0, 80))} is ` +
              (template.length > MAX_TEMPLATE_LENGTH
                ? `longer than ${MAX_TEMPLATE_LENGTH} characters`
                : "not an RFC 6570 template") +
              "; no read is routed by it",
          );
          continue;
        }
        templates.push({ server: up.name, template: parsed });
      }
    }
    this.templates = templates;
    this.surveyOverlaps(templates);
    return { resourceTemplates: all };
  }

  /** Says a thing once (the same overlap or template is met at every listing). */
  private report(text: string): void {
    if (this.overlaps.has(text)) return;
    this.overlaps.add(text);
    this.warn(text);
  }

  /** Reports templates of different servers that can match one URI, and which of them a read of it goes to. */
  private surveyOverlaps(templates: readonly Template[]): void {
    const work: Work = { work: 0, limit: MATCH_BUDGET };
    for (let i = 0; i < templates.length; i++) {
      for (let j = i + 1; j < templates.length; j++) {
        const a = templates[i] as Template;
        const b = templates[j] as Template;
        if (a.server === b.server || !overlap(a.template, b.template, work)) continue;
        const order = specificity(a.template, b.template);
        const [wins, loses] = order >= 0 ? [a, b] : [b, a];
        const what =
          `the URI templates ${a.template.template} (${a.server}) and ` +
          `${b.template.template} (${b.server}) overlap`;
        this.report(
          order === 0
            ? `${what}: a read both match is refused as ambiguous`
            : `${what}: a read both match goes to ${wins.server}, the more specific (${loses.server}'s is wider)`,
        );
      }
    }
    if (work.work > MATCH_BUDGET)
      this.report(`the URI templates' overlaps were not all checked (more than ${MATCH_BUDGET} steps)`);
  }

  /** Lists every server's templates once they are up, to report overlaps at start-up. */
  async survey(): Promise<void> {
    const extra = { signal: new AbortController().signal } as RequestExtra;
    await this.listTemplates({}, extra).catch(() => undefined);
  }

  /**
   * The server whose template matches `uri` most specifically; `undefined` when none does. Two servers' templates that
   * match equally specifically make the read ambiguous: it is refused.
   */
  private templateOwner(uri: string): string | undefined {
    const exact = this.templates.find((t) => t.template.template === uri);
    if (exact !== undefined) return exact.server;
    const work: Work = { work: 0, limit: MATCH_BUDGET };
    let best: Template[] = [];
    for (const t of this.templates) {
      if (!matchTemplate(t.template, uri, work)) continue;
      const order = best.length === 0 ? 1 : specificity(t.template, (best[0] as Template).template);
      if (order > 0) best = [t];
      else if (order === 0) best.push(t);
    }
    if (work.work > MATCH_BUDGET) {
      this.warn(`a resource URI of ${uri.length} characters was not matched: more than ${MATCH_BUDGET} steps`);
      throw this.error(RESOURCE_NOT_FOUND, `Resource not found: the URI is too long to match against the templates`);
    }
    const servers = [...new Set(best.map((t) => t.server))];
    if (servers.length > 1) {
      const which = best.map((t) => `${t.template.template} (${t.server})`).join(", ");
      this.warn(`a read of ${uri.slice(0, 200)} was refused: it matches ${which} equally`);
      throw this.error(
        this.sdk.types.ErrorCode.InvalidParams,
        `the resource URI matches the templates of several servers equally (${servers.join(", ")}); ` +
          "the gateway does not guess",
      );
    }
    return servers[0];
  }

  /** The server a resource URI (or URI template) belongs to. */
  private async ownerOf(uri: unknown, extra: RequestExtra): Promise<Upstream> {
    if (typeof uri !== "string") throw this.error(this.sdk.types.ErrorCode.InvalidParams, "the request has no uri");
    const offering = this.offering("resources");
    const find = () => this.resources.get(uri) ?? this.templateOwner(uri);
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
          all.push({ ...item, name: this.names.listed(up.name, item["name"]) });
      }
    }
    return { prompts: all };
  }

  /** A namespaced prompt name: its server and the name the server knows it by. */
  private prompt(name: unknown): { up: Upstream; name: string } {
    const named = typeof name === "string" ? this.names.split(name) : undefined;
    const up = named === undefined ? undefined : this.offering("prompts").find((u) => u.name === named.server);
    if (named !== undefined && up !== undefined) return { up, name: named.name };
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
