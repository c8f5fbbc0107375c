/**
 * `InputSchemaError` (README "Errors"): class, stable code, one-line message, pointers, and output units. The same
 * class serves `OutputSchema`, whose failing values are `output_invalid`.
 */

import type { ErrorClass, ErrorFields } from "../engine/errors.js";
import { SchemaError } from "../engine/errors.js";
import type { OutputUnit } from "../engine/output.js";

/** Longest model-facing text `toModelText` produces by default. */
const MODEL_TEXT_LIMIT = 2_000;

/** A schema, arguments or a result the boundary refuses; data, never thrown at the host. */
export class InputSchemaError implements ErrorFields {
  /** The error class (README "Errors"). */
  readonly class: ErrorClass;
  /** A stable machine code, e.g. "schema_invalid", "dialect_unsupported", "arguments_invalid", "output_invalid". */
  readonly code: string;
  /** One line for the host, plain English. */
  readonly message: string;
  /** Where in the schema, when known. */
  declare readonly schemaPointer?: string;
  /** Where in the arguments or result, when known. */
  declare readonly instancePointer?: string;
  /** For `arguments_invalid` and `output_invalid`: the basic-output errors. */
  declare readonly errors?: OutputUnit[];
  /** For `limit_exceeded`: which limit and its value. */
  declare readonly limit?: {
    /** The limit's name, e.g. `maxInstanceDepth`. */
    name: string;
    /** Its configured value. */
    value: number;
  };
  /** The exception behind the error (a throwing getter, a failing validator), for the host; never model text. */
  declare readonly cause?: unknown;

  /** @internal */
  constructor(
    fields: ErrorFields & { errors?: OutputUnit[]; limit?: { name: string; value: number }; cause?: unknown },
  ) {
    this.class = fields.class;
    this.code = fields.code;
    this.message = fields.message;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
    if (fields.errors !== undefined) this.errors = fields.errors;
    if (fields.limit !== undefined) this.limit = fields.limit;
    if (fields.cause !== undefined) this.cause = fields.cause;
    Object.freeze(this);
  }

  /** The boundary's error for an engine `SchemaError` (same class, code, message and pointers). */
  static from(e: SchemaError): InputSchemaError {
    const limit = (e as { limit?: unknown }).limit;
    const value = (e as { value?: unknown }).value;
    return new InputSchemaError({
      class: e.class,
      code: e.code,
      message: e.message,
      ...(e.schemaPointer !== undefined ? { schemaPointer: e.schemaPointer } : {}),
      ...(e.instancePointer !== undefined ? { instancePointer: e.instancePointer } : {}),
      ...(typeof limit === "string" && typeof value === "number" ? { limit: { name: limit, value } } : {}),
    });
  }

  /**
   * The problems as text a model can act on: one line per problem, `path: message (expected …)`, in a deterministic
   * order, bounded in length, worded for arguments or (for `output_invalid`) for a result. An error caused by an
   * exception renders a fixed sentence: the exception's text is for the host only.
   */
  toModelText(maxLength = MODEL_TEXT_LIMIT): string {
    if (this.cause !== undefined) return `The check could not be completed (${this.class}/${this.code}).`;
    if (this.errors === undefined || this.errors.length === 0) return `${this.class}: ${this.message}`;
    const result = this.code === "output_invalid";
    const lines = [...modelLines(this.errors, result ? "(result)" : "(arguments)")].sort();
    const problems = `${lines.length} problem${lines.length === 1 ? "" : "s"}`;
    const header = result
      ? `The tool's result does not match its output schema (${problems}):`
      : `The arguments do not match the tool's input schema (${problems}):`;
    let text = header;
    for (let i = 0; i < lines.length; i++) {
      const next = `\n- ${lines[i]}`;
      if (text.length + next.length > maxLength - 40) {
        text += `\n- … and ${lines.length - i} more`;
        break;
      }
      text += next;
    }
    return text;
  }
}

function modelLines(errors: readonly OutputUnit[], root: string): Set<string> {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.error === undefined) continue;
    const path = e.instanceLocation === "" ? root : e.instanceLocation;
    const keyword = e.keywordLocation.slice(e.keywordLocation.lastIndexOf("/") + 1);
    const where = e.keywordLocation === "" ? "the schema root" : e.keywordLocation;
    lines.add(`${path}: ${e.error} (expected by "${keyword}" at ${where})`);
  }
  return lines;
}
