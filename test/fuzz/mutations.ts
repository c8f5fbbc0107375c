/**
 * Structural mutations of JSON-ish host values for fuzzing the runtime boundary (InputSchema, ToolCatalog):
 * deleted and duplicated keys, swapped value types, extreme numbers, 200-level allOf/not wrapping,
 * prototype-named own keys (via JSON.parse), and values that are not JSON at all (functions, undefined,
 * bigint, NaN, Infinity, Date, Map, class instances, cycles, symbol keys).
 */

import fc from "fast-check";
import { setOwn } from "./arbitraries.js";

export const OPS = [
  "delete",
  "duplicate",
  "swapType",
  "huge",
  "wrapDeep",
  "protoKeys",
  "nonJson",
  "symbolKey",
] as const;
export type Op = (typeof OPS)[number];

export interface Mutation {
  op: Op;
  /** Which container (object or array) of the value, modulo their number. */
  where: number;
  /** Which key of the container / which variant of the op, modulo their number. */
  pick: number;
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom(...OPS),
  where: fc.nat(),
  pick: fc.nat(),
});
export const mutationsArb: fc.Arbitrary<Mutation[]> = fc.array(mutationArb, { minLength: 1, maxLength: 3 });

type Container = Record<string | symbol, unknown> | unknown[];

const SWAPS: readonly unknown[] = [null, true, false, 0, -1, 1.5, "", "x", "object", [], {}, ["object"], [null]];
const HUGE: readonly number[] = [
  1e308,
  -1e308,
  5e-324,
  -5e-324,
  2 ** 53 + 2,
  -0,
  Number.MAX_VALUE,
  Number.MIN_SAFE_INTEGER - 2,
];
const DUP_KEYS: readonly string[] = [
  "type",
  "properties",
  "items",
  "required",
  "enum",
  "allOf",
  "$ref",
  "additionalProperties",
  "name",
  "backend",
];
const PROTO_JSON: readonly string[] = [
  '{"__proto__": {"polluted": "yes"}}',
  '{"constructor": {"prototype": {"polluted": "yes"}}}',
  '{"__proto__": {"type": "string", "polluted": "yes"}, "constructor": {"type": "string"}}',
  '{"properties": {"__proto__": {"type": "string"}, "constructor": {"const": 1}, "prototype": {}}, "required": ["__proto__"]}',
  '{"__proto__": null}',
  '{"toString": 1, "hasOwnProperty": 2, "valueOf": "x"}',
];

class Opaque {
  readonly type = "object";
}

function nonJsonValues(root: unknown, container: Container): readonly unknown[] {
  return [
    () => 1,
    undefined,
    10n,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    new Date(0),
    new Map([["type", "object"]]),
    new Set([1]),
    new Opaque(),
    root,
    container,
    Symbol("value"),
    new Uint8Array(2),
    /re/,
  ];
}

function containers(value: unknown, out: Container[] = [], depth = 0): Container[] {
  if (value === null || typeof value !== "object" || depth > 64) return out;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return out;
  if (out.includes(value as Container)) return out;
  out.push(value as Container);
  for (const k of Object.keys(value)) containers((value as Record<string, unknown>)[k], out, depth + 1);
  return out;
}

/** `depth` levels of `allOf: [ ... ]` or `not: { not: ... }` around `inner`, built with a loop. */
export function wrapDeep(inner: unknown, depth: number, kind: "allOf" | "not"): unknown {
  let v = inner;
  for (let i = 0; i < depth; i++) v = kind === "allOf" ? { allOf: [v] } : { not: { not: v } };
  return v;
}

function setKey(c: Container, key: string | number, value: unknown): void {
  if (Array.isArray(c)) c[Number(key)] = value;
  else setOwn(c as Record<string, unknown>, String(key), value);
}

/** Applies the mutations in place to `root` (which must be a fresh copy) and returns the possibly replaced root. */
export function mutate(root: unknown, mutations: readonly Mutation[]): unknown {
  let value = root;
  for (const m of mutations) {
    const all = containers(value);
    if (all.length === 0) {
      value = m.op === "nonJson" ? nonJsonValues(value, [])[m.pick % 15] : SWAPS[m.pick % SWAPS.length];
      continue;
    }
    const c = all[m.where % all.length] as Container;
    const keys = Object.keys(c);
    const key: string | undefined = keys.length === 0 ? undefined : keys[m.pick % keys.length];
    const current = key === undefined ? undefined : (c as Record<string, unknown>)[key];
    switch (m.op) {
      case "delete":
        if (key === undefined) break;
        if (Array.isArray(c)) c.splice(Number(key), 1);
        else delete (c as Record<string, unknown>)[key];
        break;
      case "duplicate":
        if (key === undefined) break;
        if (Array.isArray(c)) c.push(structuredCloneSafe(current));
        else
          setOwn(
            c as Record<string, unknown>,
            DUP_KEYS[m.pick % DUP_KEYS.length] as string,
            structuredCloneSafe(current),
          );
        break;
      case "swapType":
        if (key !== undefined) setKey(c, key, structuredCloneSafe(SWAPS[(m.pick >>> 3) % SWAPS.length]));
        break;
      case "huge":
        if (key !== undefined) setKey(c, key, HUGE[(m.pick >>> 3) % HUGE.length]);
        else if (Array.isArray(c)) c.push(HUGE[m.pick % HUGE.length]);
        else setOwn(c, "minimum", HUGE[m.pick % HUGE.length]);
        break;
      case "wrapDeep": {
        const wrapped = wrapDeep(current ?? {}, 200, m.pick % 2 === 0 ? "allOf" : "not");
        if (key !== undefined) setKey(c, key, wrapped);
        else if (c === value) value = wrapped;
        break;
      }
      case "protoKeys": {
        const parsed = JSON.parse(PROTO_JSON[m.pick % PROTO_JSON.length] as string) as Record<string, unknown>;
        if (Array.isArray(c)) c.push(parsed);
        else for (const k of Object.keys(parsed)) setOwn(c, k, parsed[k]);
        break;
      }
      case "nonJson": {
        const bad = nonJsonValues(value, c);
        const v = bad[(m.pick >>> 3) % bad.length];
        if (key !== undefined) setKey(c, key, v);
        else if (Array.isArray(c)) c.push(v);
        else setOwn(c, "extra", v);
        break;
      }
      case "symbolKey":
        if (!Array.isArray(c)) (c as Record<symbol, unknown>)[Symbol("kind")] = { type: "string", polluted: "yes" };
        break;
    }
  }
  return value;
}

/** A copy of the plain objects and arrays in `v` (keeps `__proto__` own keys and cycles); other values are shared. */
export function structuredCloneSafe<T>(v: T, seen = new Map<object, unknown>()): T {
  if (v === null || typeof v !== "object") return v;
  const done = seen.get(v);
  if (done !== undefined) return done as T;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(structuredCloneSafe(x, seen));
    return out as T;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const k of Object.keys(v)) setOwn(out, k, structuredCloneSafe((v as Record<string, unknown>)[k], seen));
  return out as T;
}

/** Own property names of the built-in prototypes, to detect pollution. */
export function prototypeSnapshot(): string {
  const protos: object[] = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];
  return protos.map((p) => Reflect.ownKeys(p).map(String).sort().join(",")).join("|");
}

export function polluted(): boolean {
  const probe: Record<string, unknown> = {};
  return probe["polluted"] !== undefined || ([] as unknown as Record<string, unknown>)["polluted"] !== undefined;
}
