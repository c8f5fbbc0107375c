/**
 * Where closing an object with `additionalProperties: false` would refuse a property the schema declares elsewhere
 * (Core §10.3.2.3: `additionalProperties` sees only its own object's `properties` and `patternProperties`): a
 * keyword applied in place beside it (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `$ref`,
 * `$dynamicRef`) that declares properties; the object itself applied in place beside declarations (an `allOf`
 * branch whose parent has `properties`, a `then`); a definition a `$ref` reaches from such a place; an object that is
 * a map (an `additionalProperties` schema declares every other name) or free-form (no property declared, below the
 * root); anywhere in a schema whose references are not all local to its root. Closed arguments (`closedArguments`)
 * keep those open and say why; a provider's narrowing, which only needs to accept less, does not ask.
 */

import { isObject } from "../../../engine/json/json.js";
import { appendPointer, parsePointer } from "../../../engine/json/pointer.js";
import type { Draft } from "../translation/draft.js";
import type { RefGraph } from "../translation/ref-graph.js";
import { entryJson } from "./helpers.js";
import type { Place } from "./rule.js";

/** Keywords whose subschemas apply to the same instance, by how they hold them. */
const IN_PLACE: ReadonlyMap<string, "schema" | "array" | "map"> = new Map([
  ["allOf", "array"],
  ["anyOf", "array"],
  ["oneOf", "array"],
  ["if", "schema"],
  ["then", "schema"],
  ["else", "schema"],
  ["not", "schema"],
  ["dependentSchemas", "map"],
]);

/** Keywords that name the properties of their own object. */
const DECLARING = ["properties", "patternProperties", "additionalProperties"];

/** How far up through in-place keywords and references the check looks before it keeps the object open. */
const MAX_STEPS = 64;

/** Whether a subschema declares properties, itself or through keywords applied in place (a reference may). */
function declares(schema: unknown, depth = 0): boolean {
  if (!isObject(schema)) return false;
  if (depth > MAX_STEPS || Object.hasOwn(schema, "$ref") || Object.hasOwn(schema, "$dynamicRef")) return true;
  if (DECLARING.some((k) => Object.hasOwn(schema, k) && schema[k] !== true)) return true;
  return branches(schema).some(([keyword, branch]) => keyword !== "not" && declares(branch, depth + 1));
}

/** The in-place subschemas of a schema object, with the keyword holding each and its pointer suffix. */
function branches(schema: Readonly<Record<string, unknown>>): [string, unknown, string][] {
  const out: [string, unknown, string][] = [];
  for (const [keyword, shape] of IN_PLACE) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const value = schema[keyword];
    const at = appendPointer("", keyword);
    if (shape === "schema") out.push([keyword, value, at]);
    else if (shape === "array" && Array.isArray(value))
      value.forEach((v: unknown, i) => out.push([keyword, v, appendPointer(at, i)]));
    else if (shape === "map" && isObject(value))
      for (const k of Object.keys(value)) out.push([keyword, value[k], appendPointer(at, k)]);
  }
  return out;
}

/** Why the object `draft` stays open for closed arguments, or undefined when closing it refuses nothing declared. */
export function keptOpen(draft: Draft, place: Place, graph: RefGraph): string | undefined {
  // References resolved against another base (an `$id` below the root, a `$ref` to another document) are not followed.
  if (graph.hasForeignScope) return "kept open: an $id below the root or a $ref to another document is not followed";
  const own = draft.get("additionalProperties");
  const map = own === undefined ? undefined : entryJson(own);
  if (own !== undefined && map !== true && map !== false && !(isObject(map) && Object.keys(map).length === 0))
    return "kept open: its additionalProperties schema declares every other name (a map)";
  const properties = draft.get("properties");
  const named = properties?.kind === "map" && properties.children.size > 0;
  if (!named && !draft.has("patternProperties") && !place.root)
    return "kept open: it declares no property (a free-form object)";
  for (const keyword of ["$ref", "$dynamicRef"])
    if (draft.has(keyword)) return `kept open: the ${keyword} beside it may declare properties`;
  for (const [keyword] of IN_PLACE) {
    const entry = draft.get(keyword);
    if (entry === undefined || keyword === "not") continue;
    if (branches({ [keyword]: entryJson(entry) }).some(([, b]) => declares(b)))
      return `kept open: the ${keyword} beside it declares properties additionalProperties does not see`;
  }
  return besideDeclarations(place.at, graph);
}

/**
 * Why the schema object at `at` is applied beside declarations it cannot see: through in-place keywords up to its
 * instance's schema, and through every reference to it or to an object on that way.
 */
function besideDeclarations(at: string, graph: RefGraph): string | undefined {
  const pending = [at];
  const seen = new Set<string>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    if (seen.size > MAX_STEPS) return "kept open: too many references and in-place keywords to follow";
    seen.add(next);
    for (const [site, ref] of graph.sites) {
      if (graph.targetOf(ref) !== next) continue;
      const holder = graph.at(site);
      if (isObject(holder) && Object.keys(holder).some((k) => k !== "$ref" && sees(holder, k)))
        return `kept open: the $ref at ${site} has keywords beside it that declare properties`;
      pending.push(site);
    }
    const parent = inPlaceParent(next);
    if (parent === undefined) continue;
    const holder = graph.at(parent.at);
    if (!isObject(holder)) continue;
    const beside = Object.keys(holder).find((k) => k !== parent.keyword && sees(holder, k));
    const siblings =
      parent.keyword === "allOf" && branchesOf(holder, "allOf").some((b, i) => i !== parent.index && declares(b));
    const what = beside ?? "allOf branches";
    if (beside !== undefined || siblings)
      return `kept open: it applies in place (${parent.keyword}) beside ${what} declaring properties`;
    pending.push(parent.at);
  }
  return undefined;
}

/** Whether keyword `k` of `holder` declares properties of the same instance. */
function sees(holder: Readonly<Record<string, unknown>>, k: string): boolean {
  if (DECLARING.includes(k)) return holder[k] !== true;
  if (k === "$ref" || k === "$dynamicRef") return true;
  return IN_PLACE.has(k) && k !== "not" && branches({ [k]: holder[k] }).some(([, b]) => declares(b));
}

function branchesOf(holder: Readonly<Record<string, unknown>>, keyword: string): unknown[] {
  const value = holder[keyword];
  return Array.isArray(value) ? value : [];
}

/** The schema object that applies the one at `at` in place, with the keyword (and index) holding it. */
function inPlaceParent(at: string): { at: string; keyword: string; index?: number } | undefined {
  const tokens = parsePointer(at);
  if (tokens === undefined || tokens.length === 0) return undefined;
  const last = tokens[tokens.length - 1] as string;
  const before = tokens[tokens.length - 2];
  const build = (n: number) => tokens.slice(0, n).reduce<string>((p, t) => appendPointer(p, t), "");
  if (IN_PLACE.get(last) === "schema") return { at: build(tokens.length - 1), keyword: last };
  if (before !== undefined && IN_PLACE.has(before) && IN_PLACE.get(before) !== "schema")
    return { at: build(tokens.length - 2), keyword: before, index: Number(last) };
  return undefined;
}
