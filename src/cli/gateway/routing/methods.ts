/**
 * What a client may ask the gateway, one handler per method: the tools from the catalog, a tool call through
 * `Execution.invoke` (calls.ts), resources, prompts, completion and logging carried by server (routes.ts). A method
 * not in the table is not carried; a task-augmented request is refused; every request waits for the first catalog.
 */

import { isObject } from "../../../engine/json/json.js";
import type { GatewayCatalog } from "../policy/catalog.js";
import type { RequestExtra, Sdk, Message } from "../sdk.js";
import type { Upstream } from "../upstream/upstream.js";
import { audited, type Calls } from "./calls.js";
import type { Audit } from "../audit.js";
import type { Front, FrontHandlers } from "./fronts.js";
import type { Routes } from "./routes.js";
import type { RunningRequests } from "./running.js";

/** One request of a client, as its handler is given it. */
interface ClientRequest {
  readonly front: Front;
  readonly method: string;
  readonly params: unknown;
  readonly extra: RequestExtra;
}

type Handler = (request: ClientRequest) => Promise<unknown> | unknown;

export interface MethodParts {
  readonly sdk: Sdk;
  readonly catalog: GatewayCatalog;
  readonly calls: Calls;
  readonly routes: Routes;
  readonly audit: Audit;
  readonly upstreams: () => readonly Upstream[];
  /** Settles once the first catalog is admitted. */
  readonly ready: () => Promise<void>;
  /** The clients' requests running at once, bounded. */
  readonly running: RunningRequests;
}

/** The client methods the gateway answers, each to its handler. */
function methods(parts: MethodParts): ReadonlyMap<string, Handler> {
  const { sdk, catalog, calls, routes } = parts;
  const tool = audited(parts.audit, (call) => calls.call(call));
  const resource: Handler = ({ method, params, extra }) => routes.resource(method, params, extra);
  return new Map<string, Handler>([
    [
      "tools/list",
      ({ params }) => {
        if (isObject(params) && params["cursor"] !== undefined) {
          throw new sdk.McpError(
            sdk.types.ErrorCode.InvalidParams,
            "tools/list: the gateway serves one page; it gave no cursor",
          );
        }
        return { tools: catalog.tools };
      },
    ],
    ["tools/call", ({ front, params, extra }) => tool(calls.toolCall(front, params, extra))],
    ["resources/list", ({ params, extra }) => routes.listResources(params, extra)],
    ["resources/templates/list", ({ params, extra }) => routes.listTemplates(params, extra)],
    ["resources/read", resource],
    ["resources/subscribe", resource],
    ["resources/unsubscribe", resource],
    ["prompts/list", ({ params, extra }) => routes.listPrompts(params, extra)],
    ["prompts/get", ({ params, extra }) => routes.getPrompt(params, extra)],
    ["completion/complete", ({ params, extra }) => routes.complete(params, extra)],
    ["logging/setLevel", ({ params, extra }) => routes.setLevel(params, extra)],
  ]);
}

/** The handlers a front's requests and notifications go to. */
export function clientHandlers(parts: MethodParts): FrontHandlers {
  const { sdk } = parts;
  const table = methods(parts);
  return {
    async request(front: Front, request: Message, extra: RequestExtra): Promise<unknown> {
      const { method, params } = request;
      if (isObject(params) && params["task"] !== undefined) {
        throw new sdk.McpError(
          sdk.types.ErrorCode.InvalidParams,
          "task-augmented requests are not carried by the gateway",
        );
      }
      await parts.ready();
      const handler = table.get(method);
      if (handler === undefined)
        throw new sdk.McpError(
          sdk.types.ErrorCode.MethodNotFound,
          `Method not found: the gateway does not carry ${method}`,
        );
      // A tool call is counted, and refused at the bound with a tool error, by calls.ts.
      if (method === "tools/call") return handler({ front, method, params, extra });
      const { running } = parts;
      if (!running.enter())
        throw new sdk.McpError(
          sdk.types.ErrorCode.InternalError,
          `the gateway is already running ${running.max} requests, its most at once (--max-running-requests)`,
        );
      try {
        return await handler({ front, method, params, extra });
      } finally {
        running.leave();
      }
    },
    notification(notification: Message): void {
      if (notification.method === "notifications/roots/list_changed") {
        for (const up of parts.upstreams()) up.notify("notifications/roots/list_changed");
      }
    },
  };
}
