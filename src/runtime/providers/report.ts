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
  /** Sent rewritten, with the same set of valid arguments (and possibly renamed, with a reversible map). */
  | "translated"
  /** Sent with constraints the provider refuses removed; the boundary still enforces the original schema. */
  | "widened"
  /** Cannot be sent to this provider without changing which arguments are valid. */
  | "refused";

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
