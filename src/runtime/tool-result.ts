/**
 * The result half of the boundary (README "Results: `OutputSchema`"; MCP 2026-07-28, SEP-2106): for a tool with an
 * `outputSchema`, what `dispatch` returned is read as an MCP `CallToolResult`. A tool error (`isError: true`) passes
 * as it is; any other result must carry `structuredContent` that the output schema accepts.
 */

import { errorMessage } from "../engine/errors.js";
import { isObject, preview } from "../engine/json.js";
import { InputSchemaError } from "./input-schema-error.js";
import type { CompiledOutputSchema } from "./output-schema.js";
import { err, ok, type Result } from "./result.js";

function refused(message: string, instancePointer: string, cause?: unknown): { ok: false; error: InputSchemaError } {
  return err(
    new InputSchemaError({
      class: "validation",
      code: "output_invalid",
      message,
      instancePointer,
      ...(cause === undefined ? {} : { cause }),
    }),
  );
}

/** Checks a `CallToolResult` against the tool's compiled output schema; on success returns the very same value. */
export function checkToolResult<T>(result: T, output: CompiledOutputSchema): Result<T, InputSchemaError> {
  const value: unknown = result;
  if (!isObject(value)) return refused(`the result is not a CallToolResult object, got ${preview(value)}`, "");
  let structured: unknown;
  try {
    // Own fields only: an inherited (or polluted) isError must not waive the check.
    if (Object.hasOwn(value, "isError") && value["isError"] === true) return ok(result);
    structured = Object.hasOwn(value, "structuredContent") ? value["structuredContent"] : undefined;
  } catch (e) {
    return refused(`the result could not be read: ${errorMessage(e)}`, "", e);
  }
  if (structured === undefined) {
    return refused("the result has no structuredContent, which the tool's output schema requires", "");
  }
  const checked = output.validate(structured);
  return checked.ok ? ok(result) : checked;
}
