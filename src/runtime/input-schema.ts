/**
 * `InputSchema`: the MCP tool-call boundary (README "The MCP tool-call boundary"). Tool schemas have an
 * object root; arguments are checked as JSON within the limits before the schema sees them, and
 * returned untouched on success. Nothing here throws for a bad schema or bad arguments.
 */

import type { CompileOptions } from "../engine/compiler.js";
import { LimitError, SchemaError } from "../engine/errors.js";
import { checkJson, type JsonBounds } from "../engine/host-json.js";
import { isObject, preview } from "../engine/json.js";
import { resolveLimits, type Limits } from "../engine/limits.js";
import { compileWith, type Validator } from "../engine/validator.js";
import { dialect2020_12 } from "../vocabularies/dialect-2020-12.js";
import { InputSchemaError } from "./input-schema-error.js";
import { err, ok, type Result } from "./result.js";
import { canonicalJson, SchemaCache } from "./schema-cache.js";

export type InputSchemaOptions = Pick<
  CompileOptions,
  "schemaRegistry" | "schemaLoader" | "formatAssertion" | "contentAssertion" | "limits" | "baseUri"
> & {
  /**
   * Compile structurally identical schemas once. Used only without `schemaRegistry`/`schemaLoader`
   * (their contents are not part of the key).
   */
  cache?: SchemaCache;
};

/** The limit behind each bound the arguments are checked against (bytes are not bounded for arguments). */
const BOUND_LIMITS: Record<Exclude<keyof JsonBounds, "bytes">, keyof Limits> = {
  nodes: "maxInstanceNodes",
  depth: "maxInstanceDepth",
  stringLength: "maxStringLength",
  arrayLength: "maxArrayLength",
  objectProperties: "maxObjectProperties",
};

/** A tool input schema that compiled; `validate` is the hot path. */
export class CompiledInputSchema {
  /** @internal */
  constructor(
    /** The caller's schema, the very same object, unchanged. */
    readonly schema: Readonly<Record<string, unknown>>,
    readonly validator: Validator,
    private readonly limits: Readonly<Limits>,
  ) {
    Object.freeze(this);
  }

  /** Checks arguments; on success returns the very same `args` value. */
  validate<T>(args: T): Result<T, InputSchemaError> {
    let shape: InputSchemaError | undefined;
    try {
      shape = checkArguments(args, this.limits);
    } catch (e) {
      // A throwing getter or proxy trap: not JSON data.
      return err(
        new InputSchemaError({
          class: "validation",
          code: "arguments_invalid",
          message: `arguments could not be read as JSON: ${e instanceof Error ? e.message : String(e)}`,
          instancePointer: "",
          cause: e,
        }),
      );
    }
    if (shape !== undefined) return err(shape);
    try {
      if (this.validator.isValid(args)) return ok(args);
      const output = this.validator.validate(args);
      const errors = output.errors ?? [];
      const first = errors.find((e) => e.error !== undefined) ?? errors[0];
      const where = first === undefined || first.instanceLocation === "" ? "" : ` at "${first.instanceLocation}"`;
      return err(
        new InputSchemaError({
          class: "validation",
          code: "arguments_invalid",
          message: `arguments do not match the input schema${where}: ${first?.error ?? "invalid"}`,
          ...(first !== undefined
            ? { instancePointer: first.instanceLocation, schemaPointer: first.keywordLocation }
            : {}),
          errors,
        }),
      );
    } catch (e) {
      return err(failure(e, () => this.validator.evaluate(args)));
    }
  }
}

/** Arguments must be a JSON object within the instance limits; the walk is iterative and fails closed. */
function checkArguments(args: unknown, limits: Readonly<Limits>): InputSchemaError | undefined {
  if (!isObject(args)) {
    return new InputSchemaError({
      class: "validation",
      code: "arguments_invalid",
      message: `arguments must be an object, got ${preview(args)}`,
      instancePointer: "",
    });
  }
  const found = checkJson(args, {
    nodes: limits.maxInstanceNodes,
    depth: limits.maxInstanceDepth,
    stringLength: limits.maxStringLength,
    arrayLength: limits.maxArrayLength,
    objectProperties: limits.maxObjectProperties,
  });
  if (found.ok) return undefined;
  if (found.bound !== undefined) {
    const name = BOUND_LIMITS[found.bound as Exclude<keyof JsonBounds, "bytes">];
    return InputSchemaError.from(new LimitError(name, limits[name], { instancePointer: found.pointer }));
  }
  return new InputSchemaError({
    class: "validation",
    code: "arguments_invalid",
    message: `arguments are not JSON at "${found.pointer}": ${found.message}`,
    instancePointer: found.pointer,
  });
}

/** A failure inside the validator: limits stay `execution_failure`, with the instance location when it can be found. */
function failure(e: unknown, locate: () => unknown): InputSchemaError {
  if (e instanceof LimitError && e.instancePointer === undefined) {
    try {
      locate();
    } catch (located) {
      if (located instanceof LimitError) return InputSchemaError.from(located);
    }
  }
  if (e instanceof SchemaError) return InputSchemaError.from(e);
  return new InputSchemaError({
    class: "execution_failure",
    code: "validator_failed",
    message: `the validator failed: ${e instanceof Error ? e.message : String(e)}`,
    cause: e,
  });
}

function rootProblem(schema: unknown): InputSchemaError | undefined {
  if (!isObject(schema)) {
    return new InputSchemaError({
      class: "validation",
      code: "root_not_object",
      message: `a tool input schema must be a JSON object, got ${preview(schema)}`,
      schemaPointer: "",
    });
  }
  if (!Object.hasOwn(schema, "type")) return undefined;
  const type = schema["type"];
  if (type === "object" || (Array.isArray(type) && type.length === 1 && type[0] === "object")) return undefined;
  return new InputSchemaError({
    class: "validation",
    code: "root_not_object",
    message: `a tool input schema's root "type" must be exactly "object", got ${preview(type)}`,
    schemaPointer: "/type",
  });
}

function compileCached(schema: Record<string, unknown>, options: InputSchemaOptions): Validator {
  const { cache, ...compileOptions } = options;
  if (
    cache === undefined ||
    options.schemaRegistry !== undefined ||
    options.schemaLoader !== undefined ||
    !checkJson(schema).ok
  ) {
    return compileWith(dialect2020_12, schema, compileOptions);
  }
  const key = canonicalJson([
    schema,
    compileOptions.formatAssertion === true,
    compileOptions.contentAssertion === true,
    compileOptions.limits ?? null,
    compileOptions.baseUri ?? null,
  ]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const validator = compileWith(dialect2020_12, schema, compileOptions);
  cache.set(key, validator);
  return validator;
}

export const InputSchema = Object.freeze({
  /** Compiles a tool input schema, or says why it cannot be used. Never throws. */
  validateSchema(schema: unknown, options: InputSchemaOptions = {}): Result<CompiledInputSchema, InputSchemaError> {
    let limits: Readonly<Limits>;
    try {
      limits = resolveLimits(options.limits);
    } catch (e) {
      return err(
        new InputSchemaError({
          class: "validation",
          code: "options_invalid",
          message: e instanceof Error ? e.message : String(e),
        }),
      );
    }
    if (!isObject(schema)) return err(rootProblem(schema) as InputSchemaError);
    try {
      const validator = compileCached(schema, options);
      const root = rootProblem(schema);
      if (root !== undefined) return err(root);
      return ok(new CompiledInputSchema(schema as Record<string, unknown>, validator, limits));
    } catch (e) {
      if (e instanceof SchemaError) return err(InputSchemaError.from(e));
      if (e instanceof TypeError)
        return err(new InputSchemaError({ class: "validation", code: "options_invalid", message: e.message }));
      return err(failure(e, () => undefined));
    }
  },

  /** Compiles the schema and checks the arguments in one call. Never throws. */
  validate<T>(schema: unknown, args: T, options: InputSchemaOptions = {}): Result<T, InputSchemaError> {
    const compiled = InputSchema.validateSchema(schema, options);
    return compiled.ok ? compiled.value.validate(args) : compiled;
  },
});
