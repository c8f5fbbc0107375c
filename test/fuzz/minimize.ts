/**
 * Greedy JSON minimiser for counterexamples: fast-check cannot shrink through `chain`, so failures are
 * reduced here by deleting object keys, dropping array elements and replacing subtrees by `true`, `{}`,
 * `null` or `0`, as long as the caller's predicate still holds. Prototype-named keys stay own data.
 */

import { setOwn, type Json, type JsonObject } from "./arbitraries.js";

type Step = (v: Json) => Json[];

/** Every value one edit smaller than `v` (at any depth). */
export function candidates(v: Json): Json[] {
  const out: Json[] = [];
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) out.push([...v.slice(0, i), ...v.slice(i + 1)]);
    for (let i = 0; i < v.length; i++) {
      for (const c of candidates(v[i] as Json)) out.push([...v.slice(0, i), c, ...v.slice(i + 1)]);
    }
  } else if (v !== null && typeof v === "object") {
    const keys = Object.keys(v);
    for (const k of keys) out.push(without(v, k));
    for (const k of keys) {
      const child = v[k] as Json;
      for (const r of replacements(child)) out.push(withValue(v, k, r));
      for (const c of candidates(child)) out.push(withValue(v, k, c));
    }
  }
  return out;
}

function replacements(v: Json): Json[] {
  if (v === true || v === null || v === 0) return [];
  if (v !== null && typeof v === "object" && Object.keys(v).length === 0) return [true];
  return [true, {}, null, 0];
}

function without(o: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o)) if (k !== key) setOwn(out, k, o[k]);
  return out;
}

function withValue(o: JsonObject, key: string, value: Json): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o)) setOwn(out, k, k === key ? value : o[k]);
  return out;
}

function shrinkOne(value: Json, still: (v: Json) => boolean, step: Step, budget: { left: number }): Json {
  let current = value;
  let progress = true;
  while (progress && budget.left > 0) {
    progress = false;
    for (const c of step(current)) {
      if (--budget.left <= 0) break;
      let ok: boolean;
      try {
        ok = still(c);
      } catch {
        ok = false;
      }
      if (ok) {
        current = c;
        progress = true;
        break;
      }
    }
  }
  return current;
}

/** Shrinks the schema, then the instance, then the schema again, while `fails(schema, instance)` holds. */
export function minimize(
  schema: Json,
  instance: Json,
  fails: (s: Json, i: Json) => boolean,
  maxTries = 20_000,
): { schema: Json; instance: Json } {
  const budget = { left: maxTries };
  let s = schema;
  let i = instance;
  for (let round = 0; round < 3; round++) {
    const before = JSON.stringify([s, i]);
    s = shrinkOne(s, (c) => fails(c, i), candidates, budget);
    i = shrinkOne(
      i,
      (c) => fails(s, c),
      (v) => [...candidates(v), ...(typeof v === "object" && v !== null ? [null] : [])],
      budget,
    );
    if (JSON.stringify([s, i]) === before) break;
  }
  return { schema: s, instance: i };
}

/** The same greedy reduction with an asynchronous predicate (for the hyperjump oracle). */
export async function minimizeAsync(
  schema: Json,
  instance: Json,
  fails: (s: Json, i: Json) => Promise<boolean>,
  maxTries = 5_000,
): Promise<{ schema: Json; instance: Json }> {
  let left = maxTries;
  let s = schema;
  let i = instance;
  let progress = true;
  while (progress && left > 0) {
    progress = false;
    const options: [Json, Json][] = [
      ...candidates(s).map((c): [Json, Json] => [c, i]),
      ...candidates(i).map((c): [Json, Json] => [s, c]),
    ];
    for (const [cs, ci] of options) {
      if (--left <= 0) break;
      let ok: boolean;
      try {
        ok = await fails(cs, ci);
      } catch {
        ok = false;
      }
      if (ok) {
        s = cs;
        i = ci;
        progress = true;
        break;
      }
    }
  }
  return { schema: s, instance: i };
}
