/**
 * One listing (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`) gathered page by page under
 * one total bound: pages, items, bytes (each page's items as JSON, `jsonSize`) and one deadline for the whole
 * listing, so a server that answers with many pages (each under `--max-message-bytes`) cannot make the gateway keep
 * them all, nor wait for each with a fresh timeout. A bound hit is an error naming the bound and its flag.
 */

import { isObject } from "../../../engine/json/json.js";

export interface ListingBounds {
  /** Items in the whole listing (`--max-listing-items`). */
  readonly maxItems: number;
  /** Bytes of the whole listing's items as JSON (`--max-listing-bytes`). */
  readonly maxBytes: number;
  /** Pages in the whole listing. */
  readonly maxPages: number;
}

/** Pages of one listing a server may return. */
export const MAX_PAGES = 100;

/** A listing past one of its bounds: the server misbehaves (it is isolated). */
export class ListingBound extends Error {}

/** What one page request needs: the params, and the time left for it. */
export type PageRequest = (params: Record<string, unknown>, options: { timeout: number }) => Promise<unknown>;

/** Every page of `method` (the items under `key`), within `bounds` and `deadlineMs` for the whole listing. */
export async function listAll(
  request: PageRequest,
  method: string,
  key: string,
  bounds: ListingBounds,
  deadlineMs: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  const end = Date.now() + deadlineMs;
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= bounds.maxPages) throw new ListingBound(`its ${method} has more than ${bounds.maxPages} pages`);
    const left = end - Date.now();
    if (left <= 0) throw new ListingBound(`its ${method} took longer than ${deadlineMs} ms in all`);
    const result = await request(cursor === undefined ? {} : { cursor }, { timeout: left });
    const listed = isObject(result) ? result[key] : undefined;
    if (!Array.isArray(listed)) throw new Error(`its ${method} result has no ${key} array`);
    bytes += jsonSize(listed, bounds.maxBytes - bytes);
    if (bytes > bounds.maxBytes)
      throw new ListingBound(`its ${method} holds more than ${bounds.maxBytes} bytes (--max-listing-bytes)`);
    if (items.length + listed.length > bounds.maxItems)
      throw new ListingBound(`its ${method} holds more than ${bounds.maxItems} items (--max-listing-items)`);
    items.push(...listed);
    const next = isObject(result) ? result["nextCursor"] : undefined;
    if (next === undefined || next === null) return items;
    if (typeof next !== "string" || seen.has(next)) throw new Error(`its ${method} cursor repeats or is not a string`);
    seen.add(next);
    cursor = next;
  }
}

/**
 * The size of `value` (parsed JSON data) written as JSON, near enough for a bound: strings and keys by their UTF-8
 * bytes and quotes (escapes not counted), punctuation, scalars as written. Walked with a stack of its own, so a value
 * nested deeper than the call stack allows is measured too (admission refuses it with its pointer, not the listing);
 * the walk stops once the size is past `cap`.
 */
export function jsonSize(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= cap) {
    const next = stack.pop();
    if (typeof next === "string") size += Buffer.byteLength(next) + 2;
    else if (Array.isArray(next)) {
      size += 1 + Math.max(1, next.length);
      for (const item of next) stack.push(item);
    } else if (isObject(next)) {
      const keys = Object.keys(next);
      size += 1 + Math.max(1, keys.length);
      for (const key of keys) {
        size += Buffer.byteLength(key) + 3;
        stack.push(next[key]);
      }
    } else size += String(next).length;
  }
  return size;
}
