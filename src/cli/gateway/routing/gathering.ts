/**
 * What the routes of resources, prompts, completion and logging share: the servers that offer a feature, one list
 * gathered from all of them (all pages, within the listing bounds and one call budget per server), and the gateway's
 * refusal of a cursor (it serves each list as one page).
 */

import { errorMessage } from "../../../engine/errors.js";
import { isObject } from "../../../engine/json/json.js";
import { oneLine } from "../../args.js";
import type { RequestExtra, Sdk } from "../sdk.js";
import type { Upstream } from "../upstream/upstream.js";
import type { HiddenTextScreen } from "../policy/hidden-text.js";

/** What every route is given. */
export interface RouteContext {
  readonly sdk: Sdk;
  readonly servers: () => readonly Upstream[];
  /** The budget of one call to a server (and of one whole listing). */
  readonly timeoutMs: number;
  /** Reports a line on the gateway's stderr. */
  readonly warn: (text: string) => void;
  /** Hidden text in prompts and resources (`--hidden-text`): a withheld answer is a JSON-RPC error. */
  readonly screen: HiddenTextScreen;
}

/** One server's items of a gathered list. */
export interface Gathered {
  readonly up: Upstream;
  readonly items: unknown[];
}

/** The servers up that declare `feature`. */
export function offering(context: RouteContext, feature: string): Upstream[] {
  return context.servers().filter((up) => up.state === "up" && up.capabilities[feature] !== undefined);
}

/** An `McpError` with `code` and `message` (the SDK's, so the client gets it as a JSON-RPC error). */
export function routeError(context: RouteContext, code: number, message: string): Error {
  return new context.sdk.McpError(code, message);
}

/** Refuses a request that carries a cursor: the gateway gave none. */
export function noCursor(context: RouteContext, params: unknown, method: string): void {
  if (isObject(params) && params["cursor"] !== undefined) {
    const { InvalidParams } = context.sdk.types.ErrorCode;
    throw routeError(context, InvalidParams, `${method}: the gateway serves one page; it gave no cursor`);
  }
}

/** One list gathered from every server offering `feature`; a server that fails is left out and reported. */
export function gather(
  context: RouteContext,
  request: { feature: string; method: string; key: string },
  extra: RequestExtra,
): Promise<Gathered[]> {
  const { feature, method, key } = request;
  return Promise.all(
    offering(context, feature).map(async (up) => {
      try {
        return { up, items: await up.list(method, key, context.timeoutMs, extra.signal) };
      } catch (e) {
        context.warn(`${up.name}: ${method} failed: ${oneLine(errorMessage(e))}`);
        return { up, items: [] as unknown[] };
      }
    }),
  );
}
