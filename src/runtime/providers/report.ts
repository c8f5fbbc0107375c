/**
 * What checking a tool against a provider profile reports (README "Provider profiles"): the outcome, every change
 * made with its pointer, and refusals as `unsupported_capability` / `provider_unsupported` errors naming the rule,
 * the keyword and the JSON Pointer. Plain frozen data: it serialises as it is, for a CLI or a host's log.
 */

import type { ErrorClass } from "../../engine/errors.js";

/** How a tool fares against a profile. */
export type ToolOutcome =
  /** Sent as published (the very same schema object). */
  | "fits"
  /** Sent rewritten, with the same set of valid arguments (and possibly renamed, with a reversible map). */
  | "translated"
  /** Sent with constraints the provider refuses removed; the boundary still enforces the original schema. */
  | "widened"
  /** Cannot be sent to this provider without changing which arguments are valid. */
  | "refused";

/** Which part of a tool a change or a refusal is about. */
export type ToolField = "name" | "inputSchema" | "outputSchema";

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
  /** `exact` keeps every verdict; `widened` accepts more (safe only behind the boundary). */
  readonly kind: "exact" | "widened";
  /** A stable code for the change, e.g. `ref-inlined`, `const-to-enum`, `keyword-dropped`. */
  readonly change: string;
  /** One line saying what was done. */
  readonly message: string;
  /** For a widening: the value removed (what the boundary still enforces). */
  readonly dropped?: unknown;
}

/** Why a tool cannot be sent as it is, or why the check could not run. */
export interface ProviderError {
  /** `unsupported_capability` for a refusal; `validation` for bad options; `execution_failure` for a limit. */
  readonly class: ErrorClass;
  /** `provider_unsupported`, `options_invalid`, `tool_invalid` or `limit_exceeded`. */
  readonly code: string;
  /** One line, plain English. */
  readonly message: string;
  /** The profile's id (empty when the target itself was unusable). */
  readonly profile: string;
  /** The rule (an id `activeRules` lists), e.g. `closed-objects`; empty for options and limits. */
  readonly rule: string;
  /** The keyword the rule refuses (`name` for the tool name, empty when none). */
  readonly keyword: string;
  /** JSON Pointer into the original schema (`""` for the root or the name). */
  readonly schemaPointer: string;
  /** The part of the tool refused. */
  readonly field?: ToolField;
}

/** A frozen `ProviderError`. */
export function providerError(fields: ProviderError): ProviderError {
  return Object.freeze({ ...fields });
}

/** A refusal by a profile rule. */
export function refusal(
  profile: string,
  field: ToolField,
  rule: string,
  keyword: string,
  schemaPointer: string,
  message: string,
): ProviderError {
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
