/**
 * The one error family (docs/reference/errors.md): every error the library returns or throws carries a class, a code
 * from its layer's closed set (`codes.ts`), a one-line message for the host and, where known, the JSON Pointers into
 * the schema and the value. An error that may be handed to a model also carries `modelText`, written for it: never a
 * value of the arguments, a result or the host.
 */

import type { ErrorClass } from "../../engine/errors.js";
import type { ErrorCode } from "./codes.js";

/** What every error of the library carries; `Code` is its layer's closed set of codes. */
export interface BackplaneError<Code extends string = ErrorCode> {
  /** `validation`, `unsupported_capability` or `execution_failure` (docs/reference/errors.md "Error classes"). */
  readonly class: ErrorClass;
  /** A stable machine code of its layer (docs/reference/errors.md "Every code"). */
  readonly code: Code;
  /** One line for the host, plain English; it may quote values and host exceptions, so it is never model text. */
  readonly message: string;
  /** Where in the schema, as a JSON Pointer, when known. */
  readonly schemaPointer?: string;
  /** Where in the arguments or the result, as a JSON Pointer, when known. */
  readonly instancePointer?: string;
}

/** An error a host may hand to a model (a tool call's): it carries the text written for one. */
export interface ModelFacingError<Code extends string = ErrorCode> extends BackplaneError<Code> {
  /** Text for a model: locations and constraints, or a fixed sentence; never a value or a host exception's text. */
  readonly modelText: string;
}
