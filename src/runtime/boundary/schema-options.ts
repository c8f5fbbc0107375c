/**
 * Options of the schema boundaries (docs/guide/boundary.md): the `compile` options plus the
 * boundary's own, checked fail closed by one table. A boundary option is one more entry here.
 */

import { errorMessage } from "../../engine/errors.js";
import { compileOptionChecks, expecting, optionsProblem, type OptionTable } from "../../engine/options.js";
import { BoundaryError } from "../errors/boundary-error.js";
import { dialectOptionChecks } from "./dialects/mode.js";
import { SchemaCache } from "./schema-cache.js";

export const schemaOptionChecks: OptionTable = new Map([
  ...compileOptionChecks,
  ["cache", expecting((v) => v instanceof SchemaCache, "a SchemaCache")],
  ...dialectOptionChecks,
]);

/** An `options_invalid` error for the first problem with a boundary's options, or undefined. Never throws. */
export function schemaOptionsError(options: unknown, what: string): BoundaryError | undefined {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, schemaOptionChecks, what);
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    problem = `${what} options could not be read: ${errorMessage(e)}`;
  }
  return problem === undefined
    ? undefined
    : new BoundaryError({ class: "validation", code: "options_invalid", message: problem });
}
