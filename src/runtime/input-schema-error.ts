/** `InputSchemaError` (README "Errors"): class, stable code, one-line message, pointers, and output units. */

import type { ErrorClass, ErrorFields } from "../engine/errors.js";
import { SchemaError } from "../engine/errors.js";
import type { OutputUnit } from "../engine/output.js";

/** Longest model-facing text `toModelText` produces by default. */
const MODEL_TEXT_LIMIT = 2_000;

export class InputSchemaError implements ErrorFields {
  readonly class: ErrorClass;
  readonly code: string;
  readonly message: string;
  readonly schemaPointer?: string;
  readonly instancePointer?: string;
  /** For `arguments_invalid`: the basic-output errors. */
  readonly errors?: OutputUnit[];
  /** For `limit_exceeded`: which limit and its value. */
  readonly limit?: { name: string; value: number };

  constructor(fields: ErrorFields & { errors?: OutputUnit[]; limit?: { name: string; value: number } }) {
    this.class = fields.class;
    this.code = fields.code;
    this.message = fields.message;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
    if (fields.errors !== undefined) this.errors = fields.errors;
    if (fields.limit !== undefined) this.limit = fields.limit;
    Object.freeze(this);
  }

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
   * The problems as text a model can act on: one line per problem, `argument path: message
   * (expected …)`, in a deterministic order, bounded in length.
   */
  toModelText(maxLength = MODEL_TEXT_LIMIT): string {
    if (this.errors === undefined || this.errors.length === 0) return `${this.class}: ${this.message}`;
    const lines = [...modelLines(this.errors)].sort();
    const problems = `${lines.length} problem${lines.length === 1 ? "" : "s"}`;
    const header = `The arguments do not match the tool's input schema (${problems}):`;
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

function modelLines(errors: readonly OutputUnit[]): Set<string> {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.error === undefined) continue;
    const path = e.instanceLocation === "" ? "(arguments)" : e.instanceLocation;
    const keyword = e.keywordLocation.slice(e.keywordLocation.lastIndexOf("/") + 1);
    const where = e.keywordLocation === "" ? "the schema root" : e.keywordLocation;
    lines.add(`${path}: ${e.error} (expected by "${keyword}" at ${where})`);
  }
  return lines;
}
