/**
 * One request carried to the side that answers it, with what MCP ties to it (MCP 2025-11-25 `basic/utilities`):
 * the requester's progress token is replaced by the SDK's own on the next hop and its progress notifications are
 * sent back under the requester's token; the requester's cancellation (`notifications/cancelled`, which aborts the
 * handler's signal) cancels the next hop's request. Nothing else in the params is changed.
 */

import { isObject } from "../../engine/json/json.js";
import type { RequestExtra } from "./sdk.js";

/** The params to send on: the requester's `_meta.progressToken` removed (the SDK adds its own when asked for). */
export function onwardParams(params: unknown): Record<string, unknown> | undefined {
  if (!isObject(params)) return undefined;
  const meta = params["_meta"];
  if (!isObject(meta) || !Object.hasOwn(meta, "progressToken")) return params;
  const { progressToken: _token, ...rest } = meta;
  const onward: Record<string, unknown> = { ...params };
  if (Object.keys(rest).length === 0) delete onward["_meta"];
  else onward["_meta"] = rest;
  return onward;
}

/** The requester's progress token, when it asked for progress. */
function progressToken(params: unknown): string | number | undefined {
  const meta = isObject(params) ? params["_meta"] : undefined;
  const token = isObject(meta) ? meta["progressToken"] : undefined;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** The options that tie the next hop's request to the requester's: its signal, and its progress sent back. */
export function hopOptions(
  params: unknown,
  extra: RequestExtra,
  timeout: number,
): { timeout: number; signal: AbortSignal; onprogress?: (progress: Record<string, unknown>) => void } {
  const token = progressToken(params);
  if (token === undefined) return { timeout, signal: extra.signal };
  return {
    timeout,
    signal: extra.signal,
    onprogress: (progress) => {
      extra
        .sendNotification({ method: "notifications/progress", params: { ...progress, progressToken: token } } as never)
        .catch(() => undefined);
    },
  };
}
