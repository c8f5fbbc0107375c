/** What every pass of the draft-07 upgrade shares: the change record, the refusals, and the nesting bound. */

/** One change the draft-07 upgrade made; `pointer` is a JSON Pointer (RFC 6901) into the original schema. */
export interface UpgradeChange {
  /** Where the change was made, in the original (draft-07) schema. */
  pointer: string;
  /** The rule applied (docs/guide/boundary.md "Draft-07, explicitly"), e.g. `schema-dialect`, `definitions-to-defs`. */
  rule: string;
  /** What changed, in one line, e.g. `definitions → $defs`. */
  message: string;
}

/** Thrown inside the upgrade and turned into an `upgrade_blocked` result at the boundary. */
export class Blocked extends Error {
  /** The key of the document being upgraded, set by the multi-document upgrade. */
  document: string | undefined;

  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when the upgrade walks more subschemas than `maxSchemaNodes` allows; a `limit_exceeded` at the boundary. */
export class LimitHit extends Error {
  /** The key of the document being upgraded, set by the multi-document upgrade. */
  document: string | undefined;

  constructor(readonly pointer: string) {
    super(`too many subschemas at "${pointer}"`);
  }
}

/** Nesting beyond this is refused: no real schema is this deep, and a cyclic object graph is. */
export const MAX_DEPTH = 256;
