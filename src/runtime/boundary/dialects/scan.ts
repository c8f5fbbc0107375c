/**
 * First pass of the draft-07 upgrade: finds every resource (`$id`), plain-name anchor and `$ref` of a set
 * of documents the way a draft-07 validator sees them, then works out what each `$ref` must become in
 * 2020-12 — including references from one document into another's renamed locations.
 */
import { isInstance } from "../../../engine/errors.js";
import { decodeFragment, escapeToken, parsePointer } from "../../../engine/json/pointer.js";
import { Blocked, LimitHit, MAX_DEPTH, type UpgradeChange } from "./common.js";
import { DEFINITIONS, subschemas, translatePointer } from "./positions.js";
import {
  childPointer,
  fragmentSegments,
  isObject,
  own,
  resolveUri,
  segmentsFragment,
  splitFragment,
  type JsonObject,
} from "./uri.js";

/** Draft-07 plain-name fragments that 2020-12 `$anchor` can spell (Core §8.2.2). */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export interface RefPlan {
  value: string;
  change?: UpgradeChange;
}

/** What the second pass needs to know about one document. */
export class DocumentPlan {
  /** Keyed by the pointer of each live `$ref` keyword. */
  readonly refs = new Map<string, RefPlan>();
  /** Pointers of `definitions` / `$defs` beside a `$ref` that something references into. */
  readonly keptDefinitions = new Set<string>();

  constructor(
    /** The document's key as the caller gave it. */
    readonly key: string,
    /** Its retrieval URI: the base of a root without `$id`. */
    readonly uri: string,
    readonly root: unknown,
  ) {}
}

interface Target {
  plan: DocumentPlan;
  node: JsonObject;
  pointer: string;
  /** Pointers of the `definitions` / `$defs` beside a `$ref` that enclose the target. */
  within: readonly string[];
}

/**
 * Runs the first pass over every document; throws `Blocked` (naming the document) when one cannot be exact, and
 * `LimitHit` past `maxNodes` subschemas (the second pass walks the same ones).
 */
export function scan(plans: readonly DocumentPlan[], maxNodes: number): void {
  const scanner = new Scanner(maxNodes);
  for (const plan of plans) {
    if (isObject(plan.root)) scanner.resources.set(plan.uri, { plan, node: plan.root, pointer: "", within: [] });
  }
  for (const plan of plans)
    inDocument(plan, () => {
      scanner.walk(plan.root, "", 0, { plan, base: plan.uri, resource: "", live: true, within: [] });
    });
  for (const site of scanner.sites)
    inDocument(site.plan, () => site.plan.refs.set(site.pointer, scanner.planRef(site)));
}

/** Runs `fn`, marking a refusal it throws with the document it concerns. */
export function inDocument<T>(plan: DocumentPlan, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isInstance(error, Blocked) || isInstance(error, LimitHit)) error.document ??= plan.key;
    throw error;
  }
}

/** Where the walk is: the base URI, the pointer of the enclosing resource's root, whether draft-07 evaluates. */
interface Scope {
  plan: DocumentPlan;
  base: string;
  resource: string;
  live: boolean;
  /** Pointers of the `definitions` / `$defs` beside a `$ref` that enclose the position. */
  within: readonly string[];
}

interface RefSite {
  plan: DocumentPlan;
  pointer: string;
  ref: string;
  base: string;
}

class Scanner {
  readonly resources = new Map<string, Target>();
  readonly anchors = new Map<string, Target>();
  /** `$id`s that draft-07 ignores (beside `$ref`, or inside ignored subschemas) → their pointer. */
  readonly ignoredIds = new Map<string, string>();
  /** `$id`s "#/pointer" that name another location than their own, by resource URI + decoded pointer. */
  readonly pointerIds = new Map<string, string>();
  readonly sites: RefSite[] = [];
  private nodes = 0;

  constructor(private readonly maxNodes: number) {}

  walk(node: unknown, pointer: string, depth: number, scope: Scope): void {
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (++this.nodes > this.maxNodes) throw new LimitHit(pointer);
    if (typeof node === "boolean") return;
    const { plan, live, within } = scope;
    if (!isObject(node)) {
      if (live) throw new Blocked(pointer, "a draft-07 schema must be an object or a boolean");
      return;
    }
    const ref = own(node, "$ref");
    const target: Target = { plan, node, pointer, within };
    let { base, resource } = scope;
    if (ref !== undefined) {
      if (typeof ref !== "string") {
        if (live) throw new Blocked(childPointer(pointer, "$ref"), "$ref must be a string");
        return;
      }
      if (live) this.sites.push({ plan, pointer: childPointer(pointer, "$ref"), ref, base });
      this.identify(target, base, resource, false); // Core draft-07 §8.3 ignores a `$id` beside `$ref`
    } else {
      const inner = this.identify(target, base, resource, live);
      if (inner !== base) resource = pointer;
      base = inner;
    }
    for (const sub of subschemas(node, pointer, live)) {
      const kept = ref !== undefined && DEFINITIONS.has(sub.keyword);
      const inner = { plan, base, resource, live: live && !sub.ignored, within: within };
      if (kept) inner.within = [...within, childPointer(pointer, sub.keyword)];
      this.walk(sub.schema, sub.pointer, depth + 1, inner);
    }
  }

  /**
   * Registers the `$id` of the target (as live, or as ignored) and returns the base URI for its subschemas.
   * `resource` is the pointer of the enclosing resource's root, against which a "#/pointer" `$id` is read.
   */
  private identify(target: Target, base: string, resource: string, live: boolean): string {
    const id = own(target.node, "$id");
    if (id === undefined) return base;
    const at = childPointer(target.pointer, "$id");
    if (typeof id !== "string") {
      if (live) throw new Blocked(at, "$id must be a string");
      return base;
    }
    const { document, fragment } = splitFragment(id);
    if (fragment !== undefined && fragment.startsWith("/") && document === "") {
      if (live) this.pointerId(id, fragment, at, target.pointer.slice(resource.length), base);
      return base;
    }
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
      if (existing !== undefined && existing.node !== target.node) {
        throw new Blocked(at, `$id "${id}" identifies two schemas`);
      }
      this.resources.set(uri, target);
    }
    return uri;
  }

  /**
   * A "#/pointer" `$id` only restates a location: RFC 3986 §5.2.2 never takes the base's fragment, so it
   * changes no base URI. Naming its own location it is dropped; naming another, a `$ref` to that location
   * would be ambiguous in draft-07, and is refused.
   */
  private pointerId(id: string, fragment: string, at: string, relative: string, base: string): void {
    const decoded = decodeFragment(fragment);
    if (decoded === undefined || parsePointer(decoded) === undefined) {
      throw new Blocked(at, `$id "${id}" has a malformed JSON Pointer fragment`);
    }
    if (decoded !== relative) this.pointerIds.set(base + "#" + decoded, at);
  }

  planRef(site: RefSite): RefPlan {
    const { pointer: at, ref, base } = site;
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
      return { value: ref, change: externalRef(at, ref, segments) };
    }
    for (const p of target.within) target.plan.keptDefinitions.add(p);
    if (isAnchor) return { value: ref };
    if (segments === undefined) throw new Blocked(at, `$ref "${ref}" has a malformed JSON Pointer fragment`);
    const claimed = this.pointerIds.get(document + "#" + segments.map((s) => "/" + escapeToken(s)).join(""));
    if (claimed !== undefined) {
      throw new Blocked(at, `$ref "${ref}" names a location that the $id at "${claimed}" also claims`);
    }
    const keep = (pointer: string): void => void target.plan.keptDefinitions.add(pointer);
    const fail = (why: string): Blocked => new Blocked(at, `$ref "${ref}" ${why}`);
    const moved = translatePointer(target.node, target.pointer, segments, keep, fail);
    if (moved.every((segment, i) => segment === segments[i])) return { value: ref };
    const value = splitFragment(ref).document + "#" + segmentsFragment(moved);
    return { value, change: { pointer: at, rule: "ref-rewritten", message: `$ref "${ref}" → "${value}"` } };
  }
}

/** A `$ref` into a document outside the set is kept as written; say so, and how to rewrite it if it must be. */
function externalRef(at: string, ref: string, segments: string[] | undefined): UpgradeChange {
  const renamed = segments?.some((s) => s === "definitions" || s === "dependencies" || s === "additionalItems");
  const hint = renamed
    ? "; it points into draft-07 names: upgrade the documents together (upgradeDraft07Documents) to rewrite it"
    : "";
  return {
    pointer: at,
    rule: "external-ref-kept",
    message: `$ref "${ref}" names another document; kept unchanged${hint}`,
  };
}
