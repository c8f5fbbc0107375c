/**
 * First pass of the draft-07 upgrade: finds every resource (`$id`), plain-name anchor and `$ref`
 * the way a draft-07 validator sees them, then works out what each `$ref` must become in 2020-12.
 */
import type { UpgradeChange } from "./upgrade-draft07.js";
import {
  childPointer,
  fragmentSegments,
  isObject,
  own,
  resolveUri,
  segmentsFragment,
  splitFragment,
  type JsonObject,
} from "./upgrade-draft07-uri.js";

/** Thrown inside the upgrade and turned into an `upgrade_blocked` result at the boundary. */
export class Blocked extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Stands in for the unknown retrieval URI of a root without `$id`. */
export const ROOT_BASE = "https://draft07-upgrade.invalid/root-schema.json";
export const MAX_DEPTH = 256;
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
/** Keywords 2020-12 defines and draft-07 does not: ignored there, they would become active. */
const NEW_KEYWORDS = new Set([
  "$defs",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
  "prefixItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "dependentRequired",
  "dependentSchemas",
  "minContains",
  "maxContains",
  "contentSchema",
]);

/** One subschema position: `ignored` when draft-07 never evaluates it (beside `$ref`, stray `additionalItems`). */
export interface Subschema {
  keyword: string;
  schema: unknown;
  pointer: string;
  ignored: boolean;
}

/** Lists the draft-07 subschema positions of `node`, refusing malformed containers when `strict`. */
export function subschemas(node: JsonObject, pointer: string, strict: boolean): Subschema[] {
  const out: Subschema[] = [];
  const hasRef = Object.hasOwn(node, "$ref");
  const bad = (key: string, what: string): void => {
    if (strict && !hasRef) throw new Blocked(childPointer(pointer, key), `"${key}" must be ${what} in draft-07`);
  };
  for (const key of Object.keys(node)) {
    const value = node[key];
    const ignored = hasRef && key !== "definitions";
    const add = (schema: unknown, at: string, skip = ignored): void => {
      out.push({ keyword: key, schema, pointer: at, ignored: skip });
    };
    switch (key) {
      case "properties":
      case "patternProperties":
      case "definitions":
      case "dependencies":
        if (!isObject(value)) {
          bad(key, "an object");
          break;
        }
        for (const name of Object.keys(value)) {
          const child = value[name];
          if (key === "dependencies" && Array.isArray(child)) continue;
          add(child, childPointer(pointer, key, name));
        }
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
        if (!Array.isArray(value)) {
          bad(key, "an array");
          break;
        }
        value.forEach((child, i) => add(child, childPointer(pointer, key, i)));
        break;
      case "items":
        if (Array.isArray(value)) value.forEach((child, i) => add(child, childPointer(pointer, key, i)));
        else add(value, childPointer(pointer, key));
        break;
      case "additionalItems":
        add(value, childPointer(pointer, key), ignored || !Array.isArray(own(node, "items")));
        break;
      case "additionalProperties":
      case "contains":
      case "propertyNames":
      case "not":
      case "if":
      case "then":
      case "else":
        add(value, childPointer(pointer, key));
        break;
    }
  }
  return out;
}

function refuseNewKeywords(node: JsonObject, pointer: string): void {
  for (const key of Object.keys(node)) {
    if (!NEW_KEYWORDS.has(key)) continue;
    const both = key === "$defs" && Object.hasOwn(node, "definitions") ? " beside definitions" : "";
    throw new Blocked(
      childPointer(pointer, key),
      `"${key}"${both} is not a draft-07 keyword: ignored there, it would be active in 2020-12`,
    );
  }
}

interface Target {
  node: JsonObject;
  pointer: string;
  within: readonly string[];
}
export interface RefPlan {
  value: string;
  change?: UpgradeChange;
}
export interface ScanResult {
  /** Keyed by the pointer of each live `$ref` keyword. */
  refs: Map<string, RefPlan>;
  /** Pointers of `definitions` beside a `$ref` that something references into. */
  keptDefinitions: Set<string>;
}

export function scan(root: JsonObject): ScanResult {
  const scanner = new Scanner();
  scanner.resources.set(ROOT_BASE, { node: root, pointer: "", within: [] });
  scanner.walk(root, "", ROOT_BASE, true, [], 0);
  return scanner.plan();
}

class Scanner {
  readonly resources = new Map<string, Target>();
  readonly anchors = new Map<string, Target>();
  /** `$id`s that draft-07 ignores (beside `$ref`, or inside ignored subschemas) → their pointer. */
  readonly ignoredIds = new Map<string, string>();
  readonly sites: { pointer: string; ref: string; base: string }[] = [];
  readonly kept = new Set<string>();

  walk(node: unknown, pointer: string, base: string, live: boolean, within: readonly string[], depth: number): void {
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (typeof node === "boolean") return;
    if (!isObject(node)) {
      if (live) throw new Blocked(pointer, "a draft-07 schema must be an object or a boolean");
      return;
    }
    const ref = own(node, "$ref");
    if (ref !== undefined) {
      if (typeof ref !== "string") {
        if (live) throw new Blocked(childPointer(pointer, "$ref"), "$ref must be a string");
        return;
      }
      if (live) this.sites.push({ pointer: childPointer(pointer, "$ref"), ref, base });
      this.identify(node, pointer, base, false, within); // draft-07 ignores a `$id` beside `$ref`
    } else {
      if (live) refuseNewKeywords(node, pointer);
      base = this.identify(node, pointer, base, live, within);
    }
    for (const sub of subschemas(node, pointer, live)) {
      const inner =
        ref !== undefined && sub.keyword === "definitions" ? [...within, childPointer(pointer, "definitions")] : within;
      this.walk(sub.schema, sub.pointer, base, live && !sub.ignored, inner, depth + 1);
    }
  }

  /** Registers the `$id` of `node` (as live, or as ignored) and returns the base URI for its subschemas. */
  identify(node: JsonObject, pointer: string, base: string, live: boolean, within: readonly string[]): string {
    const id = own(node, "$id");
    if (id === undefined) return base;
    const at = childPointer(pointer, "$id");
    if (typeof id !== "string") {
      if (live) throw new Blocked(at, "$id must be a string");
      return base;
    }
    const { document, fragment } = splitFragment(id);
    const target: Target = { node, pointer, within };
    if (fragment !== undefined && fragment !== "") {
      if (document !== "" || !ANCHOR.test(fragment)) {
        if (live)
          throw new Blocked(
            at,
            `$id "${id}" has a fragment that 2020-12 cannot express (only "#name" becomes $anchor)`,
          );
        return base;
      }
      const key = base + "#" + fragment;
      if (!live) this.ignoredIds.set(key, at);
      else if (this.anchors.has(key)) throw new Blocked(at, `$id "${id}" repeats an anchor of the same resource`);
      else this.anchors.set(key, target);
      return base;
    }
    if (document === "") return base;
    const uri = resolveUri(base, document);
    if (!live) {
      this.ignoredIds.set(uri, at);
    } else {
      const existing = this.resources.get(uri);
      if (existing !== undefined && existing.node !== node) throw new Blocked(at, `$id "${id}" identifies two schemas`);
      this.resources.set(uri, target);
    }
    return uri;
  }

  plan(): ScanResult {
    const refs = new Map<string, RefPlan>();
    for (const site of this.sites) refs.set(site.pointer, this.planRef(site.pointer, site.ref, site.base));
    return { refs, keptDefinitions: this.kept };
  }

  private planRef(at: string, ref: string, base: string): RefPlan {
    const { document, fragment } = splitFragment(resolveUri(base, ref));
    const segments = fragment === undefined ? [] : fragmentSegments(fragment);
    const isAnchor = fragment !== undefined && segments === undefined && !fragment.startsWith("/");
    const key = isAnchor ? document + "#" + fragment : document;
    const target = isAnchor ? this.anchors.get(key) : this.resources.get(key);
    const ignoredAt = this.ignoredIds.get(key);
    if (target === undefined && ignoredAt !== undefined) {
      throw new Blocked(at, `$ref "${ref}" names the $id at "${ignoredAt}", which draft-07 ignores`);
    }
    if (target === undefined) {
      if (this.resources.has(document)) throw new Blocked(at, `$ref "${ref}" does not resolve`);
      return {
        value: ref,
        change: {
          pointer: at,
          rule: "external-ref-kept",
          message: `$ref "${ref}" names another document; kept unchanged`,
        },
      };
    }
    for (const p of target.within) this.kept.add(p);
    if (isAnchor) return { value: ref };
    if (segments === undefined) throw new Blocked(at, `$ref "${ref}" has a malformed JSON Pointer fragment`);
    const moved = this.translate(target, segments, at, ref);
    if (moved.every((segment, i) => segment === segments[i])) return { value: ref };
    const value = splitFragment(ref).document + "#" + segmentsFragment(moved);
    return { value, change: { pointer: at, rule: "ref-rewritten", message: `$ref "${ref}" → "${value}"` } };
  }

  /** Follows a draft-07 JSON Pointer from a resource root and spells the same location in 2020-12. */
  private translate(from: Target, segments: string[], at: string, ref: string): string[] {
    const fail = (why: string): Blocked => new Blocked(at, `$ref "${ref}" ${why}`);
    const out: string[] = [];
    let node: unknown = from.node;
    let pointer = from.pointer;
    for (let i = 0; i < segments.length; i++) {
      const key = segments[i] as string;
      if (!isObject(node)) throw fail("does not resolve");
      const value = own(node, key);
      if (value === undefined) throw fail("does not resolve");
      const hasRef = Object.hasOwn(node, "$ref");
      if (hasRef && key !== "definitions") throw fail(`points into "${key}" beside $ref, which draft-07 ignores`);
      let renamed = key;
      let step: "name" | "index" | "none" = "none";
      switch (key) {
        case "definitions":
          renamed = "$defs";
          step = "name";
          if (hasRef) this.kept.add(childPointer(pointer, key));
          break;
        case "properties":
        case "patternProperties":
          step = "name";
          break;
        case "dependencies":
          renamed = "dependentSchemas";
          step = "name";
          break;
        case "allOf":
        case "anyOf":
        case "oneOf":
          step = "index";
          break;
        case "items":
          if (Array.isArray(value)) {
            renamed = "prefixItems";
            step = "index";
          }
          break;
        case "additionalItems":
          if (!Array.isArray(own(node, "items")))
            throw fail("points into additionalItems, which draft-07 ignores here");
          renamed = "items";
          break;
        case "additionalProperties":
        case "contains":
        case "propertyNames":
        case "not":
        case "if":
        case "then":
        case "else":
          break;
        default:
          throw fail(`points into "${key}", which is not a subschema position`);
      }
      out.push(renamed);
      pointer = childPointer(pointer, key);
      node = value;
      if (step === "none") continue;
      const name = segments[++i];
      if (name === undefined) throw fail(`points at the "${key}" container, not at a schema`);
      if (step === "index")
        node = Array.isArray(value) && /^(0|[1-9]\d*)$/.test(name) ? value[Number(name)] : undefined;
      else node = isObject(value) ? own(value, name) : undefined;
      if (node === undefined) throw fail("does not resolve");
      if (key === "dependencies" && Array.isArray(node)) throw fail("points at a property dependency, not at a schema");
      out.push(name);
      pointer = childPointer(pointer, name);
    }
    if (typeof node !== "boolean" && !isObject(node)) throw fail("does not resolve to a schema");
    return out;
  }
}
