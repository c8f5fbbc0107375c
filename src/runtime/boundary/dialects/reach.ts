/**
 * The documents one compile can reach (docs/guide/engine.md "What it does": a registry document matters only when a
 * reference reaches it): the root, then each registry or loader document a `$ref`, `$dynamicRef` or 2019-09
 * `$recursiveRef` leads to, or a `$schema` names as a custom meta-schema, found by its key or by an `$id` embedded in
 * it, as the compiler finds them. Read tolerantly: nothing here refuses a document (the upgrade and the compiler
 * report what is wrong). A document is walked only once it is known to be JSON data within `maxSchemaBytes` (no
 * getter of a host object runs), and a loader that throws or returns nothing is not asked again here (the compiler
 * asks it, and reports).
 */
import type { SchemaRegistry } from "../../../engine/compile/compile-options.js";
import { embeddedIds } from "../../../engine/compile/subschemas.js";
import { checkJson } from "../../../engine/json/host-json.js";
import { resolveUri } from "../../../engine/json/uri.js";
import { dialect2020_12 } from "../../../vocabularies/dialect-2020-12.js";
import { DIALECT_2020_12, legacyDialectOf, type SourceDialect } from "./dialects.js";
import { DEFINITIONS } from "./positions.js";
import { isObject, own, splitFragment } from "./uri.js";

/** A registry or loader document a reference leads to. */
export interface Reached {
  /** The key it is registered under (as the host wrote it), or the URI the loader was asked for. */
  readonly key: string;
  /** Its retrieval URI (the key without an empty fragment). */
  readonly uri: string;
  readonly document: unknown;
  /** Whether the loader returned it (it is then registered for the compile, so the loader is asked once). */
  readonly loaded: boolean;
}

/** Where a compile's documents come from. */
export interface Sources {
  readonly registry: SchemaRegistry | undefined;
  readonly loader: ((uri: string) => unknown) | undefined;
  /** The dialect a document is read in for its identifiers and references. */
  readonly dialectOf: (document: unknown) => SourceDialect;
  /** The most subschemas read in one document (the compile refuses more). */
  readonly maxNodes: number;
  /** The most JSON bytes of one document (the compile refuses more). */
  readonly maxBytes: number;
}

/**
 * The registry and loader documents reachable from `root` (retrieved from `rootUri`, already known to be JSON data),
 * in the order found.
 */
export function reachable(root: unknown, rootUri: string, sources: Sources): Reached[] {
  const registry = registryDocuments(sources.registry);
  let embedded: Map<string, string> | undefined;
  const found: Reached[] = [];
  const known = new Set<string>();
  const pending: { document: unknown; uri: string }[] = [{ document: root, uri: rootUri }];
  const reach = (uri: string): Reached | undefined => {
    const direct = registry.get(uri);
    if (direct !== undefined) return direct;
    if (embedded === undefined) {
      embedded = new Map();
      for (const [key, entry] of registry) {
        for (const id of embeddedIds(entry.document, key, dialect2020_12.subschemaKeywords))
          if (!embedded.has(id)) embedded.set(id, key);
      }
    }
    const holder = embedded.get(uri);
    if (holder !== undefined) return registry.get(holder);
    return load(sources.loader, uri);
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { ids, refs } = identifiersAndReferences(next.document, next.uri, sources);
    for (const id of ids) known.add(id);
    for (const uri of refs) {
      if (known.has(uri)) continue;
      known.add(uri);
      const reached = reach(uri);
      if (reached === undefined || found.some((r) => r.uri === reached.uri)) continue;
      if (!checkJson(reached.document, { bytes: sources.maxBytes }).ok) continue;
      known.add(reached.uri);
      found.push(reached);
      pending.push({ document: reached.document, uri: reached.uri });
    }
  }
  return found;
}

function registryDocuments(registry: SchemaRegistry | undefined): Map<string, Reached> {
  const out = new Map<string, Reached>();
  if (registry === undefined) return out;
  const entries =
    registry instanceof Map
      ? [...registry.entries()]
      : Object.keys(registry).map((k) => [k, (registry as Record<string, unknown>)[k]] as const);
  for (const [key, document] of entries) {
    const uri = key.endsWith("#") ? key.slice(0, -1) : key;
    out.set(uri, { key, uri, document, loaded: false });
  }
  return out;
}

function load(loader: ((uri: string) => unknown) | undefined, uri: string): Reached | undefined {
  if (loader === undefined) return undefined;
  try {
    const document = loader(uri);
    if (document === undefined || document === null) return undefined;
    // A Promise is the compiler's to name (schemaLoader must be synchronous).
    if (typeof (document as { then?: unknown }).then === "function") return undefined;
    return { key: uri, uri, document, loaded: true };
  } catch {
    return undefined;
  }
}

/**
 * The resource URIs a document declares and the documents its references name (absolute, without fragment),
 * walking the subschema positions of its dialect; beside `$ref`, drafts 04–07 read only `definitions`.
 */
function identifiersAndReferences(document: unknown, uri: string, sources: Sources): { ids: string[]; refs: string[] } {
  const ids = [uri];
  const refs: string[] = [];
  const dialect = sources.dialectOf(document);
  const seen = new Set<object>();
  const pending: { value: unknown; base: string }[] = [{ value: document, base: uri }];
  let nodes = 0;
  try {
    for (let next = pending.pop(); next !== undefined && nodes++ < sources.maxNodes; next = pending.pop()) {
      const { value, base } = next;
      if (!isObject(value) || seen.has(value)) continue;
      seen.add(value);
      const ref = own(value, "$ref");
      const alone = dialect.refAlone && typeof ref === "string";
      let here = base;
      const id = own(value, dialect === DIALECT_2020_12 ? "$id" : dialect.id);
      if (!alone && typeof id === "string" && splitFragment(id).document !== "") {
        here = splitFragment(resolveUri(base, id)).document;
        ids.push(here);
      }
      for (const keyword of ["$ref", "$dynamicRef", "$recursiveRef"]) {
        const target = own(value, keyword);
        if (typeof target === "string") refs.push(splitFragment(resolveUri(alone ? base : here, target)).document);
      }
      const declared = own(value, "$schema");
      if (typeof declared === "string" && !DIALECT_2020_12.declared.test(declared) && !legacyDialectOf(declared)) {
        refs.push(splitFragment(declared).document); // a custom meta-schema (Core §8.1.1)
      }
      for (const key of Object.keys(value)) {
        const position = dialect.positions.get(key);
        if (position === undefined || (alone && !DEFINITIONS.has(key))) continue;
        const child = value[key];
        if (position.holds === "map" && isObject(child)) {
          for (const name of Object.keys(child)) pending.push({ value: child[name], base: here });
        } else if (Array.isArray(child)) {
          for (const item of child) pending.push({ value: item, base: here });
        } else pending.push({ value: child, base: here });
      }
    }
  } catch {
    // A value that is not JSON data (a throwing getter, a Proxy): the compiler reports it where it is reached.
  }
  return { ids, refs };
}
