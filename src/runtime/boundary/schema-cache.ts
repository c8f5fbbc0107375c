/**
 * A content-addressed cache of compiled schemas for catalog scale: structurally identical tool schemas
 * (same JSON, any key order, same options) compile once. Bounded (least recently used goes first) and
 * clearable; it holds compiled validators only, never arguments.
 */

import type { Validator } from "../../engine/validator.js";

/** Cache keys are canonical JSON text (object keys sorted); the engine's uniqueItems shares the function. */
export { canonicalJson } from "../../engine/json/json.js";

/** A bounded, clearable cache of compiled schemas, keyed by their canonical JSON and the compile options. */
export class SchemaCache {
  private readonly entries = new Map<string, Validator>();
  /** Look-ups that found a compiled schema. */
  hits = 0;
  /** Look-ups that did not. */
  misses = 0;

  /**
   * An empty cache; throws a `TypeError` when `maxEntries` is not a non-negative integer (0 caches nothing).
   */
  constructor(
    /** The most compiled schemas kept (default 1,000); the least recently used goes first. */
    readonly maxEntries = 1_000,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0)
      throw new TypeError("maxEntries must be a non-negative integer");
  }

  /** How many compiled schemas are cached. */
  get size(): number {
    return this.entries.size;
  }

  /** @internal */
  get(key: string): Validator | undefined {
    const found = this.entries.get(key);
    if (found === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  /** @internal */
  set(key: string, validator: Validator): void {
    if (this.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, validator);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Drops every entry and resets the counters. */
  clear(): void {
    this.entries.clear();
    this.hits = 0;
    this.misses = 0;
  }
}
