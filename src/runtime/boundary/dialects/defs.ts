/**
 * Where the `definitions` and `$defs` of a draft-04/06/07 schema land in 2020-12: one `$defs` (Core §8.2.4). `$defs`
 * is unknown to those drafts, but a `$ref` can point into it by JSON Pointer, so its schemas are kept under
 * their names; a `definitions` entry keeps its name unless a `$defs` schema has it, and otherwise takes
 * the first free "<name>-definitions", "<name>-definitions-2", … The choice depends on the schema object
 * only, so every document that points into it agrees.
 */
import { isSchema } from "./keywords.js";
import { isObject, own, type JsonObject } from "./uri.js";

const chosen = new WeakMap<JsonObject, ReadonlyMap<string, string>>();

/** The `$defs` schemas of a draft-04/06/07 schema object: the entries 2020-12 keeps as they are. */
function defsSchemaNames(node: JsonObject): string[] {
  const defs = own(node, "$defs");
  return isObject(defs) ? Object.keys(defs).filter((name) => isSchema(defs[name])) : [];
}

/** Maps each `definitions` name of `node` to its name in the 2020-12 `$defs`. */
export function definitionsNames(node: JsonObject): ReadonlyMap<string, string> {
  const cached = chosen.get(node);
  if (cached !== undefined) return cached;
  const definitions = own(node, "definitions");
  const names = isObject(definitions) ? Object.keys(definitions) : [];
  const taken = new Set(defsSchemaNames(node));
  const out = new Map<string, string>();
  for (const name of names) if (!taken.has(name)) out.set(name, name);
  for (const name of names) taken.add(name);
  for (const name of names) {
    if (out.has(name)) continue;
    let fresh = `${name}-definitions`;
    for (let n = 2; taken.has(fresh); n++) fresh = `${name}-definitions-${n}`;
    taken.add(fresh);
    out.set(name, fresh);
  }
  const ordered = new Map(names.map((name) => [name, out.get(name) as string]));
  chosen.set(node, ordered);
  return ordered;
}
