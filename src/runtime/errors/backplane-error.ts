/**
 * The one error family (docs/reference/errors.md): every error the library returns or throws is a `BackplaneError`
 * (declared with the engine, which the runtime builds on, so both share one base) carrying a class, a code from its
 * layer's closed set (`codes.ts`), a one-line message for the host and, where known, the JSON Pointers into the
 * schema and the value. An error that may be handed to a model also carries `modelText`, written for it: never a
 * value of the arguments, a result or the host.
 */

import type { BackplaneError } from "../../engine/errors.js";
import { ERROR_LAYERS, type ErrorCode } from "./codes.js";

export type { BackplaneError } from "../../engine/errors.js";

/** An error a host may hand to a model (a tool call's): it carries the text written for one. */
export interface ModelFacingError<Code extends string = ErrorCode> extends BackplaneError<Code> {
  /** Text for a model: locations and constraints, or a fixed sentence; never a value or a host exception's text. */
  readonly modelText: string;
}

/** The three error classes. */
const CLASSES: ReadonlySet<unknown> = new Set(["validation", "unsupported_capability", "execution_failure"]);

/** Every code of every layer (docs/reference/errors.md "Every code"). */
const CODES: ReadonlySet<unknown> = new Set(ERROR_LAYERS.flatMap((layer) => Object.keys(layer.codes)));

/**
 * Whether `value` is a member of the family: an object whose `class` is one of the three and whose `code` is one of
 * the closed set, with a string `message` and pointers that are strings where present. Never throws: a value whose
 * fields cannot be read (a throwing getter or Proxy trap) is not one.
 */
export function isBackplaneError(value: unknown): value is BackplaneError<ErrorCode> {
  try {
    if (typeof value !== "object" || value === null) return false;
    const { class: cls, code, message, schemaPointer, instancePointer } = value as Record<string, unknown>;
    return (
      CLASSES.has(cls) &&
      CODES.has(code) &&
      typeof message === "string" &&
      (schemaPointer === undefined || typeof schemaPointer === "string") &&
      (instancePointer === undefined || typeof instancePointer === "string")
    );
  } catch {
    return false;
  }
}
