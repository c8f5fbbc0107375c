/** Schema resources (Core §9.2): a schema with `$id`, or a document root, with its anchors and dialect. */

import type { ActiveVocabularies } from "./dialect.js";
import type { SchemaNode } from "./node.js";

export class Resource {
  /** Plain-name fragments (`$anchor` and `$dynamicAnchor`) to JSON Pointers within this resource. */
  readonly anchors = new Map<string, string>();
  /** `$dynamicAnchor` names to JSON Pointers within this resource. */
  readonly dynamicAnchorPointers = new Map<string, string>();
  /** `$dynamicAnchor` names to their compiled schemas, filled in when the resource is first compiled. */
  readonly dynamicAnchors = new Map<string, SchemaNode>();
  anchorsCompiled = false;

  constructor(
    /** Absolute URI without fragment. */
    readonly uri: string,
    readonly root: unknown,
    readonly vocabularies: ActiveVocabularies,
  ) {}
}

/** Where a subschema lives: its resource and the JSON Pointer from that resource's root. */
export interface Location {
  readonly resource: Resource;
  readonly pointer: string;
  readonly value: unknown;
}
