/**
 * Verdicts for the provider tests: instances generated near a schema's edges (values of every type, the bounds and
 * one past them, enum and const values, missing, present and extra properties), and the comparison of an original
 * schema with what a profile sends — the same verdict on every instance (exact) or never a refusal the original
 * does not make (widened). Input schemas are judged as the boundary judges them: the arguments must be an object.
 */
import fc from "fast-check";
import { compile } from "../../../src/index.js";
import { fromOpenApi } from "./openapi.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const ANY: readonly Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  2.5,
  -0.5,
  10,
  "",
  "a",
  "ab",
  "abc",
  [],
  {},
  ["a"],
  { a: 1 },
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(root: unknown, ref: unknown): unknown {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  const tokens =
    ref === "#"
      ? []
      : ref
          .slice(2)
          .split("/")
          .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: unknown = root;
  for (const t of tokens) node = isObject(node) ? node[t] : Array.isArray(node) ? node[Number(t)] : undefined;
  return node;
}

/** Values at and one past each bound a schema states, and its constants. */
function edgeValues(schema: Record<string, unknown>): Json[] {
  const out: Json[] = [];
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    const n = schema[k];
    if (typeof n === "number") out.push(n, n - 1, n + 1, n - 0.5, n + 0.5);
  }
  if (typeof schema["multipleOf"] === "number") out.push(schema["multipleOf"] * 3, schema["multipleOf"] * 3 + 0.5);
  for (const k of ["minLength", "maxLength"]) {
    const n = schema[k];
    if (typeof n === "number" && n < 20) for (const m of [n - 1, n, n + 1]) if (m >= 0) out.push("x".repeat(m));
  }
  if (Object.hasOwn(schema, "const")) out.push(schema["const"] as Json);
  if (Array.isArray(schema["enum"])) out.push(...(schema["enum"] as Json[]));
  for (const k of ["default", "examples"]) {
    const v = schema[k];
    if (k === "examples" && Array.isArray(v)) out.push(...(v as Json[]));
    else if (v !== undefined) out.push(v as Json);
  }
  return out;
}

/** Instances near the edges of `schema` (read inside `root`, following local references a few levels). */
export function instancesFor(schema: unknown, root: unknown = schema, depth = 0): fc.Arbitrary<Json> {
  const any = fc.constantFrom(...ANY);
  if (depth > 4 || !isObject(schema)) return any;
  const options: fc.Arbitrary<Json>[] = [any];
  const edges = edgeValues(schema);
  if (edges.length > 0) options.push(fc.constantFrom(...edges));
  const target = resolve(root, schema["$ref"]);
  if (target !== undefined) options.push(instancesFor(target, root, depth + 1));
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[k];
    if (Array.isArray(list)) for (const branch of list.slice(0, 4)) options.push(instancesFor(branch, root, depth + 1));
  }
  for (const k of ["then", "else", "if"])
    if (isObject(schema[k])) options.push(instancesFor(schema[k], root, depth + 1));
  const properties = isObject(schema["properties"]) ? schema["properties"] : {};
  const names = Object.keys(properties).slice(0, 6);
  const patterned = isObject(schema["patternProperties"]) ? Object.keys(schema["patternProperties"]) : [];
  if (names.length > 0 || patterned.length > 0 || schema["type"] === "object") {
    const fields = names.map((name) =>
      fc.option(
        instancesFor(properties[name], root, depth + 1).map((v) => [name, v] as const),
        { nil: undefined, freq: 3 },
      ),
    );
    const extra = fc.option(
      fc.tuple(fc.constantFrom("extra", "x1", "__proto__", ...patterned.map((p) => p.replace(/[\^$]/g, ""))), any),
      { nil: undefined, freq: 2 },
    );
    options.push(
      fc.tuple(fc.tuple(...fields), extra).map(([present, more]) => {
        const out: Record<string, Json> = {};
        for (const entry of [...present, more]) {
          if (entry === undefined) continue;
          Object.defineProperty(out, entry[0], {
            value: entry[1],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return out;
      }),
    );
  }
  const items = schema["items"];
  const prefix = Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : [];
  if (items !== undefined || prefix.length > 0 || schema["type"] === "array") {
    const item = fc.oneof(instancesFor(items, root, depth + 1), ...prefix.map((p) => instancesFor(p, root, depth + 1)));
    const max = typeof schema["maxItems"] === "number" ? Math.min(schema["maxItems"] + 1, 6) : 4;
    options.push(fc.array(item, { maxLength: max }));
    options.push(item.map((v) => [v, v]));
  }
  return fc.oneof(...options);
}

/** A JSON round trip: fast-check may build objects without a prototype. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The verdict of `schema` on each instance; `input`: judged as the boundary does, so non-objects are invalid. */
export function verdicts(schema: unknown, instances: readonly unknown[], input: boolean): boolean[] {
  const validator = compile(schema);
  return instances.map((i) => (!input || isObject(i)) && validator.isValid(i));
}

/** What a profile sent, read as 2020-12 (Gemini `parameters` speaks OpenAPI's `nullable`). */
export function asJsonSchema(sent: unknown, format: string): unknown {
  return format === "gemini-parameters" ? fromOpenApi(sent) : sent;
}

/** The provider schema a request tool carries, whatever its format. */
export function sentSchema(tool: unknown): unknown {
  const t = tool as Record<string, Record<string, unknown> | unknown>;
  if (isObject(t["function"])) return t["function"]["parameters"];
  if (Object.hasOwn(t, "input_schema")) return t["input_schema"];
  if (Object.hasOwn(t, "parametersJsonSchema")) return t["parametersJsonSchema"];
  return t["parameters"];
}

/** The instances on which the two schemas disagree (exact) or the sent one refuses what the original accepts. */
export function disagreements(
  original: unknown,
  sent: unknown,
  instances: readonly unknown[],
  mode: "exact" | "superset",
  input = true,
): unknown[] {
  const before = verdicts(original, instances, input);
  const after = verdicts(sent, instances, input);
  return instances.filter((_, i) => (mode === "exact" ? before[i] !== after[i] : before[i] && !after[i]));
}
