/** What every pass of the upgrade shares: the change record, the refusals, and the nesting bound. */

/** One change the upgrade made; `pointer` is a JSON Pointer (RFC 6901) into the original schema. */
export interface UpgradeChange {
  /** Where the change was made, in the original (older-dialect) schema. */
  pointer: string;
  /** The rule applied (docs/guide/older-dialects.md), e.g. `schema-dialect`, `definitions-to-defs`. */
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

/**
 * Thrown when the upgrade walks more subschemas than `maxSchemaNodes` allows in one document, or than the set's
 * budget allows in all of them; a `limit_exceeded` at the boundary.
 */
export class LimitHit extends Error {
  /** The key of the document being upgraded, set by the multi-document upgrade. */
  document: string | undefined;

  constructor(
    readonly pointer: string,
    readonly bound: "maxSchemaNodes" | "budget",
  ) {
    super(`too many subschemas at "${pointer}"`);
  }
}

/** Nesting beyond this is refused: no real schema is this deep, and a cyclic object graph is. */
export const MAX_DEPTH = 256;
