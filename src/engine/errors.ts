/** Error classes shared by the engine and the runtime (README "Errors"). */

export type ErrorClass = "validation" | "unsupported_capability" | "execution_failure";

export interface ErrorFields {
  class: ErrorClass;
  /** Stable machine code, e.g. "schema_invalid", "ref_unresolved", "limit_exceeded". */
  code: string;
  /** One line, plain English. */
  message: string;
  schemaPointer?: string;
  instancePointer?: string;
}

/** Thrown by `compile` for a schema that cannot be compiled; carries the same fields as `InputSchemaError`. */
export class SchemaError extends Error implements ErrorFields {
  readonly class: ErrorClass;
  readonly code: string;
  readonly schemaPointer?: string;
  readonly instancePointer?: string;

  constructor(fields: ErrorFields) {
    super(fields.message);
    this.name = "SchemaError";
    this.class = fields.class;
    this.code = fields.code;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
  }

  toJSON(): ErrorFields {
    const out: ErrorFields = { class: this.class, code: this.code, message: this.message };
    if (this.schemaPointer !== undefined) out.schemaPointer = this.schemaPointer;
    if (this.instancePointer !== undefined) out.instancePointer = this.instancePointer;
    return out;
  }
}

/**
 * A limit was hit (README "Limits"). No keyword catches it: it unwinds the whole evaluation,
 * so a limit hit under `not`, `anyOf` or `if` stays `execution_failure` by construction.
 */
export class LimitError extends SchemaError {
  readonly limit: string;
  readonly value: number;

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

/** The message of anything thrown (an `Error`'s message, or the value as text), for one-line reports. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A `validation` SchemaError at a schema location. */
export function invalid(message: string, schemaPointer: string, code: string): SchemaError {
  return new SchemaError({ class: "validation", code, message, schemaPointer });
}

/** An `unsupported_capability` SchemaError at a schema location. */
export function unsupported(message: string, schemaPointer: string, code: string): SchemaError {
  return new SchemaError({ class: "unsupported_capability", code, message, schemaPointer });
}
