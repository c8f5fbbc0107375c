/**
 * The walk that rewrites one schema for a profile: top-down, each schema object's rules applied until none finds a
 * problem (an exact rewrite always; a widening only when asked for and only where accepting more is accepting more),
 * then its subschemas. The input is never modified; every change and refusal names a pointer into it. `$defs`
 * entries no kept reference needs are dropped when one of them would need a change (they decide no verdict).
 */

import { defineOwn, isObject } from "../../engine/json/json.js";
import { appendPointer, getAt, parsePointer } from "../../engine/json/pointer.js";
import { decodePlan, type DecodeNode } from "./translation/decode-plan.js";
import { Draft, type Child, type Entry } from "./translation/draft.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { childPolarity, RefGraph, WalkLimit } from "./translation/ref-graph.js";
import type { ChangeKind, ProviderChange, ToolField } from "./report.js";
import { RULES } from "./rules/index.js";
import type { Finding, Place, Remedy, RuleContext } from "./rules/rule.js";

/** How one schema is walked. */
export interface WalkOptions {
  readonly field: ToolField;
  readonly widen: boolean;
  readonly narrow: boolean;
  readonly encode: boolean;
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  readonly maxDepth: number;
  readonly maxNodes: number;
  /** Closed arguments (closed-arguments.ts): close an object only where nothing declared elsewhere is refused. */
  readonly declaredOnly?: boolean;
}

/** A refusal found by the walk, with its pointer into the original schema. */
interface WalkProblem {
  readonly rule: string;
  readonly keyword: string;
  readonly pointer: string;
  readonly message: string;
  /** A widening would remove it, had it been asked for. */
  readonly widenable: boolean;
}

/** The rewritten schema, what changed, what is refused, and where the call decoder turns nulls back into absence. */
export interface WalkResult {
  readonly schema: unknown;
  readonly changes: readonly ProviderChange[];
  readonly problems: readonly WalkProblem[];
  /** The decode plan, when some optional property was encoded. */
  readonly decoder?: DecodeNode;
}

/** Why a narrowing or widening asked for was not made (`Place.polarity`). */
const NOT_POSITIVE = "it sits under not, if, oneOf or a bounded contains";

/** A keyword holding subschemas, with the draft and the place of the schema object it belongs to. */
interface Holder {
  readonly keyword: string;
  readonly draft: Draft;
  readonly place: Place;
}

/** A `$defs` or `definitions` entry. */
type Definitions = Entry & { kind: "map" };

/** Rewrites of one schema object before a rule must have found everything (each rewrite removes a problem). */
const MAX_REWRITES = 1_000;

/** Rewrites `schema` for `profile`. Throws `WalkLimit` when a bound is hit. */
export function walk(schema: unknown, profile: ProviderProfile, options: WalkOptions): WalkResult {
  return new Walk(schema, profile, options).run();
}

class Walk implements RuleContext {
  readonly graph: RefGraph;
  readonly field: ToolField;
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  readonly narrow: boolean;
  readonly encode: boolean;
  readonly declaredOnly: boolean;
  private readonly changes: ProviderChange[] = [];
  private readonly changeKeys: string[] = [];
  private readonly problems: WalkProblem[] = [];
  private readonly problemKeys: string[] = [];
  private readonly seen = new Set<string>();
  private readonly refused = new Set<string>();
  private readonly kept: { at: string; target: string }[] = [];
  private readonly origin = new WeakMap<object, string>();
  private readonly encodedAt = new WeakMap<object, readonly string[]>();
  private nodes = 0;

  constructor(
    private readonly root: unknown,
    readonly profile: ProviderProfile,
    private readonly options: WalkOptions,
  ) {
    this.graph = new RefGraph(root, options.maxDepth, options.maxNodes);
    this.field = options.field;
    this.formatAssertion = options.formatAssertion;
    this.contentAssertion = options.contentAssertion;
    this.narrow = options.narrow;
    this.encode = options.encode;
    this.declaredOnly = options.declaredOnly ?? false;
  }

  run(): WalkResult {
    const schema = this.node({ value: this.root, at: "" }, { at: "", polarity: "positive", root: true, depth: 0 });
    this.checkKeptTargets(schema);
    if (!this.changes.some((c) => c.kind === "encoded"))
      return { schema, changes: this.changes, problems: this.problems };
    const { plan, unreachable } = decodePlan(schema, this.encodedAt);
    for (const object of unreachable) {
      const at = appendPointer(this.origin.get(object) ?? "", "required");
      const message =
        "an optional property encoded as nullable sits where the call decoder cannot tell which schema a call takes " +
        "(under not, if, oneOf, prefixItems, additionalProperties, or an anyOf whose branches share a type)";
      this.refuse({ rule: "required-all", keyword: "required", at, message });
    }
    return { schema, changes: this.changes, problems: this.problems, ...(plan === undefined ? {} : { decoder: plan }) };
  }

  skip(at: string, rule: string, keyword: string): boolean {
    return this.refused.has(`${at}|${rule}|${keyword}`);
  }

  private node(child: Child, place: Place): unknown {
    if (++this.nodes > this.options.maxNodes) throw new WalkLimit("maxSchemaNodes", this.options.maxNodes);
    if (place.depth > this.options.maxDepth) throw new WalkLimit("maxSchemaDepth", this.options.maxDepth);
    const value = child.value;
    if (typeof value === "boolean") return this.booleanSchema(value, place);
    if (!(value instanceof Draft) && !isObject(value)) {
      this.refuse({ rule: "keyword-unsupported", keyword: "", at: place.at, message: "not a schema" });
      return value;
    }
    const draft = value instanceof Draft ? value.clone() : Draft.of(value, child.at);
    this.applyRules(draft, place);
    return this.emit(draft, place);
  }

  private booleanSchema(value: boolean, place: Place): unknown {
    if (place.root && this.profile.structure.rootType) {
      const message = `the root is the boolean schema ${value}, not type "object"`;
      this.refuse({ rule: "root-type", keyword: "", at: place.at, message });
      return value;
    }
    if (this.profile.structure.booleanSchemas || place.via === "additionalProperties") return value;
    const finding: Finding = {
      rule: "boolean-schema",
      keyword: "",
      at: place.at,
      message: `the boolean schema ${value}: ${this.profile.id} takes schema objects only`,
    };
    if (value) {
      this.record(finding, { change: "true-to-empty", message: "true → {}", apply: () => {} }, "exact");
      return {};
    }
    if (this.canWiden(place, place.at)) {
      this.record(
        finding,
        { change: "false-widened", message: "false → {}", dropped: false, apply: () => {} },
        "widened",
      );
      return {};
    }
    this.refuse({ ...finding, widen: { change: "", message: "", apply: () => {} } });
    return value;
  }

  private applyRules(draft: Draft, place: Place): void {
    for (let i = 0; ; i++) {
      if (i > MAX_REWRITES) throw new WalkLimit("maxSchemaRewrites", MAX_REWRITES);
      let finding: Finding | undefined;
      for (const rule of RULES) {
        finding = rule(draft, place, this);
        if (finding !== undefined) break;
      }
      if (finding === undefined) return;
      if (finding.exact !== undefined) {
        finding.exact.apply();
        this.record(finding, finding.exact, "exact");
      } else if (finding.widen !== undefined && this.canWiden(place, finding.from ?? draft.at)) {
        finding.widen.apply();
        this.record(finding, finding.widen, "widened");
      } else if (finding.narrow !== undefined && this.narrow && this.positive(place, finding.from ?? draft.at)) {
        finding.narrow.apply();
        this.record(finding, finding.narrow, "narrowed");
      } else if (finding.encode !== undefined && this.encode && this.positive(place, finding.from ?? draft.at)) {
        finding.encode.apply();
        this.record(finding, finding.encode, "encoded");
      } else if (!this.refuse(finding)) {
        return;
      }
    }
  }

  /**
   * Widening accepts more only where accepting more in a subschema accepts more overall: the place's polarity, from
   * the keywords above it as rewritten (an `anyOf` made of a `oneOf` is positive: `oneOf ⊆ anyOf`), and, for schema
   * objects a reference reaches, every reference's polarity.
   */
  private canWiden(place: Place, from: string): boolean {
    return this.options.widen && this.positive(place, from);
  }

  /**
   * Whether accepting more (or less) here accepts more (or less) overall: what a widening and a narrowing both need,
   * and an encoding too (the decoder reads the instance as the schema applies to it, never through a negation).
   */
  private positive(place: Place, from: string): boolean {
    return place.polarity === "positive" && !this.graph.nonPositive.has(place.at) && !this.graph.nonPositive.has(from);
  }

  /** Records a refusal; false when it was recorded already (the rule found nothing new). */
  private refuse(finding: Finding): boolean {
    const key = `${finding.at}|${finding.rule}|${finding.keyword}`;
    if (this.refused.has(key)) return false;
    this.refused.add(key);
    // Whether widening would help is known only once the whole tool is checked again widened (checkTool says it).
    const asked = (remedy: unknown, on: boolean, what: string) =>
      remedy !== undefined && on ? ` (not ${what}: ${NOT_POSITIVE})` : "";
    const hint =
      asked(finding.widen, this.options.widen, "widened") ||
      asked(finding.narrow, this.narrow, "narrowed") ||
      asked(finding.encode, this.encode, "encoded");
    this.problems.push({
      rule: finding.rule,
      keyword: finding.keyword,
      pointer: finding.at,
      message: finding.message + hint,
      widenable: finding.widen !== undefined && !this.options.widen,
    });
    this.problemKeys.push(key);
    return true;
  }

  private record(finding: Finding, remedy: Remedy, kind: ChangeKind): void {
    const pointer = remedy.at ?? finding.at;
    const key = `${kind}|${pointer}|${finding.keyword}|${remedy.change}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.changeKeys.push(key);
    this.changes.push(
      Object.freeze({
        field: this.field,
        pointer,
        keyword: finding.keyword,
        rule: finding.rule,
        kind,
        change: remedy.change,
        message: remedy.message,
        ...(remedy.dropped === undefined ? {} : { dropped: remedy.dropped }),
      }),
    );
  }

  private emit(draft: Draft, place: Place): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const definitions: [string, Definitions][] = [];
    for (const [keyword, entry] of draft.entriesInOrder()) {
      if ((keyword === "$defs" || keyword === "definitions") && entry.kind === "map") {
        definitions.push([keyword, entry]);
        defineOwn(out, keyword, undefined);
        continue;
      }
      defineOwn(out, keyword, this.emitEntry(entry, { keyword, draft, place }));
    }
    const ref = draft.get("$ref");
    if (ref?.kind === "value" && this.profile.structure.refs !== "pass") {
      const target = this.graph.targetOf(ref.value);
      if (target !== undefined) this.kept.push({ at: ref.at, target });
    }
    for (const [keyword, entry] of definitions) this.emitDefinitions(out, { keyword, draft, place }, entry);
    this.origin.set(out, draft.at);
    if (draft.encoded().size > 0) this.encodedAt.set(out, [...draft.encoded()]);
    return out;
  }

  private emitEntry(entry: Entry, holder: Holder): unknown {
    switch (entry.kind) {
      case "value":
        return copyJson(entry.value, this.options.maxDepth, this.options.maxDepth);
      case "schema":
        return this.node(entry.child, this.childPlace(entry.child, holder));
      case "array":
        return entry.children.map((c) => this.node(c, this.childPlace(c, holder)));
      case "map": {
        const out: Record<string, unknown> = {};
        for (const [name, c] of entry.children) defineOwn(out, name, this.node(c, this.childPlace(c, holder, name)));
        return out;
      }
    }
  }

  /** The place of a subschema of `holder`; `key` is its name in a map (a property name under `properties`). */
  private childPlace(child: Child, { keyword, draft, place }: Holder, key?: string): Place {
    const required = draft.value("required");
    return {
      at: child.at,
      polarity: childPolarity(place.polarity, keyword, draft.has("maxContains")),
      root: false,
      depth: place.depth + 1,
      via: keyword,
      ...(keyword === "properties" && key !== undefined
        ? { key, parentRequired: Array.isArray(required) ? required : [] }
        : {}),
    };
  }

  /**
   * `$defs`/`definitions`: entries a kept reference needs are rewritten like any subschema; the others are kept
   * only when none of them needs a change (they decide no verdict, so dropping them is exact; all or none, as one
   * of them may refer to another). A profile without the keyword loses it whole, once no kept reference needs it.
   */
  private emitDefinitions(out: Record<string, unknown>, holder: Holder, entry: Definitions): void {
    const keywords = this.profile.keywords;
    if (keywords !== "any" && !keywords.has(holder.keyword)) return this.withoutDefinitions(out, holder.keyword, entry);
    const emitted = new Map<string, unknown>();
    const emitOne = (name: string, child: Child) =>
      emitted.set(name, this.node(child, this.childPlace(child, holder, name)));
    const pending = this.emitNeeded(entry, emitOne);
    // The rest decide no verdict: kept as they are, or all dropped when one would need a change (one kept could
    // refer to one dropped).
    if (pending.size > 0 && !this.emitUnchanged(pending, emitOne))
      for (const [name, child] of pending) {
        emitted.delete(name);
        const message = `dropped the unused definition "${name}" (no reference reaches it)`;
        this.record(
          { rule: "keyword-unsupported", keyword: holder.keyword, at: child.at, message },
          { change: "unused-definition-dropped", message, apply: () => {} },
          "exact",
        );
      }
    this.setDefinitions(out, holder.keyword, entry, emitted);
  }

  /** Whether a kept reference needs the subschema at `at` (or one inside it); with references passed, all are. */
  private needed(at: string): boolean {
    if (this.profile.structure.refs === "pass") return true;
    return this.kept.some((r) => r.target === at || r.target.startsWith(at + "/"));
  }

  /** A profile without the keyword: dropped whole, or refused when a reference that stays needs it. */
  private withoutDefinitions(out: Record<string, unknown>, keyword: string, entry: Definitions): void {
    delete out[keyword];
    // References a profile passes through unread may lead anywhere: their definitions cannot go.
    if (this.needed(entry.at)) {
      this.refuse({
        rule: "keyword-unsupported",
        keyword,
        at: entry.at,
        message: `"${keyword}" is not accepted by ${this.profile.id}, and a reference that stays needs it`,
      });
      return;
    }
    const message = `dropped "${keyword}" (every reference into it was inlined)`;
    this.record(
      { rule: "keyword-unsupported", keyword, at: entry.at, message },
      { change: "definitions-dropped", message, apply: () => {} },
      "exact",
    );
  }

  /** Emits the definitions kept references need, until none is left (emitting one can make another needed). */
  private emitNeeded(entry: Definitions, emitOne: (name: string, child: Child) => void): Map<string, Child> {
    const pending = new Map(entry.children);
    for (;;) {
      const ready = [...pending].filter(([, c]) => this.needed(c.at));
      if (ready.length === 0) return pending;
      for (const [name, child] of ready) {
        pending.delete(name);
        emitOne(name, child);
      }
    }
  }

  /** Emits `pending`; when that changed or refused anything, undoes it all and says false. */
  private emitUnchanged(pending: ReadonlyMap<string, Child>, emitOne: (name: string, child: Child) => void): boolean {
    const mark = this.mark();
    for (const [name, child] of pending) emitOne(name, child);
    if (this.changes.length === mark.changes && this.problems.length === mark.problems) return true;
    this.rollback(mark);
    return false;
  }

  private setDefinitions(
    out: Record<string, unknown>,
    keyword: string,
    entry: Definitions,
    emitted: ReadonlyMap<string, unknown>,
  ): void {
    const map: Record<string, unknown> = {};
    for (const name of entry.children.keys()) if (emitted.has(name)) defineOwn(map, name, emitted.get(name));
    defineOwn(out, keyword, map);
  }

  private mark() {
    return { changes: this.changes.length, problems: this.problems.length, kept: this.kept.length };
  }

  private rollback(mark: { changes: number; problems: number; kept: number }): void {
    for (const key of this.changeKeys.splice(mark.changes)) this.seen.delete(key);
    this.changes.length = mark.changes;
    for (const key of this.problemKeys.splice(mark.problems)) this.refused.delete(key);
    this.problems.length = mark.problems;
    this.kept.length = mark.kept;
  }

  /** Every kept `$ref` still names the rewrite of its original target (no rewrite moved it). */
  private checkKeptTargets(schema: unknown): void {
    for (const { at, target } of this.kept) {
      const found = getAt(schema, parsePointer(target) ?? []);
      const original = this.graph.at(target);
      const same =
        found !== undefined &&
        (typeof original === "boolean"
          ? found.value === original
          : isObject(found.value) && this.origin.get(found.value) === target);
      if (same) continue;
      this.refuse({
        rule: "ref-local",
        keyword: "$ref",
        at,
        message: `the $ref target ${target} did not survive the rewrite as itself, so the reference would not resolve`,
      });
    }
  }
}

/** A deep copy of a JSON value (own enumerable data properties, `__proto__` included). */
function copyJson(value: unknown, depth: number, limit: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth < 0) throw new WalkLimit("maxSchemaDepth", limit);
  if (Array.isArray(value)) return value.map((v) => copyJson(v, depth - 1, limit));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    defineOwn(out, key, copyJson((value as Record<string, unknown>)[key], depth - 1, limit));
  return out;
}
