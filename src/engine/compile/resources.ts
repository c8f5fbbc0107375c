/** Schema resources (Core §9.2): a schema with `$id`, or a document root, with its anchors and dialect. */

import type { ActiveVocabularies } from "./dialect.js";
import type { ScopeResource } from "../evaluate/node.js";
import type { Subschema } from "../evaluate/run.js";

/** Shared empty maps: most resources have no anchors, and a compiled schema keeps its resources. */
const NO_ANCHORS: Map<string, string> = new Map();
const NO_NODES: Map<string, Subschema> = new Map();

export class Resource implements ScopeResource {
  /** Plain-name fragments (`$anchor` and `$dynamicAnchor`) to JSON Pointers within this resource. */
  anchors: Map<string, string> = NO_ANCHORS;
  /** `$dynamicAnchor` names to JSON Pointers within this resource. */
  dynamicAnchorPointers: Map<string, string> = NO_ANCHORS;
  /** `$dynamicAnchor` names to their compiled schemas, filled in when the resource is first compiled. */
  dynamicAnchors: Map<string, Subschema> = NO_NODES;
  anchorsCompiled = false;

  addAnchor(name: string, pointer: string, dynamic: boolean): void {
    if (this.anchors === NO_ANCHORS) this.anchors = new Map();
    this.anchors.set(name, pointer);
    if (!dynamic) return;
    if (this.dynamicAnchorPointers === NO_ANCHORS) this.dynamicAnchorPointers = new Map();
    this.dynamicAnchorPointers.set(name, pointer);
  }

  addDynamicAnchor(name: string, node: Subschema): void {
    if (this.dynamicAnchors === NO_NODES) this.dynamicAnchors = new Map();
    this.dynamicAnchors.set(name, node);
  }

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
