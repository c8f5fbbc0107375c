/**
 * One listing (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`) gathered page by page under
 * one total bound: pages, items, bytes (each page's items as JSON) and one deadline for the whole listing, so a server
 * that answers with many pages (each under `--max-message-bytes`) cannot make the gateway keep them all, nor wait
 * for each with a fresh timeout. A bound hit is an error naming the bound and its flag.
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
    let text: string | undefined;
    try {
      text = JSON.stringify(listed);
    } catch {
      text = undefined;
    }
    if (text === undefined) throw new ListingBound(`its ${method} result cannot be written as JSON`);
    bytes += Buffer.byteLength(text);
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
