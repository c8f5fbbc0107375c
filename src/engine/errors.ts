/** Error classes shared by the engine and the runtime (docs/reference/errors.md "Error classes"). */

import type { EngineCode, ErrorClass } from "./error-codes.js";

export type { EngineCode, ErrorClass } from "./error-codes.js";

/**
 * The one base of the library's error family (docs/reference/errors.md "The error shapes"): what every error the
 * engine and the runtime return or throw carries, and what `toJSON` of a `SchemaError` returns. `Code` is the closed
 * set of codes of the layer that makes it (docs/reference/errors.md "Every code"; `ErrorCode` is all of them).
 */
export interface BackplaneError<Code extends string = string> {
  /** `validation`, `unsupported_capability` or `execution_failure` (docs/reference/errors.md "Error classes"). */
  readonly class: ErrorClass;
  /** A stable machine code of its layer, e.g. "schema_invalid", "ref_unresolved", "limit_exceeded". */
  readonly code: Code;
  /** One line for the host, plain English; it may quote values and host exceptions, so it is never model text. */
  readonly message: string;
  /** Where in the schema, as a JSON Pointer (`uri#pointer` in a registry document other than the root), when known. */
  readonly schemaPointer?: string;
  /** Where in the instance (the arguments, a result), as a JSON Pointer, when known. */
  readonly instancePointer?: string;
}

/**
 * The base's former name, kept so that code written against it still compiles.
 * @deprecated Use `BackplaneError`, the same fields.
 */
export type ErrorFields<Code extends string = string> = BackplaneError<Code>;

/**
 * Thrown by `compile` for a schema that cannot be compiled: a `BackplaneError` that is an `Error`. Its `code` is
 * one of the engine's (`EngineCode`), or of the layer that throws it (`Code`: the identity's, for `ToolCatalog`).
 */
export class SchemaError<Code extends string = EngineCode> extends Error implements BackplaneError<Code> {
  /** What kind of failure it is: a bad schema or option (`validation`), an unsupported dialect, a limit. */
  readonly class: ErrorClass;
  /** Stable machine code, e.g. `schema_invalid`, `ref_unresolved`, `options_invalid`, `limit_exceeded`. */
  readonly code: Code;
  /** Where in the schema, as a JSON Pointer (`uri#pointer` in a registry document other than the root), when known. */
  declare readonly schemaPointer?: string;
  /** Where in the instance, as a JSON Pointer, when known (limits hit while evaluating). */
  declare readonly instancePointer?: string;

  /**
   * An error carrying `fields`; their `message` is the `Error` message. `cause`, when given, is the host exception
   * behind it (a format checker or keyword that threw): kept on `cause` for the host, never in `toJSON`.
   */
  constructor(fields: BackplaneError<NoInfer<Code>>, options?: { cause: unknown }) {
    super(fields.message, options);
    this.name = "SchemaError";
    this.class = fields.class;
    this.code = fields.code;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
  }

  /** The error as plain data: `class`, `code`, `message`, and the pointers that are known. */
  toJSON(): BackplaneError<Code> {
    return {
      class: this.class,
      code: this.code,
      message: this.message,
      ...(this.schemaPointer !== undefined ? { schemaPointer: this.schemaPointer } : {}),
      ...(this.instancePointer !== undefined ? { instancePointer: this.instancePointer } : {}),
    };
  }
}

/**
 * A limit was hit (docs/reference/limits.md). No keyword catches it: it unwinds the whole evaluation,
 * so a limit hit under `not`, `anyOf` or `if` stays `execution_failure` by construction.
 */
export class LimitError extends SchemaError {
  /** The name of the limit that was hit, e.g. `maxEvaluationSteps` (a key of `Limits`). */
  readonly limit: string;
  /** The limit's value in force when it was hit. */
  readonly value: number;

  /** The limit named `limit`, whose value is `value`, hit where `where` says; the message names all three. */
  constructor(limit: string, value: number, where: { schemaPointer?: string; instancePointer?: string } = {}) {
    const at =
      where.instancePointer !== undefined
        ? ` at instance "${where.instancePointer}"`
        : where.schemaPointer !== undefined
          ? ` at schema "${where.schemaPointer}"`
          : "";
    super({
      class: "execution_failure",
      code: "limit_exceeded",
      message: `limit ${limit} (${value}) exceeded${at}`,
      ...where,
    });
    this.name = "LimitError";
    this.limit = limit;
    this.value = value;
  }
}

/** What a thrown value is called when neither its message nor `String()` of it can be read. */
const UNSHOWABLE = "a thrown value that cannot be shown";

/**
 * The message of anything thrown, for one-line reports (docs/project/security.md: nothing escapes as a crash): an
 * `Error`'s message, else the value as text, else a fixed description. Never throws, whatever was thrown: a value
 * without a prototype, a Proxy whose every trap throws, an object whose `toString` or `message` getter throws, a
 * Symbol.
 */
export function errorMessage(e: unknown): string {
  try {
    if (isInstance(e, Error)) {
      const message: unknown = e.message;
      if (typeof message === "string") return message;
    }
  } catch {
    // A message getter that throws: try the value as text.
  }
  try {
    const text = String(e);
    if (typeof text === "string") return text;
  } catch {
    // No prototype, or a toString / Symbol.toPrimitive that throws.
  }
  return UNSHOWABLE;
}

/** `value instanceof type`, false when asking throws (a thrown Proxy whose `getPrototypeOf` trap throws). */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * The `execution_failure` for host code that threw or answered out of its contract while compiling or evaluating (a
 * format checker, a keyword of a host vocabulary, a message renderer): `code` names which, the exception is the cause.
 */
export function hostFailure(code: EngineCode, message: string, ...cause: [] | [unknown]): SchemaError {
  const fields: BackplaneError<EngineCode> = { class: "execution_failure", code, message };
  return cause.length === 0 ? new SchemaError(fields) : new SchemaError(fields, { cause: cause[0] });
}

/**
 * What kind of value host code answered, for a message about an answer out of its contract: its kind only, never
 * the value, which may be anything the host holds (an account, a key) and may reach a log or a model.
 */
export function answerKind(answer: unknown): string {
  if (answer === null) return "null";
  if (Array.isArray(answer)) return "an array";
  const type = typeof answer;
  return type === "object" || type === "undefined" ? (type === "object" ? "an object" : "undefined") : `a ${type}`;
}

/** A `validation` SchemaError at a schema location. */
export function invalid(message: string, schemaPointer: string, code: EngineCode): SchemaError {
  return new SchemaError({ class: "validation", code, message, schemaPointer });
}

/** An `unsupported_capability` SchemaError at a schema location. */
export function unsupported(message: string, schemaPointer: string, code: EngineCode): SchemaError {
  return new SchemaError({ class: "unsupported_capability", code, message, schemaPointer });
}
