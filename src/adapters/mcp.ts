/**
 * A `jsonSchemaValidator` provider for the MCP TypeScript SDK, exported as `backplane-agent-runtime/mcp`; it fits
 * SDK 1.x (`@modelcontextprotocol/sdk`) and 2.x (`@modelcontextprotocol/client` / `server`):
 *
 *   new Client(info, { jsonSchemaValidator: new BackplaneJsonSchemaValidator() })
 *   new McpServer(info, { jsonSchemaValidator: new BackplaneJsonSchemaValidator() })
 *
 * The SDK is not imported at all, not even for types: the interfaces below are structural copies of
 * `@modelcontextprotocol/sdk/validation` (1.32.2), so neither the code nor the emitted declarations
 * depend on it (test/adapters checks assignability to the SDK 1.x and 2.x types).
 * No Node-only API and no generated code, so it runs on edge runtimes under a CSP without unsafe-eval.
 * @module backplane-agent-runtime/mcp
 */

import { SchemaError, errorMessage, isInstance } from "../engine/errors.js";
import { compileOptionChecks, expecting, optionsProblem, type OptionTable } from "../engine/options.js";
import { compile, ElicitationSchema, type CompileOptions, type Validator } from "../index.js";
import { dialectOptionChecks } from "../runtime/boundary/dialects/mode.js";
import { withheldLines } from "../runtime/boundary/withheld-model-text.js";
import type { NodeResult } from "../engine/output/output.js";

/** `compile`'s options (`legacyDialects` has another default here) plus the provider's own. */
export interface BackplaneJsonSchemaValidatorOptions extends CompileOptions {
  /** The most errors quoted in one `errorMessage`, a positive integer (default 10); the rest are counted. */
  maxErrorsInMessage?: number;
  /**
   * `true` for the provider of an MCP *server* (`Server` / `McpServer`), whose SDK uses it only to check the content
   * of an accepted form-mode elicitation against its `requestedSchema`: every schema is then checked with
   * `ElicitationSchema` (the MCP subset, else the validator always fails naming the pointer; content values are
   * never quoted). Only `limits`, `formatAssertion` and `maxErrorsInMessage` apply then. Default `false`.
   */
  elicitation?: boolean;
}

/** The provider's options, checked fail closed in its constructor: `compile`'s, plus its own. */
const providerOptionChecks: OptionTable = new Map([
  ...compileOptionChecks,
  ...dialectOptionChecks,
  ["maxErrorsInMessage", expecting((v) => Number.isInteger(v) && (v as number) >= 1, "a positive integer")],
  ["elicitation", expecting((v) => typeof v === "boolean", "a boolean")],
]);

/** The options that apply to elicitation schemas (`ElicitationSchema`'s, and the message's). */
const ELICITATION_OPTIONS: ReadonlySet<string> = new Set(["limits", "formatAssertion", "maxErrorsInMessage"]);

/** The SDK's `JsonSchemaValidatorResult<T>`. */
export type JsonSchemaValidatorResult<T> =
  | {
      /** The input satisfies the schema. */
      valid: true;
      /** The very same input. */
      data: T;
      /** Absent on success. */
      errorMessage: undefined;
    }
  | {
      /** The input does not satisfy the schema, or the schema cannot be used. */
      valid: false;
      /** Absent on failure. */
      data: undefined;
      /** Why, naming instance locations (or the schema error's class and code). */
      errorMessage: string;
    };

/** The SDK's `JsonSchemaValidator<T>`. */
export type JsonSchemaValidator<T> = (input: unknown) => JsonSchemaValidatorResult<T>;

/** The SDK's `jsonSchemaValidator` provider interface (its `JsonSchemaType` is any JSON Schema object). */
export interface JsonSchemaValidatorProvider {
  /** A validator for the schema, reusable across inputs. */
  getValidator<T>(schema: object): JsonSchemaValidator<T>;
}

/**
 * Implements the SDK's `jsonSchemaValidator`. `format` and the content keywords annotate by default, as at every entry
 * point of the library; `formatAssertion: true` gives the SDK's own Ajv provider's behaviour (ajv-formats asserts
 * `format`). With `elicitation: true`, `format` asserts by default, as `ElicitationSchema` does (a form field's
 * `format` is part of what the person is asked for). `legacyDialects` defaults to `"upgrade"` (exact translations
 * only): SDK 1.x's `McpServer` publishes every tool schema as draft-07, and SDK 2.x validates draft-04, draft-06 and
 * 2019-09 schemas too, so a client never breaks a tool the SDKs' own validators accept; what cannot be translated
 * exactly always fails, with the reason (`unsupported_capability/upgrade_blocked`). `legacyDialects: "refuse"` (or,
 * for draft-07 alone, `draft07: "reject"`) makes such a validator always fail with `dialect_unsupported`.
 *
 * The constructor checks the options like every other options object: an unknown name or a malformed value throws a
 * `SchemaError` `options_invalid`, so a typo fails at startup, not at the first call. `getValidator` never throws: a
 * schema that does not compile gives a validator that always fails with `errorMessage` naming the error class and
 * code (fail closed). (The SDK's Ajv provider throws from `getValidator` instead, which makes `Client.listTools()`
 * fail for every tool when one output schema is bad; failing closed only affects that tool's calls.)
 */
export class BackplaneJsonSchemaValidator implements JsonSchemaValidatorProvider {
  private readonly options: CompileOptions;
  private readonly maxErrors: number;
  private readonly elicitation: boolean;
  private readonly cache = new WeakMap<object, JsonSchemaValidator<unknown>>();

  /**
   * A provider compiling with `options` (by default `format` annotating, `legacyDialects: "upgrade"`, 10 errors
   * quoted).
   * Throws a `SchemaError` of class `validation`, code `options_invalid`, for an unknown option name, a malformed
   * value (`draft07: "upgrad"`, `maxErrorsInMessage: -1`, a bad limit) or options that cannot be read.
   */
  constructor(options: BackplaneJsonSchemaValidatorOptions = {}) {
    let problem: string | undefined;
    let given: BackplaneJsonSchemaValidatorOptions = {};
    try {
      problem = optionsProblem(options, providerOptionChecks, "BackplaneJsonSchemaValidator");
      if (problem === undefined) given = { ...options };
      if (problem === undefined && given.elicitation === true) problem = elicitationProblem(given);
    } catch (e) {
      problem = `BackplaneJsonSchemaValidator options could not be read: ${errorMessage(e)}`;
    }
    if (problem !== undefined)
      throw new SchemaError({ class: "validation", code: "options_invalid", message: problem });
    const { maxErrorsInMessage, elicitation, ...compileOptions } = given;
    this.options = {
      ...compileOptions,
      legacyDialects: compileOptions.legacyDialects ?? "upgrade",
    };
    this.maxErrors = maxErrorsInMessage ?? 10;
    this.elicitation = elicitation === true;
  }

  /** A validator for the schema, compiled once per schema object; never throws (a bad schema always fails). */
  getValidator<T>(schema: object): JsonSchemaValidator<T> {
    const key: unknown = schema;
    if (typeof key !== "object" || key === null) return this.build(key) as JsonSchemaValidator<T>;
    const known = this.cache.get(key);
    if (known !== undefined) return known as JsonSchemaValidator<T>;
    const built = this.build(key);
    this.cache.set(key, built);
    return built as JsonSchemaValidator<T>;
  }

  private build(schema: unknown): JsonSchemaValidator<unknown> {
    if (this.elicitation) return this.elicitationValidator(schema);
    let validator: Validator;
    try {
      validator = compile(schema, this.options);
    } catch (error) {
      return alwaysFails(`schema cannot be used for validation: ${describe(error)}`);
    }
    return (input: unknown): JsonSchemaValidatorResult<unknown> => {
      try {
        if (validator.isValid(input)) return { valid: true, data: input, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: this.message(validator.evaluate(input)) };
      } catch (error) {
        return { valid: false, data: undefined, errorMessage: `validation did not complete: ${describe(error)}` };
      }
    };
  }

  /**
   * What the SDK is told of an invalid value: one line per failing keyword, naming the location and the constraint,
   * never a value (the SDK puts this text in an error a client may show a model): `withheldLines`, as the boundary.
   */
  private message(tree: NodeResult): string {
    return this.joined(withheldLines(tree, "/"));
  }

  /** A requested schema checked with `ElicitationSchema`; the validator checks accepted content against it. */
  private elicitationValidator(schema: unknown): JsonSchemaValidator<unknown> {
    const { limits, formatAssertion } = this.options;
    const compiled = ElicitationSchema.validateSchema(schema, { limits, formatAssertion });
    if (!compiled.ok) {
      const { error } = compiled;
      const at = error.schemaPointer !== undefined ? ` (at schema "${error.schemaPointer}")` : "";
      return alwaysFails(`schema cannot be used for elicitation: ${error.class}/${error.code}: ${error.message}${at}`);
    }
    return (input: unknown): JsonSchemaValidatorResult<unknown> => {
      const checked = compiled.value.validate({ action: "accept", content: input });
      if (checked.ok) return { valid: true, data: input, errorMessage: undefined };
      const { problems = [], message } = checked.error;
      return { valid: false, data: undefined, errorMessage: problems.length > 0 ? this.joined(problems) : message };
    };
  }

  /** At most `maxErrorsInMessage` lines, and how many more there are. */
  private joined(lines: readonly string[]): string {
    if (lines.length === 0) return "value does not match the schema";
    const shown = lines.slice(0, this.maxErrors);
    const rest = lines.length - shown.length;
    return shown.join("; ") + (rest > 0 ? `; and ${rest} more error${rest === 1 ? "" : "s"}` : "");
  }
}

/** With `elicitation: true`, an option that elicitation schemas do not take is refused, not ignored. */
function elicitationProblem(options: BackplaneJsonSchemaValidatorOptions): string | undefined {
  for (const name of Object.keys(options)) {
    if (name === "elicitation" || ELICITATION_OPTIONS.has(name)) continue;
    if (options[name as keyof typeof options] === undefined) continue;
    const apply = "only limits, formatAssertion and maxErrorsInMessage do";
    return `BackplaneJsonSchemaValidator option "${name}" does not apply with elicitation: true (${apply})`;
  }
  return undefined;
}

function alwaysFails(errorMessage: string): JsonSchemaValidator<unknown> {
  return () => ({ valid: false, data: undefined, errorMessage });
}

function describe(error: unknown): string {
  if (isInstance(error, SchemaError)) {
    const at = error.schemaPointer !== undefined ? ` (at schema "${error.schemaPointer}")` : "";
    return `${error.class}/${error.code}: ${error.message}${at}`;
  }
  return errorMessage(error);
}
