/**
 * Where a compile error is (docs/reference/errors.md): a JSON Pointer when it is in the root resource, `uri#pointer` in
 * any other document, whose message then names that document's URI.
 */

import { invalid, type EngineCode, type SchemaError } from "../errors.js";
import { pointerToFragment } from "../json/pointer.js";

/** A schema resource, or a document not yet indexed: what a compile error's location is relative to. */
export interface Place {
  readonly uri: string;
  readonly root: unknown;
}

/** Until the root schema is known, no value is the root. */
const NO_ROOT = Symbol("no root");

export class Places {
  private root: unknown = NO_ROOT;

  /** Records the root schema: errors in it are located by plain JSON Pointers. */
  setRoot(schema: unknown): void {
    this.root = schema;
  }

  where(place: Place, pointer: string): string {
    return place.root === this.root ? pointer : `${place.uri}#${pointerToFragment(pointer)}`;
  }

  /** A compile error at a place; outside the root resource the message names that resource's URI. */
  error(place: Place, pointer: string, message: string, code: EngineCode, make = invalid): SchemaError {
    const where = this.where(place, pointer);
    return make(where === pointer ? message : `${message} (in "${place.uri}")`, where, code);
  }
}
