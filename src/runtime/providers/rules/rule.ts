/**
 * The protocol between the rewriting walk and the rules it applies to each schema object: a rule looks at one
 * draft and reports its first problem, with the exact rewrite that removes it (same verdicts) and, where there is
 * one, the widening that does (more accepted), the narrowing that does (less accepted, what the model may send
 * shrinks) or the encoding that does (a representation the call decoder takes back). The walk applies the exact one,
 * the others only when asked and safe, and otherwise records a refusal.
 */

import type { Draft } from "../translation/draft.js";
import type { ProviderProfile } from "../profiles/profile.js";
import type { Polarity, RefGraph } from "../translation/ref-graph.js";
import type { ToolField } from "../../errors/details.js";

/** Where a schema object sits. */
export interface Place {
  /** Its pointer in the original schema. */
  readonly at: string;
  readonly polarity: Polarity;
  readonly root: boolean;
  readonly depth: number;
  /** The keyword holding it (`properties`, `items`, `anyOf`, …). */
  readonly via?: string;
  /** Its property name, when `via` is `properties`. */
  readonly key?: string;
  /** The parent's `required`, when `via` is `properties`. */
  readonly parentRequired?: readonly unknown[];
}

/** A rewrite of the draft a rule looked at. */
export interface Remedy {
  /** The change's stable code. */
  readonly change: string;
  readonly message: string;
  /** For a widening: the value removed. */
  readonly dropped?: unknown;
  /** The pointer the change is listed at, when not the finding's (one finding, one change per property). */
  readonly at?: string;
  apply(): void;
}

/** A problem one rule found in one draft. */
export interface Finding {
  readonly rule: string;
  readonly keyword: string;
  /** Pointer of the offending keyword in the original schema. */
  readonly at: string;
  /** Why the provider refuses it, one line. */
  readonly message: string;
  readonly exact?: Remedy;
  readonly widen?: Remedy;
  /** Accepts less: every instance the rewrite accepts, the original accepts (`narrow: true`). */
  readonly narrow?: Remedy;
  /** Changes the representation: the call decoder maps what the rewrite accepts back (`encode: true`). */
  readonly encode?: Remedy;
  /** The schema object the offending keyword came from (for widening safety); the draft's own by default. */
  readonly from?: string;
}

/** What a rule may consult. */
export interface RuleContext {
  readonly profile: ProviderProfile;
  readonly graph: RefGraph;
  readonly field: ToolField;
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  /** Whether narrowings are asked for (`narrow: true`). */
  readonly narrow: boolean;
  /** Whether encodings are asked for (`encode: true`). */
  readonly encode: boolean;
  /** Closed arguments: an object is closed only where that refuses no property the schema declares elsewhere. */
  readonly declaredOnly: boolean;
  /** Whether the walk has already refused this (pointer, rule, keyword): a rule then looks further. */
  skip(at: string, rule: string, keyword: string): boolean;
}

/** One rule: the first problem it finds in a draft, or undefined. */
export type Rule = (draft: Draft, place: Place, context: RuleContext) => Finding | undefined;
