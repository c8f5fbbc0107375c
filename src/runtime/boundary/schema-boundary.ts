/**
 * The boundary `InputSchema` and `OutputSchema` share (docs/guide/boundary.md): one implementation, two
 * policies. A schema is checked as JSON data within the schema limits, then compiled once (optionally after an
 * explicit, exact translation of older dialects); a value is checked as JSON within the instance limits before the
 * schema sees it, evaluated at most twice (the boolean path, then one output pass), and returned untouched on
 * success. Nothing here throws, whatever the schema, the value or a host exception is.
 */

import { errorMessage, isInstance, LimitError, SchemaError } from "../../engine/errors.js";
import { checkJson, isDataWithin, type DataBounds, type JsonBounds } from "../../engine/json/host-json.js";
import { canonicalJson, isObject, preview } from "../../engine/json/json.js";
import { resolveLimits, schemaBounds, type Limits } from "../../engine/limits.js";
import { compileWith } from "../../engine/compile-with.js";
import { basicOutput, type NodeResult, type OutputUnit } from "../../engine/output/output.js";
import type { Validator } from "../../engine/validator.js";
import { dialect2020_12 } from "../../vocabularies/dialect-2020-12.js";
import {
  prepareLegacy,
  withDialectHint,
  type CompileOptions,
  type DialectOptions,
  type Prepared,
} from "./dialects/mode.js";
import { BoundaryError } from "../errors/boundary-error.js";
import { err, ok, type Result } from "../errors/result.js";
import type { SchemaCache } from "./schema-cache.js";
import { schemaOptionsError } from "./schema-options.js";
import type { UpgradeChange } from "./dialects/upgrade.js";
import { withheldLines } from "./withheld-model-text.js";

/** Options of `InputSchema` and `OutputSchema`: the engine's compile options plus the boundary's own. */
export type SchemaBoundaryOptions = Pick<
  CompileOptions,
  | "schemaRegistry"
  | "schemaLoader"
  | "formatAssertion"
  | "contentAssertion"
  | "limits"
  | "baseUri"
  | "formats"
  | "vocabularies"
  | "strictSchema"
  | "messages"
> & {
  /**
   * Compile structurally identical schemas once. Used only without `schemaRegistry`/`schemaLoader`
   * (their contents are not part of the key).
   */
  cache?: SchemaCache;
} & DialectOptions;

/** What tells arguments from a result: the wording, the error code and the rules of the root and the value. */
export interface BoundaryPolicy {
  /** The boundary as option errors name it. */
  readonly boundary: "InputSchema" | "OutputSchema";
  /** The value as messages name it. */
  readonly subject: "arguments" | "the result";
  /** The schema as messages name it. */
  readonly schemaName: "input schema" | "output schema";
  /** The code of a value the schema refuses. */
  readonly code: "arguments_invalid" | "output_invalid";
  /** Whether the value must be a JSON object (tool arguments) or may be any JSON value (a result). */
  readonly objectValue: boolean;
  /**
   * A problem with the schema's root that this policy forbids: checked before compiling for a root that is not an
   * object, after compiling (so the schema's own errors come first) for one that is.
   */
  rootProblem(schema: unknown): BoundaryError | undefined;
  /** What a model is told the value is, in the lines about it: `arguments` or `result`. */
  readonly modelSubject: "arguments" | "result";
}

/**
 * An error about a value under a policy: what it tells a model names locations and constraints only, never a value
 * of the arguments or the result (nor a key the schema does not declare).
 */
function finish(policy: BoundaryPolicy, error: BoundaryError): BoundaryError {
  return error.about(policy.modelSubject);
}

/** The limit behind each bound a value is checked against (bytes are not bounded for values). */
const BOUND_LIMITS: Record<Exclude<keyof JsonBounds, "bytes">, keyof Limits> = {
  nodes: "maxInstanceNodes",
  depth: "maxInstanceDepth",
  stringLength: "maxStringLength",
  arrayLength: "maxArrayLength",
  objectProperties: "maxObjectProperties",
};

/** What compiling a schema under a policy produced. */
export interface CompiledParts {
  readonly validator: Validator;
  readonly limits: Readonly<Limits>;
  readonly upgraded?: readonly UpgradeChange[];
}

/**
 * A schema that compiled under a policy; `validate` is the hot path. `T` is the type the caller says valid values
 * have (`validateSchema<T>`): a success's value is typed as it; nothing checks `T` against the schema.
 */
export class CompiledSchema<T = unknown> {
  /** The compiled validator (of the translated schema, when `upgraded` is set). */
  readonly validator: Validator;
  /** When the schema declared an older dialect and the options translated it: what the translation changed. */
  readonly upgraded?: readonly UpgradeChange[];
  private readonly limits: Readonly<Limits>;
  /** The instance limits as the bounds a value is checked within, resolved once. */
  private readonly bounds: DataBounds;

  /** @internal */
  constructor(
    /** The caller's schema, the very same value, unchanged (also when it was translated from an older dialect). */
    readonly schema: unknown,
    parts: CompiledParts,
    private readonly policy: BoundaryPolicy,
  ) {
    this.validator = parts.validator;
    this.limits = parts.limits;
    this.bounds = valueBounds(parts.limits);
    if (parts.upgraded !== undefined) this.upgraded = parts.upgraded;
    Object.freeze(this);
  }

  /** Checks a value; on success returns the very same value, typed as `T`. Never throws. */
  validate(value: unknown): Result<T, BoundaryError> {
    try {
      return this.check(value);
    } catch (e) {
      return err(finish(this.policy, failure(e)));
    }
  }

  private check(value: unknown): Result<T, BoundaryError> {
    const { policy, validator } = this;
    // The one walk of the value as JSON data: the validator is told it was checked, and does not walk it again.
    const shape = checkValue(value, this.limits, this.bounds, policy);
    if (shape !== undefined) return err(finish(policy, shape));
    let valid: boolean;
    try {
      valid = validator.isValidChecked(value);
    } catch (e) {
      if (!isInstance(e, LimitError) || e.instancePointer !== undefined) return err(finish(policy, failure(e)));
      // The boolean path does not track where it is: the one output pass locates the limit.
      try {
        validator.evaluateChecked(value);
      } catch (located) {
        if (isInstance(located, LimitError)) return err(finish(policy, BoundaryError.from(located)));
      }
      return err(finish(policy, BoundaryError.from(e)));
    }
    if (valid) return ok(value as T);
    // One output pass after the boolean one: invalid values are evaluated twice, never three times.
    let tree: NodeResult;
    try {
      tree = validator.evaluateChecked(value);
    } catch (e) {
      if (!isInstance(e, LimitError)) return err(finish(policy, failure(e)));
      // The verdict stands; listing the problems would exceed a limit, so the one error says so.
      const are = policy.subject === "arguments" ? "are" : "is";
      const listing = `the problems are not itemised because listing them exceeds ${e.limit} (${e.value})`;
      const error = `${policy.subject} ${are} invalid; ${listing}`;
      const unit: OutputUnit = { valid: false, keywordLocation: "", instanceLocation: "", error };
      return err(refusal(policy, [unit], []));
    }
    const errors = basicOutput(tree).errors ?? [];
    // Arguments' keys are the model's own: the ones additionalProperties refuses are named (withheld-model-text.ts).
    const lines = withheldLines(tree, `(${policy.modelSubject})`, policy.modelSubject === "arguments");
    return err(refusal(policy, errors, lines));
  }
}

/** The error for a value the schema refuses: the first error in the message, all of them on `errors`. */
function refusal(policy: BoundaryPolicy, errors: OutputUnit[], withheld: string[]): BoundaryError {
  const first = errors.find((e) => e.error !== undefined) ?? errors[0];
  const where = first === undefined || first.instanceLocation === "" ? "" : ` at "${first.instanceLocation}"`;
  const does = policy.subject === "arguments" ? "do" : "does";
  return new BoundaryError({
    class: "validation",
    code: policy.code,
    message: `${policy.subject} ${does} not match the ${policy.schemaName}${where}: ${first?.error ?? "invalid"}`,
    ...(first !== undefined ? { instancePointer: first.instanceLocation, schemaPointer: first.keywordLocation } : {}),
    errors,
    withheld,
    about: policy.modelSubject,
  });
}

/** What a model is told of a value that is not JSON data (never where: the pointer may hold a key it chose). */
const NOT_JSON = "must be JSON data (no functions, undefined, non-finite numbers, accessors or class instances)";

/** The bounds a value is checked within: every instance limit `checkJson` and `isDataWithin` know. */
function valueBounds(limits: Readonly<Limits>): DataBounds {
  return Object.freeze({
    nodes: limits.maxInstanceNodes,
    depth: limits.maxInstanceDepth,
    stringLength: limits.maxStringLength,
    arrayLength: limits.maxArrayLength,
    objectProperties: limits.maxObjectProperties,
  });
}

/** The value must be JSON (an object, for arguments) within the instance limits; iterative, fails closed. */
function checkValue(
  value: unknown,
  limits: Readonly<Limits>,
  bounds: DataBounds,
  policy: BoundaryPolicy,
): BoundaryError | undefined {
  let object: boolean;
  try {
    object = isObject(value);
  } catch (e) {
    // A revoked Proxy throws even for Array.isArray: it is not JSON data, and the exception is for the host.
    const message = `${policy.subject} cannot be read as JSON data: ${errorMessage(e)}`;
    return new BoundaryError({ class: "validation", code: policy.code, message, instancePointer: "", cause: e });
  }
  if (policy.objectValue && !object) {
    return new BoundaryError({
      class: "validation",
      code: policy.code,
      message: `${policy.subject} must be an object, got ${preview(value)}`,
      instancePointer: "",
      withheld: [`(${policy.modelSubject}): must be an object`],
      about: policy.modelSubject,
    });
  }
  // The quick walk answers the common case (JSON data within the limits); anything else is found and located by the
  // full one.
  if (isDataWithin(value, bounds)) return undefined;
  const found = checkJson(value, bounds);
  if (found.ok) return undefined;
  if (found.bound !== undefined) {
    const name = BOUND_LIMITS[found.bound as Exclude<keyof JsonBounds, "bytes">];
    return BoundaryError.from(new LimitError(name, limits[name], { instancePointer: found.pointer }));
  }
  const are = policy.subject === "arguments" ? "are" : "is";
  return new BoundaryError({
    class: "validation",
    code: policy.code,
    message: `${policy.subject} ${are} not JSON at "${found.pointer}": ${found.message}`,
    instancePointer: found.pointer,
    withheld: [`(${policy.modelSubject}): ${NOT_JSON}`],
    about: policy.modelSubject,
    // A Proxy trap that threw: the exception is for the host.
    ...(Object.hasOwn(found, "thrown") ? { cause: found.thrown } : {}),
  });
}

/** A failure inside the validator or a host exception: limits stay `execution_failure`, anything else fails closed. */
function failure(e: unknown): BoundaryError {
  if (isInstance(e, SchemaError)) return BoundaryError.from(e);
  return new BoundaryError({
    class: "execution_failure",
    code: "validator_failed",
    message: `the validator failed: ${errorMessage(e)}`,
    cause: e,
  });
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;

/** A number naming an object for as long as it lives (0: none given). */
function identity(value: object | undefined): number {
  if (value === undefined) return 0;
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = ++nextIdentity));
  return id;
}

function compileCached(schema: unknown, options: SchemaBoundaryOptions, cacheable: boolean): Validator {
  // `format` and the content keywords annotate unless the host asks (docs/guide/boundary.md "Formats at the boundary").
  const { cache, draft07: _draft07, legacyDialects: _legacyDialects, ...compileOptions } = options;
  // The key is the schema's text: only for a tree within the schema limits, without registry or loader.
  if (cache === undefined || !cacheable || options.schemaRegistry !== undefined || options.schemaLoader !== undefined) {
    return compileWith(dialect2020_12, schema, compileOptions);
  }
  const key = canonicalJson([
    schema,
    compileOptions.formatAssertion === true,
    compileOptions.contentAssertion === true,
    compileOptions.limits ?? null,
    compileOptions.baseUri ?? null,
    compileOptions.strictSchema === true,
    // Host code is part of the key by identity: the same formats, vocabularies and renderer objects.
    identity(compileOptions.formats),
    identity(compileOptions.vocabularies),
    identity(compileOptions.messages),
  ]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const validator = compileWith(dialect2020_12, schema, compileOptions);
  cache.set(key, validator);
  return validator;
}

/** Compiles a schema under a policy, or says why it cannot be used. Never throws. */
export function compileSchema(
  schema: unknown,
  options: SchemaBoundaryOptions,
  policy: BoundaryPolicy,
): Result<CompiledParts, BoundaryError> {
  try {
    return compileChecked(schema, options, policy);
  } catch (e) {
    return err(failure(e));
  }
}

function compileChecked(
  schema: unknown,
  options: SchemaBoundaryOptions,
  policy: BoundaryPolicy,
): Result<CompiledParts, BoundaryError> {
  const optionsError = schemaOptionsError(options, policy.boundary);
  if (optionsError !== undefined) return err(optionsError);
  const limits = resolveLimits(options.limits);
  const modes: DialectOptions = { legacyDialects: options.legacyDialects, draft07: options.draft07 };
  if (!isObject(schema)) {
    const root = policy.rootProblem(schema);
    if (root !== undefined) return err(root);
  }
  // Measured once, shared objects counted as their expansion but walked once; what is not JSON data within the
  // schema limits is left to the compiler, which reports it (or the limit) with its pointer.
  const json = checkJson(schema, schemaBounds(limits), dialect2020_12.subschemaKeywords);
  let prepared: Result<Prepared, BoundaryError> = ok({ schema, options });
  if (json.ok) prepared = prepareLegacy(schema, options, modes, limits);
  if (!prepared.ok) return prepared;
  let validator: Validator;
  try {
    const cacheable = json.ok && (prepared.value.schema !== schema || !json.measure.shared);
    validator = compileCached(prepared.value.schema, { ...options, ...prepared.value.options }, cacheable);
  } catch (e) {
    if (isInstance(e, SchemaError)) return err(withDialectHint(BoundaryError.from(e), modes));
    return err(failure(e));
  }
  const root = policy.rootProblem(prepared.value.schema);
  if (root !== undefined) return err(root);
  const { changes } = prepared.value;
  return ok(changes === undefined ? { validator, limits } : { validator, limits, upgraded: changes });
}
