/**
 * A schema object being rewritten for a provider: its keywords in order, each remembering where in the original
 * schema it came from, so that every change and every refusal names a JSON Pointer the host can look up, however
 * the keyword was moved (inlined from a `$defs` entry, merged from an `allOf` branch, split into `anyOf`).
 */

import { isObject } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import { SUBSCHEMA_POSITIONS } from "./keywords.js";

/** A subschema: the original JSON value (or a draft built by a rewrite) and its pointer in the original schema. */
export interface Child {
  readonly value: unknown;
  readonly at: string;
}

interface EntryBase {
  /** Pointer of the keyword in the original schema. */
  readonly at: string;
  /** Pointer of the schema object the keyword came from. */
  readonly from: string;
  /** Added by a rewrite (no original keyword of this name stands behind it). */
  readonly synthetic: boolean;
}

/** One keyword: a plain value, one subschema, a list of subschemas or a map of them (Core §10). */
export type Entry =
  | (EntryBase & { readonly kind: "value"; readonly value: unknown })
  | (EntryBase & { readonly kind: "schema"; readonly child: Child })
  | (EntryBase & { readonly kind: "array"; readonly children: readonly Child[] })
  | (EntryBase & { readonly kind: "map"; readonly children: ReadonlyMap<string, Child> });

/** A schema object's keywords, each with its origin. Entries are immutable; a rewrite replaces them. */
export class Draft {
  private entries: Map<string, Entry>;

  constructor(
    /** Pointer of the schema object in the original schema. */
    readonly at: string,
    entries: Map<string, Entry> = new Map(),
  ) {
    this.entries = entries;
  }

  /** The draft of an original schema object: every own keyword, subschemas by their 2020-12 positions. */
  static of(raw: Readonly<Record<string, unknown>>, at: string): Draft {
    const draft = new Draft(at);
    for (const key of Object.keys(raw)) draft.entries.set(key, entryOf(key, raw[key], appendPointer(at, key), at));
    return draft;
  }

  /** An independent copy (the entries are shared, being immutable). */
  clone(): Draft {
    return new Draft(this.at, new Map(this.entries));
  }

  /** Takes over another draft's entries (after a rewrite done on a clone succeeded). */
  adopt(other: Draft): void {
    this.entries = new Map(other.entries);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  has(keyword: string): boolean {
    return this.entries.has(keyword);
  }

  get(keyword: string): Entry | undefined {
    return this.entries.get(keyword);
  }

  /** A plain keyword's value (undefined for absent keywords and subschema keywords). */
  value(keyword: string): unknown {
    const entry = this.entries.get(keyword);
    return entry?.kind === "value" ? entry.value : undefined;
  }

  /** The subschemas an `array` keyword holds (undefined when it is absent or not a list). */
  list(keyword: string): readonly Child[] | undefined {
    const entry = this.entries.get(keyword);
    return entry?.kind === "array" ? entry.children : undefined;
  }

  set(keyword: string, entry: Entry): void {
    this.entries.set(keyword, entry);
  }

  /** Sets a plain value added by a rewrite, attributed to `at` (the keyword whose rewrite made it). */
  setValue(keyword: string, value: unknown, at: string): void {
    const old = this.entries.get(keyword);
    this.entries.set(keyword, { kind: "value", value, at, from: old?.from ?? this.at, synthetic: true });
  }

  delete(keyword: string): void {
    this.entries.delete(keyword);
  }

  /** Renames a keyword in place, keeping its position among the others. */
  rename(from: string, to: string): void {
    const next = new Map<string, Entry>();
    for (const [key, entry] of this.entries) {
      if (key === from) next.set(to, { ...entry, synthetic: true });
      else if (key !== to) next.set(key, entry);
    }
    this.entries = next;
  }

  entriesInOrder(): [string, Entry][] {
    return [...this.entries];
  }
}

function entryOf(key: string, value: unknown, at: string, from: string): Entry {
  const base = { at, from, synthetic: false };
  const shape = SUBSCHEMA_POSITIONS.get(key);
  if (shape === "schema") return { ...base, kind: "schema", child: { value, at } };
  if (shape === "array" && Array.isArray(value))
    return { ...base, kind: "array", children: value.map((v, i) => ({ value: v, at: appendPointer(at, i) })) };
  if (shape === "map" && isObject(value)) {
    const children = new Map<string, Child>();
    for (const k of Object.keys(value)) children.set(k, { value: value[k], at: appendPointer(at, k) });
    return { ...base, kind: "map", children };
  }
  return { ...base, kind: "value", value };
}

/** A child as a draft; booleans as they are; undefined for a value that is not a schema. */
export function draftOf(child: Child): Draft | boolean | undefined {
  if (child.value instanceof Draft) return child.value;
  if (typeof child.value === "boolean") return child.value;
  if (isObject(child.value)) return Draft.of(child.value, child.at);
  return undefined;
}
