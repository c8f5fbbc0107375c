/**
 * Differential oracle: @hyperjump/json-schema (2020-12). Each case is registered under its own URI, compiled
 * once, applied to every instance and unregistered. Disagreements that are hyperjump's (documented in
 * known-differences.md, with the spec citation) are recognised by the predicates in KNOWN_DIFFERENCES; the
 * differential test skips exactly those, and `npm run fuzz` counts them as explained.
 */

import { registerSchema, unregisterSchema, validate } from "@hyperjump/json-schema/draft-2020-12";
import { compile } from "../../src/index.js";
import { DIALECT, type Json } from "../fuzz/arbitraries.js";
import { isLimitFailure } from "../fuzz/checks.js";

let counter = 0;

export interface PeerResult {
  /** Set when hyperjump refused the schema or threw while validating. */
  error?: string;
  verdicts: boolean[];
}

/** Hyperjump's verdicts. The root URI is unique per call so embedded resources (`$id: "tree"`) never collide. */
export async function hyperjumpVerdicts(
  schema: Json,
  instances: readonly Json[],
): Promise<PeerResult & { uri: string }> {
  const uri = `https://fuzz.test/hj${counter++}/root`;
  try {
    registerSchema(schema as never, uri, DIALECT);
  } catch (e) {
    return { uri, error: `register: ${String(e)}`, verdicts: [] };
  }
  try {
    const run = await validate(uri);
    return { uri, verdicts: instances.map((i) => run(i as never).valid) };
  } catch (e) {
    return { uri, error: `validate: ${String(e)}`, verdicts: [] };
  } finally {
    unregisterSchema(uri);
  }
}

/** Our verdicts with the same base URI; "limit" when a limit stopped the evaluation (never a disagreement). */
export function ourVerdicts(
  schema: Json,
  instances: readonly Json[],
  baseUri: string,
): { error?: string; verdicts: (boolean | "limit")[] } {
  let validator;
  try {
    validator = compile(schema, { baseUri });
  } catch (e) {
    return { error: String(e), verdicts: [] };
  }
  return {
    verdicts: instances.map((i) => {
      try {
        return validator.isValid(i);
      } catch (e) {
        if (isLimitFailure(e)) return "limit";
        throw e;
      }
    }),
  };
}

export interface KnownDifference {
  /** Short id, also the heading in known-differences.md. */
  id: string;
  reason: string;
  /** True when this disagreement on (schema, instance) belongs to the documented class. */
  applies(schema: Json, instance: Json, ours: boolean, theirs: boolean): boolean;
}

/** Walks a JSON value, calling `visit` on every value (including the root). */
function everyValue(v: Json, visit: (x: Json) => void): void {
  visit(v);
  if (Array.isArray(v)) v.forEach((x) => everyValue(x, visit));
  else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) everyValue(v[k] as Json, visit);
}

function multipleOfValues(schema: Json): number[] {
  const out: number[] = [];
  everyValue(schema, (x) => {
    if (
      x !== null &&
      typeof x === "object" &&
      !Array.isArray(x) &&
      Object.hasOwn(x, "multipleOf") &&
      typeof x["multipleOf"] === "number"
    ) {
      out.push(x["multipleOf"]);
    }
  });
  return out;
}

/** Exact decimal test: is `n / m` an integer? (both finite doubles, read as `decimal` reads them) */
export function exactMultiple(n: number, m: number): boolean {
  const [nd, ns] = decimal(n);
  const [md, ms] = decimal(m);
  const scale = Math.max(ns, ms);
  const a = nd * 10n ** BigInt(scale - ns);
  const b = md * 10n ** BigInt(scale - ms);
  return b !== 0n && a % b === 0n;
}

/**
 * A finite double as digits × 10^-scale: an integral one as the exact integer it holds (what the engine decides on,
 * and what the JSON text of a large integer means), any other from its shortest round-trip decimal representation.
 */
function decimal(x: number): [bigint, number] {
  if (Number.isInteger(x)) return [BigInt(x), 0];
  const [mantissa = "0", exp = "0"] = x.toExponential().split("e");
  const negative = mantissa.startsWith("-");
  const [int = "0", frac = ""] = mantissa.replace("-", "").split(".");
  let digits = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return [negative ? -digits : digits, scale];
}

/** hyperjump's multipleOf: a floating-point remainder compared with a tolerance of 1.19209290e-7. */
export function hyperjumpMultiple(n: number, m: number): boolean {
  const r = n % m;
  return Math.abs(r) < 1.1920929e-7 || Math.abs(m - r) < 1.1920929e-7;
}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: "hyperjump-multipleOf-tolerance",
    reason:
      "hyperjump decides multipleOf with a floating-point remainder and a 1.19e-7 tolerance; Validation §6.2.1 requires the " +
      "quotient to be an integer, which we decide exactly (BigInt arithmetic on the decimal value)",
    applies(schema, instance) {
      const ms = multipleOfValues(schema);
      if (ms.length === 0) return false;
      let differs = false;
      everyValue(instance, (x) => {
        if (typeof x === "number" && ms.some((m) => exactMultiple(x, m) !== hyperjumpMultiple(x, m))) differs = true;
      });
      return differs;
    },
  },
];

export function explain(schema: Json, instance: Json, ours: boolean, theirs: boolean): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find((d) => d.applies(schema, instance, ours, theirs));
}
