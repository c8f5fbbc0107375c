/**
 * `ElicitationSchema` (docs/guide/elicitation.md; MCP 2025-11-25 `client/elicitation.mdx` §Form Mode and
 * `schema.ts`): a form-mode `requestedSchema` is checked against the MCP subset, then compiled by the boundary
 * (`InputSchema`, with its limits) so that an `ElicitResult`'s content is judged by the engine. Every message names
 * locations and constraints, never a value of the content nor a key the schema does not declare, so it can be shown
 * to a model or a person. Nothing here throws.
 */

import { errorMessage } from "../../engine/errors.js";
import { checkJson } from "../../engine/json/host-json.js";
import { defineOwn, isObject, preview } from "../../engine/json/json.js";
import { plural } from "../../engine/output/messages.js";
import { resolveLimits, type Limits } from "../../engine/limits.js";
import { compileOptionChecks, optionsProblem, type OptionCheck } from "../../engine/options.js";
import { CompiledInputSchema, InputSchema } from "../boundary/input-schema.js";
import type { InputSchemaError } from "../errors/boundary-error.js";
import { err, ok, type Result } from "../errors/result.js";
import type { BackplaneError } from "../errors/backplane-error.js";
import type { ErrorCode } from "../errors/codes.js";
import { withheldLines } from "../boundary/withheld-model-text.js";
import { subsetProblem, type DeprecatedForm } from "./subset.js";

export type { DeprecatedForm } from "./subset.js";

/** Options of `ElicitationSchema`: the boundary's limits, and whether `format` asserts (here by default it does). */
export interface ElicitationSchemaOptions {
  /** Any subset of the limits (docs/reference/limits.md); the rest keep their defaults. */
  limits?: Partial<Limits>;
  /**
   * Whether `format` (email, uri, date, date-time) is checked (default `true`, unlike every other entry point, where
   * `format` annotates unless the host asks: a form field's `format` is part of what the person is asked for).
   */
  formatAssertion?: boolean;
}

/** An MCP `ElicitResult`: the user's action and, for `accept` in form mode, the submitted content. */
export interface ElicitResult {
  /** `accept` (submitted), `decline` (refused explicitly) or `cancel` (dismissed). */
  action: "accept" | "decline" | "cancel";
  /** The submitted values, only with `accept`. */
  content?: Record<string, string | number | boolean | string[]>;
  /** Other result fields (`_meta`) are carried as they are. */
  [key: string]: unknown;
}

/**
 * Why a requested schema or an `ElicitResult` is refused (docs/reference/errors.md "Every code"): outside the subset
 * (`elicitation_unsupported`), a bad default (`default_invalid`), a bad result (`result_invalid`, `content_invalid`),
 * or the boundary's codes. Its `message` and `problems` name JSON Pointers and constraints only: never a value of the
 * content, nor a key the requested schema does not declare.
 */
export interface ElicitationError extends BackplaneError<ErrorCode<"elicitation">> {
  /** For `content_invalid`: every problem, one line each, in a deterministic order. */
  readonly problems?: readonly string[];
  /** When the boundary refused the schema (it does not compile, a limit): its error, for the host. */
  readonly cause?: InputSchemaError;
}

const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

/** The only dialect an elicitation schema may declare (MCP 2025-11-25 `basic/index.mdx` §JSON Schema Usage). */
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

const OPTION_CHECKS: ReadonlyMap<string, OptionCheck> = new Map(
  ["limits", "formatAssertion"].map((name) => [name, compileOptionChecks.get(name) as OptionCheck]),
);

function refuse(fields: ElicitationError): { ok: false; error: ElicitationError } {
  return err(
    Object.freeze({ ...fields, ...(fields.problems ? { problems: Object.freeze([...fields.problems]) } : {}) }),
  );
}

/** A requested schema inside the subset, compiled: `validate` checks `ElicitResult`s against it. */
export class CompiledElicitationSchema {
  /** The deprecated forms the schema uses (each still accepted): `enumNames`. */
  readonly deprecated: readonly DeprecatedForm[];

  /** @internal */
  constructor(
    /** The requested schema, the very same object, unchanged. */
    readonly schema: Readonly<Record<string, unknown>>,
    private readonly compiled: CompiledInputSchema,
    deprecated: readonly DeprecatedForm[],
    private readonly limits: Readonly<Limits>,
  ) {
    this.deprecated = Object.freeze([...deprecated]);
    Object.freeze(this);
  }

  /**
   * Checks an `ElicitResult`: `action` is `accept`, `decline` or `cancel`; `content` comes only with `accept`, is an
   * object whose every key is a declared property and every value matches it, and has every required property
   * (absent content is checked as `{}`). On success returns the very same result. Never throws.
   */
  validate(result: unknown): Result<ElicitResult, ElicitationError> {
    try {
      return this.check(result);
    } catch (e) {
      return refuse({
        class: "execution_failure",
        code: "validator_failed",
        message: `the check failed: ${errorMessage(e)}`,
      });
    }
  }

  private check(result: unknown): Result<ElicitResult, ElicitationError> {
    const { limits } = this;
    const json = checkJson(result, {
      nodes: limits.maxInstanceNodes,
      depth: limits.maxInstanceDepth,
      stringLength: limits.maxStringLength,
      arrayLength: limits.maxArrayLength,
      objectProperties: limits.maxObjectProperties,
    });
    if (!isObject(result)) return invalidResult("", `the elicitation result must be an object, got ${kind(result)}`);
    if (!json.ok) {
      const message =
        json.bound !== undefined ? `the elicitation result ${json.message}` : "the elicitation result is not JSON data";
      return refuse({
        class: json.bound !== undefined ? "execution_failure" : "validation",
        code: json.bound !== undefined ? "limit_exceeded" : "result_invalid",
        message,
      });
    }
    if (!ACTIONS.has(result["action"])) {
      return invalidResult("/action", 'the elicitation result\'s action must be "accept", "decline" or "cancel"');
    }
    const hasContent = Object.hasOwn(result, "content") && result["content"] !== undefined;
    if (result["action"] !== "accept") {
      return hasContent
        ? invalidResult(
            "/content",
            `an elicitation result with action "${String(result["action"])}" carries no content`,
          )
        : ok(result as ElicitResult);
    }
    const content = hasContent ? result["content"] : {};
    if (!isObject(content))
      return invalidResult("/content", `the elicitation content must be an object, got ${kind(content)}`);
    const properties = this.schema["properties"] as Record<string, unknown>;
    const undeclared = Object.keys(content).filter((key) => !Object.hasOwn(properties, key)).length;
    if (undeclared > 0) {
      const count = plural(undeclared, "property", "properties");
      const message = `the elicitation content has ${count} the requested schema does not declare`;
      return refuse({ class: "validation", code: "content_invalid", message, instancePointer: "/content" });
    }
    const checked = this.compiled.validate(content);
    if (checked.ok) return ok(result as ElicitResult);
    const e = checked.error;
    if (e.class === "execution_failure") return refuse({ class: e.class, code: e.code, message: e.message, cause: e });
    return refuse(contentError(this.compiled, content, e));
  }
}

/** The error for content the compiled schema refuses: its problems as lines that quote no value. */
function contentError(compiled: CompiledInputSchema, content: unknown, e: InputSchemaError): ElicitationError {
  let problems: string[];
  try {
    problems = [...new Set(withheldLines(compiled.validator.evaluate(content), "(content)"))].sort();
  } catch {
    problems = []; // listing the problems hit a limit; the verdict stands
  }
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  const pointer = e.instancePointer === undefined ? "/content" : `/content${e.instancePointer}`;
  const said = first === undefined ? "" : `: ${first}${more}`;
  return {
    class: "validation",
    code: "content_invalid",
    message: `the elicitation content does not match the requested schema${said}`,
    instancePointer: pointer,
    ...(e.schemaPointer !== undefined ? { schemaPointer: e.schemaPointer } : {}),
    problems,
  };
}

function invalidResult(instancePointer: string, message: string): { ok: false; error: ElicitationError } {
  return refuse({ class: "validation", code: "result_invalid", message, instancePointer });
}

/** The JSON type of a value, never the value itself. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function fromBoundary(e: InputSchemaError): { ok: false; error: ElicitationError } {
  return refuse({
    class: e.class,
    code: e.code,
    message: `the requested schema cannot be used: ${e.message}`,
    ...(e.schemaPointer !== undefined ? { schemaPointer: e.schemaPointer } : {}),
    cause: e,
  });
}

/** Every `default` must satisfy its own property: one check of an object holding all of them. */
function defaultProblem(compiled: CompiledInputSchema, schema: Record<string, unknown>): ElicitationError | undefined {
  const properties = schema["properties"] as Record<string, Record<string, unknown>>;
  const defaults: Record<string, unknown> = {};
  for (const name of Object.keys(properties)) {
    const property = properties[name] as Record<string, unknown>;
    if (Object.hasOwn(property, "default")) defineOwn(defaults, name, property["default"]);
  }
  const checked = compiled.validate(defaults);
  if (checked.ok) return undefined;
  const e = checked.error;
  if (e.class === "execution_failure") return { class: e.class, code: e.code, message: e.message, cause: e };
  // The required properties are missing at the root; a default that does not fit fails below it.
  const wrong = (e.errors ?? []).find((unit) => unit.instanceLocation !== "");
  if (wrong === undefined) return undefined;
  const token = wrong.instanceLocation.slice(1).split("/")[0] as string;
  const name = token.replaceAll("~1", "/").replaceAll("~0", "~");
  return {
    class: "validation",
    code: "default_invalid",
    message: `the default of property ${preview(name)} does not satisfy the property`,
    schemaPointer: `/properties/${token}/default`,
  };
}

/** The MCP form-mode elicitation boundary: requested schemas and the results a client returns for them. */
export const ElicitationSchema = Object.freeze({
  /**
   * Checks a form-mode `requestedSchema` against the MCP subset (a flat object of `string`, `number`/`integer`,
   * `boolean` and the enum forms, `default` on each; the deprecated `enumNames` form is accepted and listed on
   * `deprecated`) and compiles it within the boundary's limits. Anything outside the subset is
   * `unsupported_capability` / `elicitation_unsupported` with its pointer. Never throws.
   */
  validateSchema(
    requestedSchema: unknown,
    options: ElicitationSchemaOptions = {},
  ): Result<CompiledElicitationSchema, ElicitationError> {
    try {
      return compileRequested(requestedSchema, options);
    } catch (e) {
      return refuse({
        class: "execution_failure",
        code: "validator_failed",
        message: `the check failed: ${errorMessage(e)}`,
      });
    }
  },

  /** Checks the schema, then the `ElicitResult` against it (see `CompiledElicitationSchema.validate`). Never throws. */
  validate(
    requestedSchema: unknown,
    result: unknown,
    options: ElicitationSchemaOptions = {},
  ): Result<ElicitResult, ElicitationError> {
    const compiled = ElicitationSchema.validateSchema(requestedSchema, options);
    return compiled.ok ? compiled.value.validate(result) : compiled;
  },
});

function compileRequested(
  schema: unknown,
  options: ElicitationSchemaOptions,
): Result<CompiledElicitationSchema, ElicitationError> {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, OPTION_CHECKS, "ElicitationSchema");
  } catch (e) {
    problem = `ElicitationSchema options could not be read: ${errorMessage(e)}`;
  }
  if (problem !== undefined) return refuse({ class: "validation", code: "options_invalid", message: problem });
  const { limits: given, formatAssertion = true } = options;
  const limits = resolveLimits(given);
  const boundary = { formatAssertion, ...(given === undefined ? {} : { limits: given }) };
  if (!isObject(schema)) {
    return refuse({
      class: "unsupported_capability",
      code: "elicitation_unsupported",
      message: `a requested schema must be a JSON object (a flat object of primitive properties), got ${kind(schema)}`,
      schemaPointer: "",
    });
  }
  // Not JSON data, or over a schema limit: the boundary names it exactly.
  const json = checkJson(schema, { bytes: limits.maxSchemaBytes, depth: limits.maxSchemaDepth });
  if (!json.ok) {
    const compiled = InputSchema.validateSchema(schema, boundary);
    if (!compiled.ok) return fromBoundary(compiled.error);
    return refuse({
      class: "validation",
      code: "schema_invalid",
      message: `the requested schema ${json.message}`,
      schemaPointer: json.pointer,
    });
  }
  const dialect = schema["$schema"];
  if (dialect !== undefined && dialect !== DIALECT && dialect !== `${DIALECT}#`) {
    return refuse({
      class: "unsupported_capability",
      code: "dialect_unsupported",
      message: `a requested schema is JSON Schema 2020-12; it declares the dialect ${preview(dialect)}`,
      schemaPointer: "/$schema",
    });
  }
  const deprecated: DeprecatedForm[] = [];
  const outside = subsetProblem(schema, deprecated);
  if (outside !== undefined) {
    return refuse({
      class: "unsupported_capability",
      code: "elicitation_unsupported",
      message: `${outside.message} (at ${outside.pointer === "" ? "the root" : outside.pointer})`,
      schemaPointer: outside.pointer,
    });
  }
  const compiled = InputSchema.validateSchema(schema, boundary);
  if (!compiled.ok) return fromBoundary(compiled.error);
  const wrongDefault = defaultProblem(compiled.value, schema);
  if (wrongDefault !== undefined) return refuse(wrongDefault);
  return ok(new CompiledElicitationSchema(schema, compiled.value, deprecated, limits));
}
