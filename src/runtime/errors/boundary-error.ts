/**
 * `BoundaryError` (docs/reference/errors.md), formerly `InputSchemaError` (the name stays as an alias): the error of
 * the schema boundary, for a tool's arguments (`InputSchema`) and its results (`OutputSchema`) alike — class, stable
 * code, one-line message, pointers, output units, and model text that says nothing of the value.
 */

import type { BackplaneError, ErrorClass } from "../../engine/errors.js";
import { SchemaError } from "../../engine/errors.js";
import type { OutputUnit } from "../../engine/output/output.js";
import type { ModelFacingError } from "./backplane-error.js";
import type { ErrorCode } from "./codes.js";

/** Longest model-facing text `toModelText` produces by default. */
const MODEL_TEXT_LIMIT = 2_000;

/**
 * A schema, arguments or a result the boundary refuses; data, never thrown at the host. `Code` is
 * `ErrorCode<"boundary">` (the engine's codes and the boundary's own), or the identity's codes for the cause of an
 * admission's `tool_invalid`.
 */
export class BoundaryError<
  Code extends ErrorCode<"boundary" | "identity"> = ErrorCode<"boundary">,
> implements ModelFacingError<Code> {
  /** The error class (docs/reference/errors.md). */
  readonly class: ErrorClass;
  /** A stable machine code, e.g. "schema_invalid", "dialect_unsupported", "arguments_invalid", "output_invalid". */
  readonly code: Code;
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
  /** For an error about a value: the model-facing lines, which name no instance value or key (not enumerable). */
  declare private readonly withheld?: readonly string[];
  /** What the value is, for the model-facing text: the arguments or a result (not enumerable). */
  declare private readonly subject?: ValueSubject;

  /** @internal */
  constructor(fields: BackplaneError<NoInfer<Code>> & ErrorExtras) {
    this.class = fields.class;
    this.code = fields.code;
    this.message = fields.message;
    if (fields.schemaPointer !== undefined) this.schemaPointer = fields.schemaPointer;
    if (fields.instancePointer !== undefined) this.instancePointer = fields.instancePointer;
    if (fields.errors !== undefined) this.errors = fields.errors;
    if (fields.limit !== undefined) this.limit = fields.limit;
    // Own even when undefined: whatever a host threw, `undefined` included, keeps the model text fixed.
    if (Object.hasOwn(fields, "cause")) this.cause = fields.cause;
    // A value's problems are shown to the model only as these lines; `output_invalid` without them, as none.
    const withheld = fields.withheld ?? (fields.code === "output_invalid" ? [] : undefined);
    if (withheld !== undefined) Object.defineProperty(this, "withheld", { value: Object.freeze([...withheld]) });
    const subject = fields.about ?? (fields.code === "output_invalid" ? "result" : undefined);
    if (subject !== undefined) Object.defineProperty(this, "subject", { value: subject });
    Object.freeze(this);
  }

  /** The boundary's error for an engine `SchemaError` (same class, code, message and pointers). */
  static from<C extends ErrorCode<"boundary" | "identity">>(e: SchemaError<C>): BoundaryError<C> {
    const limit = (e as { limit?: unknown }).limit;
    const value = (e as { value?: unknown }).value;
    return new BoundaryError({
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

  /** `toModelText()` with its default length: what a model may be told of this error. */
  get modelText(): string {
    return this.toModelText();
  }

  /** @internal This error as one about `subject`'s value: its model text says nothing of the value. */
  about(subject: ValueSubject): BoundaryError<Code> {
    if (this.subject === subject && this.withheld !== undefined) return this;
    return new BoundaryError({ ...this, withheld: this.withheld ?? [], about: subject });
  }

  /**
   * The problems as text a model can act on: one line per problem, `path: constraint (expected by …)`, in a
   * deterministic order, bounded in length. The lines name locations and constraints only, never a value of the
   * arguments or the result, nor a key the schema does not declare (`*`); an error about a value without such lines
   * is a fixed sentence naming its class and code, and so is an error caused by an exception, whose text is for the
   * host only. An error about a schema is its message.
   */
  toModelText(maxLength = MODEL_TEXT_LIMIT): string {
    if (Object.hasOwn(this, "cause")) return `The check could not be completed (${this.class}/${this.code}).`;
    if (this.withheld === undefined && this.errors === undefined) return `${this.class}: ${this.message}`;
    const arguments_ = this.subject !== "result";
    const lines = this.withheld ?? [];
    const header = arguments_
      ? "The arguments do not match the tool's input schema"
      : "The tool's result does not match its output schema";
    if (lines.length > 0) return bounded(header, lines, maxLength);
    if (this.code === "arguments_invalid" || this.code === "output_invalid") return `${header}.`;
    const what = arguments_ ? "The arguments" : "The tool's result";
    return `${what} could not be checked (${this.class}/${this.code}).`;
  }
}

/** What a value checked at the boundary is: a call's arguments or a tool's result. */
export type ValueSubject = "arguments" | "result";

/** What an `BoundaryError` carries beside the fields every error has. */
interface ErrorExtras {
  errors?: OutputUnit[];
  limit?: { name: string; value: number };
  cause?: unknown;
  /** The model-facing lines of an error about a value (`[]`: nothing may be said of it but its class and code). */
  withheld?: readonly string[];
  /** What the value is (`result` for `output_invalid` unless said). */
  about?: ValueSubject;
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

/** The boundary's error under its former name (the same class). */
export { BoundaryError as InputSchemaError };
