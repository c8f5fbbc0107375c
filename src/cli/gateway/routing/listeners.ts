/**
 * MCP 2026-07-28 `subscriptions/listen` streams (`basic/patterns/subscriptions.mdx`): each is a client the gateway's
 * notifications go to, granted the list changes it asked for that the gateway carries (`toolsListChanged`,
 * `promptsListChanged`, `resourcesListChanged`), acknowledged first, every message stamped with the stream's
 * `subscriptionId` (the listen request's id). At most `max` are held at once.
 */

import { isObject } from "../../../engine/json/json.js";
import { Code, META, refusal, type ModernRequest } from "../transport/stateless.js";
import { type StatelessAnswer } from "../transport/stateless-call.js";
import type { Front, Fronts } from "./fronts.js";
import type { Message } from "../sdk.js";

/** Listen filters the gateway can serve, and the notification each grants. */
const LISTEN = new Map([
  ["toolsListChanged", "notifications/tools/list_changed"],
  ["promptsListChanged", "notifications/prompts/list_changed"],
  ["resourcesListChanged", "notifications/resources/list_changed"],
]);

/** A listen stream opened: its acknowledgement, and how it ends. */
export interface Listening {
  readonly acknowledged: Message;
  readonly leave: () => void;
}

export class Listeners {
  private open = 0;

  constructor(
    private readonly fronts: Fronts,
    private readonly max: number,
  ) {}

  /** A stream for `request`, whose messages `send` writes; or the refusal when `max` are open. */
  listen(request: ModernRequest, send: (message: Message) => boolean): Listening | StatelessAnswer {
    const { id, params } = request;
    if (this.open >= this.max) {
      const r = refusal(
        503,
        Code.InternalError,
        `too many subscriptions/listen streams (${this.max}); close one first`,
      );
      return { status: r.status, message: { jsonrpc: "2.0", id, error: { code: r.code, message: r.message } } };
    }
    const asked = isObject(params["notifications"]) ? params["notifications"] : {};
    const granted = new Set<string>();
    for (const [filter, method] of LISTEN) if (asked[filter] === true) granted.add(method);
    const stamp = { [META.subscriptionId]: id };
    const front: Front = {
      attached: Date.now(),
      initialized: Promise.resolve(),
      closed: false,
      capabilities: () => ({}),
      ask: () => Promise.reject(new Error("a 2026-07-28 listen stream cannot be asked anything")),
      notify: async (n) => {
        if (!granted.has(n.method)) return;
        const p = isObject(n.params) ? n.params : {};
        const meta = isObject(p["_meta"]) ? p["_meta"] : {};
        send({ method: n.method, params: { ...p, _meta: { ...meta, ...stamp } } });
      },
      close: async () => undefined,
    };
    this.open++;
    const leaveFronts = this.fronts.join(front);
    const filter = Object.fromEntries([...LISTEN].filter(([, m]) => granted.has(m)).map(([f]) => [f, true]));
    const acknowledged = {
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: filter, _meta: stamp },
    };
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      this.open--;
      leaveFronts();
    };
    return { acknowledged, leave };
  }
}
