/** `Result` values: the runtime boundary reports failures as data, never by throwing. */

/** Success with its value, or failure with its error. */
export type Result<T, E> =
  | {
      /** Succeeded. */
      ok: true;
      /** The value. */
      value: T;
    }
  | {
      /** Failed. */
      ok: false;
      /** Why. */
      error: E;
    };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
