/**
 * A deep, frozen copy of JSON data, for host code: a host keyword or format checker is handed a copy of the instance
 * (and a host keyword of its schema), so it can neither change the caller's arguments nor the schema, whatever it
 * does. Iterative, and bounded: a value deeper or larger than the limits given is a `LimitError`, never a stack
 * overflow or a long copy. Only what JSON has is copied (own enumerable string-keyed members of arrays and objects);
 * anything else is copied as it is (the instance rule refuses it anyway).
 */

import { LimitError } from "../errors.js";
import type { Limits } from "../limits.js";
import { defineOwn } from "./json.js";

/** Which limits bound a copy: the instance's, or the schema's (already measured, so only its size is bounded again). */
export type CopyBounds = readonly [depth: keyof Limits | undefined, nodes: keyof Limits];

export const INSTANCE_BOUNDS: CopyBounds = ["maxInstanceDepth", "maxInstanceNodes"];
export const SCHEMA_BOUNDS: CopyBounds = [undefined, "maxSchemaNodes"];

/** A frozen deep copy of `value`; primitives are returned as they are. */
export function frozenCopy(value: unknown, limits: Readonly<Limits>, bounds: CopyBounds): unknown {
  if (typeof value !== "object" || value === null) return value;
  const [depthLimit, nodesLimit] = bounds;
  const maxDepth = depthLimit === undefined ? Infinity : limits[depthLimit];
  const maxNodes = limits[nodesLimit];
  let nodes = 0;
  const root = shell(value);
  // Each entry: a source container, its copy, and its depth; copies are frozen once their members are in.
  const pending: [object, Record<string, unknown> | unknown[], number][] = [[value, root, 1]];
  const finished: object[] = [];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [source, copy, depth] = next;
    if (depth > maxDepth) throw new LimitError(depthLimit as keyof Limits, maxDepth);
    for (const key of Object.keys(source)) {
      if (++nodes > maxNodes) throw new LimitError(nodesLimit, maxNodes);
      const member: unknown = (source as Record<string, unknown>)[key];
      let copied: unknown = member;
      if (typeof member === "object" && member !== null) {
        const inner = shell(member);
        pending.push([member, inner, depth + 1]);
        copied = inner;
      }
      if (Array.isArray(copy)) copy[Number(key)] = copied;
      else defineOwn(copy, key, copied);
    }
    finished.push(copy);
  }
  for (const copy of finished) Object.freeze(copy);
  return root;
}

function shell(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>((value as unknown[]).length) : {};
}
