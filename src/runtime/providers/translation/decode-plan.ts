/**
 * Where, in a model's call, a null stands for an absent property: the plan the call decoder follows, read from the
 * schema as sent. Each emitted object that encoded optional properties names them; the plan reaches it the way the
 * schema applies to an instance — through `properties`, `items`, `$ref` and `allOf` (every one applies, Core
 * §10.2.1.1, §10.3), and through an `anyOf` whose branches take disjoint JSON types (the instance's type picks the
 * one branch that can match). An encoded object reached any other way (under `not`, `if`, `oneOf`, an `anyOf` with
 * overlapping branches, `prefixItems`, `additionalProperties`, …) cannot be decoded: it is reported, to be refused.
 */

import { isObject } from "../../../engine/json/json.js";
import { decodeFragment, getAt, parsePointer } from "../../../engine/json/pointer.js";
import { typeList } from "./merge.js";
import { forEachChild } from "./ref-graph.js";

/** The JSON types an `anyOf` is told apart by (Validation §6.1.1; `integer` is a `number`). */
export type JsonCategory = "null" | "boolean" | "object" | "array" | "string" | "number";

/** One schema object of the plan: what it decodes in the instance it applies to. */
export interface DecodeNode {
  /** Whether anything below decodes (the decoder skips a node that does not). */
  readonly active: boolean;
  /** Properties whose null means "absent". */
  readonly encoded: readonly string[];
  /** The plans of the declared properties' values. */
  readonly properties: ReadonlyMap<string, DecodeNode>;
  /** The plan of every array item. */
  readonly items?: DecodeNode;
  /** Plans that apply to the same instance (`$ref` targets, `allOf` branches). */
  readonly also: readonly DecodeNode[];
  /** The `anyOf` branch an instance of each type takes. */
  readonly byType?: ReadonlyMap<JsonCategory, DecodeNode>;
}

interface Building {
  active: boolean;
  encoded: readonly string[];
  properties: Map<string, Building>;
  items?: Building;
  also: Building[];
  byType?: Map<JsonCategory, Building>;
}

/** The plan (undefined when nothing is encoded), and the encoded objects it cannot reach. */
export interface DecodePlanResult {
  readonly plan?: DecodeNode;
  readonly unreachable: readonly object[];
}

/** The decode plan of a schema as sent; `encodedAt` names each emitted object's encoded properties. */
export function decodePlan(sent: unknown, encodedAt: WeakMap<object, readonly string[]>): DecodePlanResult {
  const nodes = new Map<Record<string, unknown>, Building>();
  const unreachable = new Set<object>();
  // Each schema object is visited at most twice: once on a followed path, once on another.
  const seen = { followed: new Set<object>(), other: new Set<object>() };
  // Breadth first, so that what is reported comes in the order of the schema.
  const pending: { value: unknown; followed: boolean }[] = [{ value: sent, followed: true }];
  for (let i = 0; i < pending.length; i++) {
    const { value, followed } = pending[i] as { value: unknown; followed: boolean };
    if (!isObject(value)) continue;
    const visited = followed ? seen.followed : seen.other;
    if (visited.has(value)) continue;
    visited.add(value);
    const encoded = encodedAt.get(value) ?? [];
    if (!followed && encoded.length > 0) unreachable.add(value);
    if (followed) nodes.set(value, nodeOf(nodes, value, encoded));
    const categories = disjointBranches(sent, value);
    const target = reference(sent, value);
    if (target !== undefined) pending.push({ value: target, followed });
    forEachChild(value, "", (child, _at, keyword) => {
      if (keyword === "$defs" || keyword === "definitions") return;
      const kept =
        keyword === "properties" ||
        keyword === "allOf" ||
        (keyword === "items" && !Object.hasOwn(value, "prefixItems")) ||
        (keyword === "anyOf" && categories !== undefined);
      pending.push({ value: child, followed: followed && kept });
    });
  }
  for (const [value, node] of nodes) link(nodes, sent, value, node);
  activate(nodes);
  const root = isObject(sent) ? nodes.get(sent) : undefined;
  return { ...(root?.active === true ? { plan: root } : {}), unreachable: [...unreachable] };
}

function nodeOf(
  nodes: Map<Record<string, unknown>, Building>,
  value: Record<string, unknown>,
  encoded: readonly string[],
): Building {
  return nodes.get(value) ?? { active: false, encoded, properties: new Map(), also: [] };
}

/** Connects a node to the nodes of its followed subschemas. */
function link(
  nodes: Map<Record<string, unknown>, Building>,
  sent: unknown,
  value: Record<string, unknown>,
  node: Building,
): void {
  const at = (child: unknown) => (isObject(child) ? nodes.get(child) : undefined);
  const properties = value["properties"];
  if (isObject(properties))
    for (const name of Object.keys(properties)) {
      const child = at(properties[name]);
      if (child !== undefined) node.properties.set(name, child);
    }
  const items = at(value["items"]);
  if (items !== undefined && !Object.hasOwn(value, "prefixItems")) node.items = items;
  const target = at(reference(sent, value));
  if (target !== undefined) node.also.push(target);
  if (Array.isArray(value["allOf"]))
    for (const branch of value["allOf"]) {
      const child = at(branch);
      if (child !== undefined) node.also.push(child);
    }
  const categories = disjointBranches(sent, value);
  const branches = value["anyOf"];
  if (categories === undefined || !Array.isArray(branches)) return;
  node.byType = new Map();
  branches.forEach((branch, i) => {
    const child = at(branch);
    if (child !== undefined) for (const c of categories[i] ?? []) node.byType?.set(c, child);
  });
}

/** Marks every node from which some encoded property can be reached (a fixpoint: plans can be cyclic). */
function activate(nodes: ReadonlyMap<Record<string, unknown>, Building>): void {
  for (const node of nodes.values()) node.active = node.encoded.length > 0;
  for (let changed = true; changed;) {
    changed = false;
    for (const node of nodes.values()) {
      if (node.active) continue;
      const below = [...node.properties.values(), ...node.also, ...(node.byType?.values() ?? [])];
      if (node.items !== undefined) below.push(node.items);
      if (below.some((n) => n.active)) {
        node.active = true;
        changed = true;
      }
    }
  }
}

/** The schema object a local `$ref` of the sent schema names, if any. */
function reference(sent: unknown, value: Record<string, unknown>): Record<string, unknown> | undefined {
  const ref = value["$ref"];
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  const fragment = decodeFragment(ref.slice(1));
  const tokens = fragment === undefined ? undefined : parsePointer(fragment);
  const found = tokens === undefined ? undefined : getAt(sent, tokens);
  return found !== undefined && isObject(found.value) ? found.value : undefined;
}

/** The JSON types each `anyOf` branch can take, when no two branches share one; else undefined. */
function disjointBranches(sent: unknown, value: Record<string, unknown>): JsonCategory[][] | undefined {
  const branches = value["anyOf"];
  if (!Array.isArray(branches)) return undefined;
  const taken = new Set<JsonCategory>();
  const out: JsonCategory[][] = [];
  for (const branch of branches) {
    const categories = categoriesOf(sent, branch, 0);
    if (categories === undefined || categories.some((c) => taken.has(c))) return undefined;
    for (const c of categories) taken.add(c);
    out.push(categories);
  }
  return out;
}

/** Nested branches and references followed to find a branch's type (deeper is left undecided). */
const MAX_REFERENCE_CHAIN = 16;

/**
 * The JSON types a branch can take, from its `type`, its `enum`/`const` values, its own `anyOf` branches' or its
 * reference's (a branch with several of these can take at most the types the first says).
 */
function categoriesOf(sent: unknown, branch: unknown, depth: number): JsonCategory[] | undefined {
  if (!isObject(branch) || depth > MAX_REFERENCE_CHAIN) return undefined;
  const types = typeList(branch["type"]);
  if (types !== undefined) return [...new Set(types.map((t) => (t === "integer" ? "number" : t) as JsonCategory))];
  const values = Object.hasOwn(branch, "const")
    ? [branch["const"]]
    : Array.isArray(branch["enum"])
      ? branch["enum"]
      : undefined;
  if (values !== undefined) return [...new Set(values.map(categoryOf))];
  if (Array.isArray(branch["anyOf"])) {
    const each = branch["anyOf"].map((b) => categoriesOf(sent, b, depth + 1));
    return each.some((c) => c === undefined) ? undefined : [...new Set(each.flat() as JsonCategory[])];
  }
  const target = reference(sent, branch);
  return target === undefined ? undefined : categoriesOf(sent, target, depth + 1);
}

/** The JSON type of a value. */
export function categoryOf(value: unknown): JsonCategory {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}
