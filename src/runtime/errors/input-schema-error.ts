/**
 * `InputSchemaError` (docs/reference/errors.md): class, stable code, one-line message, pointers, and output units. The
 * same class serves `OutputSchema`, whose failing values are `output_invalid` and whose model text says nothing of
 * them.
 */

import type { ErrorClass, ErrorFields } from "../../engine/errors.js";
import { SchemaError } from "../../engine/errors.js";
import type { OutputUnit } from "../../engine/output/output.js";

/** Longest model-facing text `toModelText` produces by default. */
const MODEL_TEXT_LIMIT = 2_000;

/** A schema, arguments or a result the boundary refuses; data, never thrown at the host. */
export class InputSchemaError implements ErrorFields {
  /** The error class (docs/reference/errors.md). */
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
  /** For an error about a result: the model-facing lines, which name no instance value or key (not enumerable). */
  declare private readonly withheld?: readonly string[];

  /** @internal */
  constructor(fields: ErrorFields & ErrorExtras) {
    this.class = fields.class;
    this.code = fields.code;
    this.message = fields.message;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
    if (fields.errors !== undefined) this.errors = fields.errors;
    if (fields.limit !== undefined) this.limit = fields.limit;
    // Own even when undefined: whatever a host threw, `undefined` included, keeps the model text fixed.
    if (Object.hasOwn(fields, "cause")) this.cause = fields.cause;
    // A result's problems are shown to the model only as these lines; `output_invalid` without them, as none.
    const withheld = fields.withheld ?? (fields.code === "output_invalid" ? [] : undefined);
    if (withheld !== undefined) Object.defineProperty(this, "withheld", { value: Object.freeze([...withheld]) });
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
      // A host format checker, keyword or message renderer that threw: the exception, for the host only.
      ...(Object.hasOwn(e, "cause") ? { cause: e.cause } : {}),
    });
  }

  /** @internal This error as one about a result: its model text says nothing of the result's values. */
  aboutResult(): InputSchemaError {
    return this.withheld !== undefined ? this : new InputSchemaError({ ...this, withheld: [] });
  }

  /**
   * The problems as text a model can act on: one line per problem, `path: message (expected …)`, in a deterministic
   * order, bounded in length. For arguments the messages quote the values (the model wrote them). For a result
   * (`OutputSchema`, `output_invalid`) the lines name locations and constraints only, never a value of the result
   * or a key the schema does not declare (`*`); a result error without such lines is a fixed sentence. An error
   * caused by an exception renders a fixed sentence: the exception's text is for the host only.
   */
  toModelText(maxLength = MODEL_TEXT_LIMIT): string {
    if (Object.hasOwn(this, "cause")) return `The check could not be completed (${this.class}/${this.code}).`;
    if (this.withheld !== undefined) {
      if (this.withheld.length > 0)
        return bounded("The tool's result does not match its output schema", this.withheld, maxLength);
      return this.code === "output_invalid"
        ? "The tool's result does not match its output schema."
        : `The tool's result could not be checked (${this.class}/${this.code}).`;
    }
    if (this.errors === undefined || this.errors.length === 0) return `${this.class}: ${this.message}`;
    return bounded("The arguments do not match the tool's input schema", modelLines(this.errors), maxLength);
  }
}

/** What an `InputSchemaError` carries beside the fields every error has. */
interface ErrorExtras {
  errors?: OutputUnit[];
  limit?: { name: string; value: number };
  cause?: unknown;
  /** The model-facing lines of an error about a result (`[]`: nothing may be said of it but its class and code). */
  withheld?: readonly string[];
}

/** `header (n problems):` and the distinct lines, sorted, one per line, cut to `maxLength` with a count of the rest. */
function bounded(header: string, problems: Iterable<string>, maxLength: number): string {
  const lines = [...new Set(problems)].sort();
  let text = `${header} (${lines.length} problem${lines.length === 1 ? "" : "s"}):`;
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

function modelLines(errors: readonly OutputUnit[]): string[] {
  const lines: string[] = [];
  for (const e of errors) {
    if (e.error === undefined) continue;
    const path = e.instanceLocation === "" ? "(arguments)" : e.instanceLocation;
    const keyword = e.keywordLocation.slice(e.keywordLocation.lastIndexOf("/") + 1);
    const where = e.keywordLocation === "" ? "the schema root" : e.keywordLocation;
    lines.push(`${path}: ${e.error} (expected by "${keyword}" at ${where})`);
  }
  return lines;
}
