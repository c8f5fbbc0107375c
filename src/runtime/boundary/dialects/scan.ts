/**
 * First pass of the upgrade: finds every resource (`$id`, draft-04 `id`), plain-name anchor and reference of a set
 * of documents the way a validator of each document's dialect sees them, then works out what each `$ref` (and
 * 2019-09 `$recursiveRef`) must become in 2020-12 — including references from one document into another's renamed
 * locations.
 */
import { isInstance } from "../../../engine/errors.js";
import { decodeFragment, escapeToken, parsePointer } from "../../../engine/json/pointer.js";
import { Blocked, LimitHit, MAX_DEPTH, type UpgradeChange } from "./common.js";
import type { SourceDialect } from "./dialects.js";
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

/** Plain-name fragments that 2020-12 `$anchor` can spell (Core §8.2.2). */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
/** What 2019-09 allows in `$anchor` (Core 2019-09 §8.2.3). */
const ANCHOR_2019 = /^[A-Za-z][-A-Za-z0-9.:_]*$/;

/** What a reference becomes: its 2020-12 keyword (`$ref`, or `$dynamicRef` for a 2019-09 `$recursiveRef`) and value. */
export interface RefPlan {
  keyword: "$ref" | "$dynamicRef";
  value: string;
  change?: UpgradeChange;
}

/** What the second pass needs to know about one document. */
export class DocumentPlan {
  /** Keyed by the pointer of each live `$ref` keyword. */
  readonly refs = new Map<string, RefPlan>();
  /** Pointers of `definitions` / `$defs` beside a `$ref` that something references into. */
  readonly keptDefinitions = new Set<string>();
  /** Pointers of the resource roots whose `$recursiveAnchor: true` becomes `$dynamicAnchor` (2019-09). */
  readonly recursiveAnchors = new Set<string>();

  constructor(
    /** The document's key as the caller gave it. */
    readonly key: string,
    /** Its retrieval URI: the base of a root without `$id`. */
    readonly uri: string,
    readonly root: unknown,
    /** The dialect the document is read in. */
    readonly dialect: SourceDialect,
  ) {}
}

interface Target {
  plan: DocumentPlan;
  node: JsonObject;
  pointer: string;
  /** Pointers of the `definitions` / `$defs` beside a `$ref` that enclose the target. */
  within: readonly string[];
}

/** Where draft-04 allows a boolean schema (Validation draft-04 §5.3.1, §5.4.4). */
const DRAFT04_BOOLEANS = new Set(["additionalItems", "additionalProperties"]);

/** The `$dynamicAnchor` name a 2019-09 `$recursiveAnchor: true` becomes: no 2019-09 `$anchor` starts with "_". */
export const RECURSIVE_ANCHOR = "_recursive";

/**
 * Runs the first pass over every document; throws `Blocked` (naming the document) when one cannot be exact, and
 * `LimitHit` past `maxNodes` subschemas in one document or `budget` in all (the second pass walks the same ones).
 */
export function scan(plans: readonly DocumentPlan[], maxNodes: number, budget = Infinity): void {
  const scanner = new Scanner(maxNodes, budget);
  for (const plan of plans) {
    if (isObject(plan.root)) scanner.resources.set(plan.uri, { plan, node: plan.root, pointer: "", within: [] });
  }
  for (const plan of plans)
    inDocument(plan, () => {
      scanner.startDocument();
      scanner.walk(
        plan.root,
        { pointer: "", depth: 0 },
        { plan, base: plan.uri, resource: "", live: true, within: [] },
      );
    });
  const contains = scanner.contains;
  if (contains !== undefined && scanner.unevaluatedItems) {
    // 2019-09 leaves unsaid whether the items `contains` matches are evaluated for `unevaluatedItems` (Core 2019-09
    // §9.3.1.3 names items, additionalItems and unevaluatedItems only); 2020-12 says they are (Core §11.2).
    const why =
      "contains in a set with unevaluatedItems: 2019-09 does not say whether the items contains matches count as " +
      "evaluated (2020-12 counts them), so no translation is exact";
    inDocument(contains.plan, () => {
      throw new Blocked(contains.pointer, why);
    });
  }
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

/** Where the walk is: the base URI, the pointer of the enclosing resource's root, whether the dialect evaluates. */
interface Scope {
  plan: DocumentPlan;
  base: string;
  resource: string;
  live: boolean;
  /** Pointers of the `definitions` / `$defs` beside a `$ref` that enclose the position. */
  within: readonly string[];
}

/** Where a subschema sits: its pointer, its depth, and the keyword whose value (or member) it is. */
interface Place {
  pointer: string;
  depth: number;
  keyword?: string;
}

interface RefSite {
  plan: DocumentPlan;
  pointer: string;
  ref: string;
  base: string;
  /** A 2019-09 `$recursiveRef` (always "#"). */
  recursive: boolean;
}

class Scanner {
  readonly resources = new Map<string, Target>();
  readonly anchors = new Map<string, Target>();
  /** Identifiers that the dialect ignores (beside `$ref`, or inside ignored subschemas) → their pointer. */
  readonly ignoredIds = new Map<string, string>();
  /** `$id`s "#/pointer" that name another location than their own, by resource URI + decoded pointer. */
  readonly pointerIds = new Map<string, string>();
  readonly sites: RefSite[] = [];
  /** Whether a 2019-09 document of the set has `unevaluatedItems`. */
  unevaluatedItems = false;
  /** The first `contains` of a 2019-09 document of the set. */
  contains: { plan: DocumentPlan; pointer: string } | undefined;
  private nodes = 0;
  private total = 0;

  constructor(
    private readonly maxNodes: number,
    private readonly budget: number,
  ) {}

  /** The per-document count starts again; the set's total goes on. */
  startDocument(): void {
    this.nodes = 0;
  }

  walk(node: unknown, place: Place, scope: Scope): void {
    const { pointer, depth, keyword } = place;
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (++this.nodes > this.maxNodes) throw new LimitHit(pointer, "maxSchemaNodes");
    if (++this.total > this.budget) throw new LimitHit(pointer, "budget");
    const { plan, live, within } = scope;
    const dialect = plan.dialect;
    if (typeof node === "boolean") {
      if (live && !dialect.booleanSchemas && (keyword === undefined || !DRAFT04_BOOLEANS.has(keyword)))
        throw new Blocked(pointer, "a draft-04 schema must be an object here (boolean schemas came with draft-06)");
      return;
    }
    if (!isObject(node)) {
      if (live) throw new Blocked(pointer, `a ${dialect.name} schema must be an object or a boolean`);
      return;
    }
    const ref = own(node, "$ref");
    const alone = dialect.refAlone && ref !== undefined;
    const target: Target = { plan, node, pointer, within };
    let { base, resource } = scope;
    if (ref !== undefined && typeof ref !== "string") {
      if (live) throw new Blocked(childPointer(pointer, "$ref"), "$ref must be a string");
      if (alone) return;
    }
    if (alone) {
      if (live)
        this.sites.push({ plan, pointer: childPointer(pointer, "$ref"), ref: ref as string, base, recursive: false });
      this.identify(target, base, resource, false); // Core draft-07 §8.3 ignores a `$id` beside `$ref`
    } else {
      const inner = this.identify(target, base, resource, live);
      if (inner !== base) resource = pointer;
      base = inner;
      if (live && typeof ref === "string")
        this.sites.push({ plan, pointer: childPointer(pointer, "$ref"), ref, base, recursive: false });
      if (live && dialect.name === "2019-09") {
        this.recursive(target, base, resource === pointer);
        if (Object.hasOwn(node, "unevaluatedItems")) this.unevaluatedItems = true;
        if (Object.hasOwn(node, "contains")) this.contains ??= { plan, pointer: childPointer(pointer, "contains") };
      }
    }
    for (const sub of subschemas(dialect, node, pointer, live)) {
      const kept = alone && DEFINITIONS.has(sub.keyword);
      const inner = { plan, base, resource, live: live && !sub.ignored, within: within };
      if (kept) inner.within = [...within, childPointer(pointer, sub.keyword)];
      this.walk(sub.schema, { pointer: sub.pointer, depth: depth + 1, keyword: sub.keyword }, inner);
    }
  }

  /**
   * 2019-09 `$recursiveRef` (only "#", Core 2019-09 §8.2.4.2.1) and `$recursiveAnchor` (a boolean; it counts at a
   * resource root only, the one place a `$recursiveRef` lands and the dynamic scope is searched for).
   */
  private recursive(target: Target, base: string, resourceRoot: boolean): void {
    const { plan, node, pointer } = target;
    const recursiveRef = own(node, "$recursiveRef");
    if (recursiveRef !== undefined) {
      const at = childPointer(pointer, "$recursiveRef");
      if (recursiveRef !== "#") throw new Blocked(at, `$recursiveRef must be "#" in 2019-09`);
      this.sites.push({ plan, pointer: at, ref: "#", base, recursive: true });
    }
    const anchor = own(node, "$recursiveAnchor");
    if (anchor === undefined) return;
    if (typeof anchor !== "boolean")
      throw new Blocked(childPointer(pointer, "$recursiveAnchor"), "$recursiveAnchor must be a boolean in 2019-09");
    if (anchor && resourceRoot) plan.recursiveAnchors.add(pointer);
  }

  /**
   * Registers the identifier of the target (as live, or as ignored) and returns the base URI for its subschemas.
   * `resource` is the pointer of the enclosing resource's root, against which a "#/pointer" `$id` is read.
   */
  private identify(target: Target, base: string, resource: string, live: boolean): string {
    const dialect = target.plan.dialect;
    if (live && !dialect.refAlone) this.anchor(target, base);
    const name = dialect.id;
    const id = own(target.node, name);
    if (id === undefined) return base;
    const at = childPointer(target.pointer, name);
    if (typeof id !== "string") {
      if (live) throw new Blocked(at, `${name} must be a string`);
      return base;
    }
    const { document, fragment } = splitFragment(id);
    if (!dialect.refAlone && fragment !== undefined && fragment !== "") {
      throw new Blocked(at, `${name} "${id}" has a fragment, which ${dialect.name} does not allow (use $anchor)`);
    }
    if (fragment !== undefined && fragment.startsWith("/") && document === "") {
      if (live) this.pointerId({ id, fragment, at, relative: target.pointer.slice(resource.length), base });
      return base;
    }
    if (fragment !== undefined && fragment !== "") {
      if (document !== "" || !ANCHOR.test(fragment)) {
        if (live)
          throw new Blocked(
            at,
            `${name} "${id}" has a fragment that 2020-12 cannot express (only "#name" becomes $anchor)`,
          );
        return base;
      }
      const key = base + "#" + fragment;
      if (!live) this.ignoredIds.set(key, at);
      else if (this.anchors.has(key)) throw new Blocked(at, `${name} "${id}" repeats an anchor of the same resource`);
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
        throw new Blocked(at, `${name} "${id}" identifies two schemas`);
      }
      this.resources.set(uri, target);
    }
    return uri;
  }

  /** A 2019-09 `$anchor` (Core 2019-09 §8.2.3), registered in the resource it names a location of. */
  private anchor(target: Target, base: string): void {
    const anchor = own(target.node, "$anchor");
    if (anchor === undefined) return;
    const at = childPointer(target.pointer, "$anchor");
    // A `$id` beside it changes the base first (Core 2019-09 §8.2.3: the anchor names a location of that resource).
    const id = own(target.node, "$id");
    const resource = typeof id === "string" && splitFragment(id).document !== "" ? resolveUri(base, id) : base;
    const name = typeof anchor === "string" ? anchor : "";
    if (!ANCHOR_2019.test(name))
      throw new Blocked(at, `$anchor ${JSON.stringify(anchor)} is not a 2019-09 anchor name`);
    if (!ANCHOR.test(name)) throw new Blocked(at, `$anchor "${name}" cannot be spelled in 2020-12 (no ":" there)`);
    const key = splitFragment(resource).document + "#" + name;
    if (this.anchors.has(key)) throw new Blocked(at, `$anchor "${name}" repeats an anchor of the same resource`);
    this.anchors.set(key, target);
  }

  /**
   * A "#/pointer" `$id` only restates a location: RFC 3986 §5.2.2 never takes the base's fragment, so it
   * changes no base URI. Naming its own location it is dropped; naming another, a `$ref` to that location
   * would be ambiguous in drafts 04–07, and is refused.
   */
  private pointerId(found: { id: string; fragment: string; at: string; relative: string; base: string }): void {
    const { id, fragment, at, relative, base } = found;
    const decoded = decodeFragment(fragment);
    if (decoded === undefined || parsePointer(decoded) === undefined) {
      throw new Blocked(at, `$id "${id}" has a malformed JSON Pointer fragment`);
    }
    if (decoded !== relative) this.pointerIds.set(base + "#" + decoded, at);
  }

  planRef(site: RefSite): RefPlan {
    if (site.recursive) return this.planRecursive(site);
    const { pointer: at, ref, base } = site;
    const { document, fragment } = splitFragment(resolveUri(base, ref));
    const segments = fragment === undefined ? [] : fragmentSegments(fragment);
    const isAnchor = fragment !== undefined && segments === undefined && !fragment.startsWith("/");
    const key = isAnchor ? document + "#" + fragment : document;
    const target = isAnchor ? this.anchors.get(key) : this.resources.get(key);
    const ignoredAt = this.ignoredIds.get(key);
    if (target === undefined && ignoredAt !== undefined) {
      const dialect = site.plan.dialect;
      throw new Blocked(at, `$ref "${ref}" names the ${dialect.id} at "${ignoredAt}", which ${dialect.name} ignores`);
    }
    if (target === undefined) {
      if (this.resources.has(document)) throw new Blocked(at, `$ref "${ref}" does not resolve`);
      return { keyword: "$ref", value: ref, change: externalRef(at, ref, segments) };
    }
    for (const p of target.within) target.plan.keptDefinitions.add(p);
    if (isAnchor) return { keyword: "$ref", value: ref };
    if (segments === undefined) throw new Blocked(at, `$ref "${ref}" has a malformed JSON Pointer fragment`);
    const claimed = this.pointerIds.get(document + "#" + segments.map((s) => "/" + escapeToken(s)).join(""));
    if (claimed !== undefined) {
      throw new Blocked(at, `$ref "${ref}" names a location that the $id at "${claimed}" also claims`);
    }
    const keep = (pointer: string): void => void target.plan.keptDefinitions.add(pointer);
    const fail = (why: string): Blocked => new Blocked(at, `$ref "${ref}" ${why}`);
    const moved = translatePointer(target, segments, { kept: keep, fail });
    if (moved.every((segment, i) => segment === segments[i])) return { keyword: "$ref", value: ref };
    const value = splitFragment(ref).document + "#" + segmentsFragment(moved);
    const change = { pointer: at, rule: "ref-rewritten", message: `$ref "${ref}" → "${value}"` };
    return { keyword: "$ref", value, change };
  }

  /**
   * `$recursiveRef: "#"` lands on the root of its resource (Core 2019-09 §8.2.4.2.1). When that root has
   * `$recursiveAnchor: true`, the outermost resource in the dynamic scope with `$recursiveAnchor: true` is used
   * instead (§8.2.4.2.2): exactly what `$dynamicRef` does with a `$dynamicAnchor` every such root gets (Core
   * §8.2.3.2). Otherwise it is a plain `$ref: "#"`.
   */
  private planRecursive(site: RefSite): RefPlan {
    const target = this.resources.get(site.base);
    const dynamic = target !== undefined && target.plan.recursiveAnchors.has(target.pointer);
    const value = dynamic ? "#" + RECURSIVE_ANCHOR : "#";
    const keyword = dynamic ? "$dynamicRef" : "$ref";
    const why = dynamic
      ? `its resource has $recursiveAnchor: true, which becomes $dynamicAnchor "${RECURSIVE_ANCHOR}"`
      : "its resource has no $recursiveAnchor: true, so it works like $ref";
    const message = `$recursiveRef "#" → ${keyword} "${value}" (${why})`;
    return { keyword, value, change: { pointer: site.pointer, rule: "recursiveRef-translated", message } };
  }
}

/** A `$ref` into a document outside the set is kept as written; say so, and how to rewrite it if it must be. */
function externalRef(at: string, ref: string, segments: string[] | undefined): UpgradeChange {
  const renamed = segments?.some((s) => s === "definitions" || s === "dependencies" || s === "additionalItems");
  const hint = renamed
    ? "; it points into names an older draft uses: upgrade the documents together (upgradeLegacyDocuments, or " +
      "upgradeDraft07Documents for draft-07) to rewrite it"
    : "";
  return {
    pointer: at,
    rule: "external-ref-kept",
    message: `$ref "${ref}" names another document; kept unchanged${hint}`,
  };
}
