/**
 * What a keyword's boolean path does, told as data, so that the verdict fast path (`engine/verdict`) can decide an
 * instance without evaluating it on the accounted path (docs/project/performance.md "The verdict fast path"). A keyword
 * (or a fusion) that gives a form promises that its boolean path is exactly what the form says: the same verdict, and
 * at most the steps the form counts. The plain keyword stays the specification; the fast path is tested against it.
 */

import type { CompiledPattern } from "../regex/index.js";
import type { Meter, Subschema } from "./run.js";

/** A keyword's boolean path as data: one of the forms below. */
export type VerdictForm = CheckForm | MembersForm | ItemsForm | ContainsForm | InPlaceForm | ChoiceForm | ConditionForm;

/**
 * An assertion decided by its test of the value, which charges its work to the meter it is given (the accounted path's
 * run, or the fast path's own): the fast path counts exactly what the accounted path would.
 */
export interface CheckForm {
  readonly kind: "check";
  readonly test: (value: unknown, meter: Meter) => boolean;
  /** The test charges nothing and reads no limit (it ignores the meter). */
  readonly pure: boolean;
  /** The test as data when it is a numeric bound: a number passes within it, any other value passes. */
  readonly range?: NumericRange;
  /**
   * The test as data when it is a short list of JSON scalars (`enum`, `const`): a value passes when it is `===` one of
   * them (JSON equality, for scalars: 1 equals 1.0).
   */
  readonly values?: readonly Scalar[];
}

/** A JSON scalar: a string, a finite number, a boolean or null. */
export type Scalar = string | number | boolean | null;

/** Whether a value is a JSON scalar (between two of them, `===` is JSON equality). */
export function isScalar(v: unknown): v is Scalar {
  return typeof v === "string" || typeof v === "boolean" || v === null || (typeof v === "number" && Number.isFinite(v));
}

/**
 * A numeric bound as data (`minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`): a number `n` is within it
 * when `n >= atLeast && n > above && n <= atMost && n < below`; a bound not given is infinite.
 */
export interface NumericRange {
  readonly atLeast: number;
  readonly above: number;
  readonly atMost: number;
  readonly below: number;
}

/** No bound: every number. */
export const UNBOUNDED: NumericRange = Object.freeze({
  atLeast: -Infinity,
  above: -Infinity,
  atMost: Infinity,
  below: Infinity,
});

/**
 * Subschemas applied to an object's members by name, by pattern, and to the other members (`properties`, `required`,
 * `patternProperties` and `additionalProperties`, fused): a declared name's member gets its subschema, a member whose
 * name matches a pattern that pattern's subschema, and a member neither declared nor matched `additional`.
 */
export interface MembersForm {
  readonly kind: "members";
  readonly names: readonly string[];
  readonly nodes: readonly Subschema[];
  /** Whether each declared name must be present. */
  readonly required: readonly boolean[];
  /** Names that must be present and have no subschema of their own. */
  readonly requiredElsewhere: readonly string[];
  /** Patterns every member name is tested against (each once, the work charged to the meter), and their subschemas. */
  readonly patterns: readonly CompiledPattern[];
  readonly patternNodes: readonly Subschema[];
  /** The subschema of every member neither declared nor matched; undefined when nothing applies to them. */
  readonly additional: Subschema | undefined;
  /** Steps charged for an object, besides its members' entries. */
  readonly steps: number;
  /** Steps charged per own key of the object. */
  readonly stepsPerKey: number;
}

/** Subschemas applied to an array's items: the first ones by index (`prefixItems`), the rest from `from` (`items`). */
interface ItemsForm {
  readonly kind: "items";
  /** Subschemas of the items at the same index. */
  readonly prefix: readonly Subschema[];
  /** The subschema of every item from `from` on, when given. */
  readonly rest: Subschema | undefined;
  readonly from: number;
}

/** A subschema the items of an array are counted against: from `min` to `max` of them must pass (`contains`). */
interface ContainsForm {
  readonly kind: "contains";
  readonly node: Subschema;
  readonly min: number;
  readonly max: number | undefined;
}

/** Subschemas applied to the instance itself, all of which must pass (`allOf`, a static `$ref`). */
interface InPlaceForm {
  readonly kind: "in-place";
  readonly nodes: readonly Subschema[];
}

/**
 * Subschemas applied to the instance itself, from `least` to `most` of which must pass: at least one (`anyOf`),
 * exactly one (`oneOf`), or none (`not`, of its one subschema). The boolean path may stop once the answer is known.
 */
export interface ChoiceForm {
  readonly kind: "choice";
  readonly nodes: readonly Subschema[];
  readonly least: number;
  readonly most: number;
}

/**
 * A subschema applied to the instance itself that selects which of two others applies (`if`, `then`, `else`): `then`
 * when it passes, `else` when not; a branch not given passes.
 */
export interface ConditionForm {
  readonly kind: "condition";
  readonly condition: Subschema;
  readonly then: Subschema | undefined;
  readonly else: Subschema | undefined;
}
