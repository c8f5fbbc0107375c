/** Errors of batch admission and the gateways: data with a class and a stable code, never thrown at the host. */

import type { ErrorClass } from "../engine/errors.js";
import type { InputSchemaError } from "./input-schema-error.js";

export interface CatalogError {
  class: ErrorClass;
  /** e.g. "catalog_invalid", "tool_invalid", "tool_name_invalid", "tool_revision_missing", "tool_description_invalid",
   * "backend_unknown", "tool_duplicate", "authority_invalid", "grant_unknown_tool", "schema_rejected". */
  code: string;
  message: string;
  tool?: { name: string; revision: string };
  /** The tool's own `InputSchema.validateSchema` error, unchanged. */
  cause?: InputSchemaError;
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
