/**
 * `InputSchema`: the MCP tool-call boundary for arguments (docs/guide/boundary.md). Tool input schemas
 * have an object root and arguments are a JSON object; everything else is the boundary `OutputSchema` shares.
 */

import { isObject, preview } from "../../engine/json/json.js";
import { BoundaryError } from "../errors/boundary-error.js";
import { ok, type Result } from "../errors/result.js";
import {
  compileSchema,
  CompiledSchema,
  type BoundaryPolicy,
  type CompiledParts,
  type SchemaBoundaryOptions,
} from "./schema-boundary.js";

/** Options of `InputSchema.validateSchema` / `validate` (docs/guide/boundary.md). */
export type InputSchemaOptions = SchemaBoundaryOptions;

/**
 * A tool input schema that compiled; `validate` checks arguments and is the hot path. `T`: the type of valid
 * arguments, as the caller declares it (default: a JSON object).
 */
export class CompiledInputSchema<T = Record<string, unknown>> extends CompiledSchema<T> {
  /** The caller's schema, the very same object, unchanged. */
  declare readonly schema: Readonly<Record<string, unknown>>;

  /** @internal */
  constructor(schema: Readonly<Record<string, unknown>>, parts: CompiledParts) {
    super(schema, parts, ARGUMENTS);
  }
}

/** A tool input schema's root is an object whose `type`, when present, is exactly `"object"` or `["object"]`. */
function rootProblem(schema: unknown): BoundaryError | undefined {
  if (!isObject(schema)) {
    return new BoundaryError({
      class: "validation",
      code: "root_not_object",
      message: `a tool input schema must be a JSON object, got ${preview(schema)}`,
      schemaPointer: "",
    });
  }
  if (!Object.hasOwn(schema, "type")) return undefined;
  const type = schema["type"];
  if (type === "object" || (Array.isArray(type) && type.length === 1 && type[0] === "object")) return undefined;
  return new BoundaryError({
    class: "validation",
    code: "root_not_object",
    message: `a tool input schema's root "type" must be exactly "object", got ${preview(type)}`,
    schemaPointer: "/type",
  });
}

const ARGUMENTS: BoundaryPolicy = Object.freeze({
  boundary: "InputSchema",
  subject: "arguments",
  schemaName: "input schema",
  code: "arguments_invalid",
  objectValue: true,
  rootProblem,
  modelSubject: "arguments",
});

/** The tool-call boundary for arguments: tool input schemas compiled once, arguments checked before anything runs. */
export const InputSchema = Object.freeze({
  /**
   * Compiles a tool input schema, or says why it cannot be used. Never throws. `T` types valid arguments (default
   * a JSON object).
   */
  validateSchema<T = Record<string, unknown>>(
    schema: unknown,
    options: InputSchemaOptions = {},
  ): Result<CompiledInputSchema<T>, BoundaryError> {
    const compiled = compileSchema(schema, options, ARGUMENTS);
    return compiled.ok ? ok(new CompiledInputSchema<T>(schema as Record<string, unknown>, compiled.value)) : compiled;
  },

  /** Compiles the schema and checks the arguments in one call; `T` types valid arguments. Never throws. */
  validate<T = Record<string, unknown>>(
    schema: unknown,
    args: unknown,
    options: InputSchemaOptions = {},
  ): Result<T, BoundaryError> {
    const compiled = InputSchema.validateSchema<T>(schema, options);
    return compiled.ok ? compiled.value.validate(args) : compiled;
  },
});
