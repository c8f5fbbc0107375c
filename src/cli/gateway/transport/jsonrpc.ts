/**
 * Whether a parsed line is a JSON-RPC message MCP accepts: the same judgement as the MCP SDK 1.x's
 * `JSONRPCMessageSchema` (a request, a notification, a result or an error, each with no other member; ids strings or
 * integers; `params`, `result` and `_meta` objects; a progress token a string or an integer; a related task's id a
 * string), made by hand because it runs on every line both ways and the schema's union costs more than the rest of a
 * small message's handling. test/cli/gateway/jsonrpc.test.ts holds it to the SDK's schema.
 */

import { isObject } from "../../../engine/json/json.js";

/** The `_meta` member that ties a message to a task (the tasks extension). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

function isId(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/** `_meta` of a request's params, a notification's params or a result: an object, its two known members typed. */
function isMeta(meta: unknown): boolean {
  if (!isObject(meta)) return false;
  if (Object.hasOwn(meta, "progressToken") && !isId(meta["progressToken"])) return false;
  if (!Object.hasOwn(meta, RELATED_TASK)) return true;
  const task = meta[RELATED_TASK];
  return isObject(task) && typeof task["taskId"] === "string";
}

/** `params` or `result`: an object whose `_meta`, when present, is one. */
function isCarrier(value: unknown): boolean {
  return isObject(value) && (!Object.hasOwn(value, "_meta") || isMeta(value["_meta"]));
}

/** Each own member of `message` is one of `allowed`. */
function onlyMembers(message: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key of Object.keys(message)) if (!allowed.includes(key)) return false;
  return true;
}

const REQUEST = ["jsonrpc", "id", "method", "params"];
const NOTIFICATION = ["jsonrpc", "method", "params"];
const RESULT = ["jsonrpc", "id", "result"];
const ERROR = ["jsonrpc", "id", "error"];

function isError(error: unknown): boolean {
  return isObject(error) && Number.isSafeInteger(error["code"]) && typeof error["message"] === "string";
}

export function isJsonRpcMessage(value: unknown): boolean {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return false;
  const hasId = Object.hasOwn(value, "id");
  if (hasId && !isId(value["id"])) return false;
  if (Object.hasOwn(value, "method")) {
    if (typeof value["method"] !== "string") return false;
    if (Object.hasOwn(value, "params") && !isCarrier(value["params"])) return false;
    return onlyMembers(value, hasId ? REQUEST : NOTIFICATION);
  }
  if (Object.hasOwn(value, "result")) return hasId && isCarrier(value["result"]) && onlyMembers(value, RESULT);
  return Object.hasOwn(value, "error") && isError(value["error"]) && onlyMembers(value, ERROR);
}
