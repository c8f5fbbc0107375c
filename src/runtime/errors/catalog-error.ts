/** Errors of batch admission and the gateways: data with a class and a stable code, never thrown at the host. */

import type { ErrorClass } from "../../engine/errors.js";
import type { InputSchemaError } from "./input-schema-error.js";
import type { HiddenText, ProviderError } from "./details.js";

/** Why a batch was refused (or a conversation could not start or be restored). */
export interface CatalogError {
  /** The error class (docs/reference/errors.md "Error classes"); for `schema_rejected`, the schema's error's. */
  class: ErrorClass;
  /**
   * "catalog_invalid", "options_invalid", "tool_invalid", "tool_name_invalid", "tool_revision_missing",
   * "header_invalid",
   * "tool_description_invalid", "backend_unknown", "tool_duplicate", "authority_invalid", "grant_unknown_tool",
   * "schema_rejected", "tool_changed", "tool_unpinned", "hidden_text", "provider_unsupported" (and a provider check's
   * "limit_exceeded" or "tool_invalid"); for a conversation also
   * "checkpoint_invalid", "checkpoint_mismatch", "tool_not_held".
   */
  code: string;
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
  cause?: InputSchemaError;
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

export function catalogError(
  cls: ErrorClass,
  code: string,
  message: string,
  tool?: { name: string; revision: string },
  cause?: InputSchemaError,
): CatalogError {
  const error: CatalogError = { class: cls, code, message };
  if (tool !== undefined) error.tool = tool;
  if (cause !== undefined) error.cause = cause;
  return error;
}
