/**
 * What checking a tool against a provider profile reports (docs/guide/providers.md): the outcome, every change
 * made with its pointer, and refusals as `unsupported_capability` / `provider_unsupported` errors naming the rule,
 * the keyword and the JSON Pointer. Plain frozen data: it serialises as it is, for a CLI or a host's log.
 */

import type { ProviderError, ToolField } from "../errors/details.js";

export type { ProviderError, ToolField } from "../errors/details.js";

/** How a tool fares against a profile. */
export type ToolOutcome =
  /** Sent as published (the very same schema object). */
  | "fits"
  /**
   * Sent rewritten, with the same set of valid arguments (and possibly renamed, with a reversible map); or, when asked
   * (`narrow`, `encode`), with fewer of them or optional ones encoded: the changes' kinds say which.
   */
  | "translated"
  /** Sent with constraints the provider refuses removed; the boundary still enforces the original schema. */
  | "widened"
  /** Cannot be sent to this provider without changing which arguments are valid. */
  | "refused";

/**
 * What a change does to the arguments the model may send, and what a host must do about it:
 * - `exact`: the same arguments, nothing to do;
 * - `widened`: more arguments (`widen: true`), safe only because the boundary checks the original schema;
 * - `narrowed`: fewer arguments (`narrow: true`: an open object closed, a property that accepts null made required);
 *   every call the model can make is one the original accepts as it is, and nothing needs doing;
 * - `encoded`: an optional property sent required and nullable (`encode: true`), a null meaning "absent": the host
 *   passes each model call through the request's `decodeCall` before `Execution.invoke`, which checks the decoded
 *   call against the original schema.
 */
export type ChangeKind = "exact" | "widened" | "narrowed" | "encoded";

/** One change made for a provider. */
export interface ProviderChange {
  /** The part of the tool changed. */
  readonly field: ToolField;
  /** JSON Pointer into the original schema (`""` for the name). */
  readonly pointer: string;
  /** The keyword changed (`name` for the tool name). */
  readonly keyword: string;
  /** The profile rule that asked for it. */
  readonly rule: string;
  /** What the change does to the arguments the model may send (see `ChangeKind`). */
  readonly kind: ChangeKind;
  /** A stable code for the change, e.g. `ref-inlined`, `const-to-enum`, `keyword-dropped`. */
  readonly change: string;
  /** One line saying what was done. */
  readonly message: string;
  /** For a widening: the value removed (what the boundary still enforces). */
  readonly dropped?: unknown;
}

/** A frozen `ProviderError`. */
export function providerError(fields: ProviderError): ProviderError {
  return Object.freeze({ ...fields });
}

/** What a refusal names: the profile, the part of the tool, the rule, the keyword, the pointer, and why. */
type RefusalFields = Pick<ProviderError, "profile" | "rule" | "keyword" | "schemaPointer" | "message"> & {
  readonly field: ToolField;
};

/** A refusal by a profile rule. */
export function refusal({ profile, field, rule, keyword, schemaPointer, message }: RefusalFields): ProviderError {
  return providerError({
    class: "unsupported_capability",
    code: "provider_unsupported",
    message,
    profile,
    rule,
    keyword,
    schemaPointer,
    field,
  });
}
