/** What `ToolCatalog.admitBatch` returns: the admitted tools, their provider tools, the narrowed authority. */

import type { Authority } from "./authority.js";
import type { CompiledInputSchema } from "./input-schema.js";
import type { InputSchemaError } from "./input-schema-error.js";
import type { ProviderTool } from "./tool-descriptor.js";

/** An admitted tool: the descriptor's fields (the same schema objects) and its compiled schemas. */
export interface AdmittedTool {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** The descriptor's description, when it has one. */
  readonly description?: string;
  /** The descriptor's backend. */
  readonly backend: string;
  /** The descriptor's input schema, the very same object. */
  readonly inputSchema: Record<string, unknown>;
  /** The descriptor's output schema, the very same value, when it has one. */
  readonly outputSchema?: Record<string, unknown> | boolean;
  /** The descriptor's annotations, when it has them. */
  readonly annotations?: Record<string, unknown>;
  /** The MCP part of the descriptor: the very object `AdmittedBundle.tools` lists for this tool. */
  readonly provider: ProviderTool;
  /** The compiled input schema. */
  readonly compiled: CompiledInputSchema;
}

/** A quarantined tool. Trusted-host data: it serialises to a redaction, never to its contents. */
export class RejectedTool {
  constructor(
    readonly name: string,
    readonly revision: string,
    readonly error: InputSchemaError,
  ) {
    Object.freeze(this);
  }

  toJSON(): string {
    return "[rejected tool diagnostic redacted]";
  }
}

export class AdmittedBundle {
  /** Name → admitted tool. A Map: no property name can reach a prototype. */
  readonly registry: ReadonlyMap<string, AdmittedTool>;
  /** Provider tools in input order. */
  readonly tools: readonly ProviderTool[];
  /** The authority with grants of rejected tools removed; every other field kept. */
  readonly authority: Authority;
  /** Accepted tool names in input order. */
  readonly accepted: readonly string[];
  /** Rejected diagnostics in input order (not enumerable, and redacted when serialised). */
  declare readonly rejected: readonly RejectedTool[];

  constructor(
    registry: Map<string, AdmittedTool>,
    tools: ProviderTool[],
    authority: Authority,
    accepted: string[],
    rejected: RejectedTool[],
  ) {
    this.registry = registry;
    this.tools = Object.freeze(tools);
    this.authority = authority;
    this.accepted = Object.freeze(accepted);
    Object.defineProperty(this, "rejected", { value: Object.freeze(rejected), enumerable: false });
    Object.freeze(this);
  }

  /** Serialises only what a model or a checkpoint may see. */
  toJSON(): { tools: readonly ProviderTool[]; accepted: readonly string[]; authority: Authority } {
    return { tools: this.tools, accepted: this.accepted, authority: this.authority };
  }
}
