/**
 * The structured details errors carry (`CatalogError.hiddenText`, `CatalogError.provider`): plain data shapes, defined
 * here, below the layers that produce them (identity's hidden-text scan, the provider checks), so every layer can
 * name them.
 */

import type { ErrorClass } from "../../engine/errors.js";
import type { BackplaneError } from "./backplane-error.js";
import type { ErrorCode } from "./codes.js";

/** Which part of a tool a change or a refusal is about. */
export type ToolField = "name" | "inputSchema" | "outputSchema";

/** Why a tool cannot be sent as it is, or why the check could not run. */
export interface ProviderError extends BackplaneError<ErrorCode<"provider">> {
  /** `unsupported_capability` for a refusal; `validation` for bad options; `execution_failure` for a limit. */
  readonly class: ErrorClass;
  /** `provider_unsupported`, `options_invalid`, `tool_invalid` or `limit_exceeded` (`ErrorCode<"provider">`). */
  readonly code: ErrorCode<"provider">;
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

/** Where a tool definition has text a reader cannot see, and which characters it is made of. */
export interface HiddenText {
  /** The JSON Pointer into the descriptor of the string, or of the member whose name holds the characters. */
  readonly pointer: string;
  /** The distinct hidden code points found there, ascending, as `U+XXXX` (at least four hex digits, upper case). */
  readonly codePoints: readonly string[];
}
