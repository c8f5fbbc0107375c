/** Errors of batch admission and the gateways: data with a class and a stable code, never thrown at the host. */

import type { ErrorClass } from "../../engine/errors.js";
import type { BackplaneError } from "./backplane-error.js";
import type { BoundaryError } from "./boundary-error.js";
import type { ErrorCode } from "./codes.js";
import type { HiddenText, ProviderError } from "./details.js";

/**
 * Why a batch was refused (or a conversation could not start or be restored). Host data, never model text: a
 * catalog's errors quote what its server chose.
 */
export interface CatalogError extends BackplaneError<ErrorCode<"catalog">> {
  /** The error class (docs/reference/errors.md "Error classes"); for `schema_rejected`, the schema's error's. */
  class: ErrorClass;
  /** One of `ErrorCode<"catalog">` (docs/reference/errors.md "Every code": admission's and a conversation's). */
  code: ErrorCode<"catalog">;
  /** One line for the host, plain English. */
  message: string;
  /** The tool the error is about, when there is one. */
  tool?: {
    /** The tool name. */
    name: string;
    /** The descriptor's revision. */
    revision: string;
  };
  /** For `header_invalid`: the JSON Pointer of the offending `x-mcp-header` in the input schema. */
  schemaPointer?: string;
  /** For `schema_rejected`: which of the tool's schemas was refused. */
  schema?: "inputSchema" | "outputSchema";
  /** For `schema_rejected`: the schema's own `validateSchema` error, unchanged (for `tool_invalid`, when known). */
  cause?: BoundaryError<ErrorCode<"boundary" | "identity">>;
  /**
   * For `tool_changed` (and a `checkpoint_mismatch` of one tool): the JSON Pointers into the provider tool that
   * differ from the pin, `[""]` when the pin is a digest.
   */
  fields?: string[];
  /** For `hidden_text`: where the invisible or reordering characters are, and which they are. */
  hiddenText?: HiddenText[];
  /**
   * For a required provider target's refusal (`provider_unsupported`): the profile, the rule, the keyword and the
   * JSON Pointer into the schema as admission compiled it (docs/guide/providers.md).
   */
  provider?: ProviderError;
}

/** A `CatalogError` of `code`, about `tool` when given (a caller adds the details its code carries). */
export function catalogError(
  cls: ErrorClass,
  code: ErrorCode<"catalog">,
  message: string,
  tool?: { name: string; revision: string },
): CatalogError {
  const error: CatalogError = { class: cls, code, message };
  if (tool !== undefined) error.tool = tool;
  return error;
}

/**
 * How an entry point (`what`) refuses its option `name`: a reader states the problem with the value ("must be …"),
 * this makes it the entry point's `options_invalid`, naming both.
 */
export function optionRefusal(what: string, name: string): (problem: string) => CatalogError {
  return (problem) => catalogError("validation", "options_invalid", `${what} option "${name}" ${problem}`);
}
