/**
 * What a subschema evaluates whenever it passes (Core §11: the annotations `unevaluatedProperties` and
 * `unevaluatedItems` read), when that is known at compile time: declared names, patterns, "all", a prefix of items.
 * `undefined` stands for "it depends on the instance" (which branch of an `anyOf` passed, whether `if` matched);
 * then evaluation collects marks instead.
 */

import type { CompiledPattern } from "../regex/index.js";

/** The properties a subschema evaluates whenever it passes. */
export interface EvaluatedProperties {
  /** Every property (`additionalProperties`, `unevaluatedProperties`). */
  readonly all: boolean;
  /** The names `properties` declares (present ones are evaluated). */
  readonly names: readonly ReadonlySet<string>[];
  /** The patterns of `patternProperties` (matching names are evaluated). */
  readonly patterns: readonly CompiledPattern[];
}

/** The items a subschema evaluates whenever it passes. */
export interface EvaluatedItems {
  /** Every item (`items`, `unevaluatedItems`). */
  readonly all: boolean;
  /** The items below this index (`prefixItems`). */
  readonly prefix: number;
}

export const NO_PROPERTIES: EvaluatedProperties = Object.freeze({ all: false, names: [], patterns: [] });
export const ALL_PROPERTIES: EvaluatedProperties = Object.freeze({ all: true, names: [], patterns: [] });
export const NO_ITEMS: EvaluatedItems = Object.freeze({ all: false, prefix: 0 });

/** An applicator's `evaluatedProperties` when it evaluates no property: one function for all of them. */
export const evaluatesNoProperties = (): EvaluatedProperties => NO_PROPERTIES;

/** An applicator's `evaluatedItems` when it evaluates no item: one function for all of them. */
export const evaluatesNoItems = (): EvaluatedItems => NO_ITEMS;
export const ALL_ITEMS: EvaluatedItems = Object.freeze({ all: true, prefix: 0 });

/** What several keywords or subschemas that all pass evaluate together; unknown when any part is. */
export function unionProperties(parts: readonly (EvaluatedProperties | undefined)[]): EvaluatedProperties | undefined {
  let all = false;
  const names: ReadonlySet<string>[] = [];
  const patterns: CompiledPattern[] = [];
  for (const part of parts) {
    if (part === undefined) return undefined;
    all ||= part.all;
    names.push(...part.names);
    patterns.push(...part.patterns);
  }
  return all ? ALL_PROPERTIES : names.length === 0 && patterns.length === 0 ? NO_PROPERTIES : { all, names, patterns };
}

/** The same for items. */
export function unionItems(parts: readonly (EvaluatedItems | undefined)[]): EvaluatedItems | undefined {
  let all = false;
  let prefix = 0;
  for (const part of parts) {
    if (part === undefined) return undefined;
    all ||= part.all;
    prefix = Math.max(prefix, part.prefix);
  }
  return all ? ALL_ITEMS : prefix === 0 ? NO_ITEMS : { all, prefix };
}

/**
 * What a choice among branches evaluates (`anyOf`, `oneOf`, `if`, `dependentSchemas`): nothing when no branch
 * evaluates anything, else unknown (which branches pass depends on the instance).
 */
export function choiceProperties(parts: readonly (EvaluatedProperties | undefined)[]): EvaluatedProperties | undefined {
  return parts.every((p) => p === NO_PROPERTIES) ? NO_PROPERTIES : undefined;
}

/** The same for items. */
export function choiceItems(parts: readonly (EvaluatedItems | undefined)[]): EvaluatedItems | undefined {
  return parts.every((p) => p === NO_ITEMS) ? NO_ITEMS : undefined;
}
