/**
 * The result half of the boundary (docs/guide/boundary.md "Results: `OutputSchema`"; MCP 2026-07-28, SEP-2106): for a
 * tool with an `outputSchema`, what `dispatch` returned is read as an MCP `CallToolResult`. A tool error (`isError:
 * true`) need not carry `structuredContent`, but one it carries is checked like any other (as the MCP SDK clients do);
 * any other result must carry `structuredContent` that the output schema accepts.
 */

import { errorMessage } from "../../engine/errors.js";
import { isObject, preview } from "../../engine/json/json.js";
import { BoundaryError } from "../errors/boundary-error.js";
import type { CompiledOutputSchema } from "../boundary/output-schema.js";
import { err, ok, type Result } from "../errors/result.js";

function refused(message: string, instancePointer: string, ...cause: [unknown?]): { ok: false; error: BoundaryError } {
  return err(
    new BoundaryError({
      class: "validation",
      code: "output_invalid",
      message,
      instancePointer,
      ...(cause.length > 0 ? { cause: cause[0] } : {}),
    }),
  );
}

/** An own field, read once: absent, an accessor (not JSON data), or its value. */
function ownField(object: object, key: string): { found: false } | { found: true; accessor: boolean; value?: unknown } {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return { found: false };
  if (descriptor.get !== undefined || descriptor.set !== undefined) return { found: true, accessor: true };
  return { found: true, accessor: false, value: descriptor.value };
}

/**
 * Checks a `CallToolResult` against the tool's compiled output schema; on success returns the very same value. Its
 * `isError` and `structuredContent` are own data fields read once, so what is checked is what the host gets.
 */
export function checkToolResult<T>(result: T, output: CompiledOutputSchema): Result<T, BoundaryError> {
  const value: unknown = result;
  let structured: unknown;
  try {
    if (!isObject(value)) return refused(`the result is not a CallToolResult object, got ${preview(value)}`, "");
    // Own fields only: an inherited (or polluted) isError must not waive the check.
    const isError = ownField(value, "isError");
    if (isError.found && isError.accessor) return refused(accessor("isError"), "/isError");
    const toolError = isError.found && isError.value === true;
    const content = ownField(value, "structuredContent");
    if (content.found && content.accessor) return refused(accessor("structuredContent"), "/structuredContent");
    structured = content.found ? content.value : undefined;
    // A tool error without structuredContent is returned as it is; one it carries is checked all the same.
    if (structured === undefined && toolError) return ok(result);
  } catch (e) {
    return refused(`the result could not be read: ${errorMessage(e)}`, "", e);
  }
  if (structured === undefined) {
    return refused("the result has no structuredContent, which the tool's output schema requires", "");
  }
  const checked = output.validate(structured);
  return checked.ok ? ok(result) : checked;
}

function accessor(field: string): string {
  return `the result's ${field} is an accessor property, which is not JSON data`;
}
