/** Values the identity tests share: deep and shared values, seeded member reordering, the real MCP corpus. */

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { repoRoot } from "../../suite/locate.js";

/** `[]` wrapped in `depth` arrays, built without recursion. */
export function nested(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/**
 * `{ a: x, b: x }` over `levels` levels, every level one shared object (a DAG whose tree has 2^(levels+1) - 1
 * objects), each behind a proxy that counts how often its member names are listed (unless `count` is false).
 */
export function sharedLevels(levels: number, count = true): { root: unknown; visits: () => number } {
  let listed = 0;
  const counted = (target: object): object =>
    !count
      ? target
      : new Proxy(target, {
          ownKeys(t) {
            listed++;
            return Reflect.ownKeys(t);
          },
        });
  let root = counted({});
  for (let i = 0; i < levels; i++) root = counted({ a: root, b: root });
  return { root, visits: () => listed };
}

/** A small seeded generator (mulberry32), so reorderings are repeatable. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deep copy of a JSON value whose every object lists its members in a seeded random order. */
export function reordered(value: unknown, seed: number): unknown {
  const next = random(seed);
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v !== "object" || v === null) return v;
    const names = Object.keys(v);
    for (let i = names.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [names[i], names[j]] = [names[j] as string, names[i] as string];
    }
    const out = {};
    for (const name of names) {
      const member = copy((v as Record<string, unknown>)[name]);
      Object.defineProperty(out, name, { value: member, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return copy(value);
}

/** One record of the corpus: a published MCP tool and where it came from. */
export interface CorpusRecord {
  id: string;
  server: string;
  commit: string;
  name: string;
  [field: string]: unknown;
}

/** The MCP `Tool` fields a corpus record may carry; the rest of a record says where it came from. */
export const MCP_FIELDS = [
  "name",
  "title",
  "description",
  "icons",
  "inputSchema",
  "outputSchema",
  "annotations",
  "execution",
  "_meta",
] as const;

const corpusPath = resolve(repoRoot, "..", "shared", "mcp-corpus", "mcp-tools.json");

/** The corpus of real MCP tools; fails (never skips) when it is missing. */
export function readCorpus(): CorpusRecord[] {
  if (!existsSync(corpusPath)) assert.fail(`the MCP tool corpus is missing: expected it at ${corpusPath}`);
  return JSON.parse(readFileSync(corpusPath, "utf8")) as CorpusRecord[];
}

/** A record as a tool descriptor: its MCP fields, with the server as backend and the commit as revision. */
export function descriptorOf(record: CorpusRecord): Record<string, unknown> {
  const tool: Record<string, unknown> = { revision: record.commit, backend: record.server };
  for (const field of MCP_FIELDS) if (Object.hasOwn(record, field)) tool[field] = record[field];
  return tool;
}
