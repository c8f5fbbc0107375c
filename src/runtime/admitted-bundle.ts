/** What `ToolCatalog.admitBatch` returns: the admitted tools, their provider tools, the narrowed authority. */

import type { Authority } from "./authority.js";
import type { CompiledInputSchema } from "./input-schema.js";
import type { InputSchemaError } from "./input-schema-error.js";
import type { CompiledOutputSchema } from "./output-schema.js";
import type { ProviderTool } from "./tool-descriptor.js";
import type { UpgradeChange } from "./upgrade-draft07.js";

/** Which of a tool's schemas a diagnostic or an upgrade is about. */
export type SchemaField = "inputSchema" | "outputSchema";

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
  /** The compiled output schema, when the tool has an `outputSchema`: `Execution.invoke` checks results with it. */
  readonly compiledOutput?: CompiledOutputSchema;
}

/** A quarantined tool. Trusted-host data: it serialises to a redaction, never to its contents. */
export class RejectedTool {
  constructor(
    /** The tool name. */
    readonly name: string,
    /** The descriptor's revision. */
    readonly revision: string,
    /** The schema's own `validateSchema` error (`unsupported_capability`), unchanged. */
    readonly error: InputSchemaError,
    /** Which schema was refused. */
    readonly schema: SchemaField = "inputSchema",
  ) {
    Object.freeze(this);
  }

  /** A redaction: diagnostics must not reach model requests, events or checkpoints. */
  toJSON(): string {
    return "[rejected tool diagnostic redacted]";
  }
}

/** A draft-07 schema that `draft07: "upgrade"` translated: the tool, which schema, and what changed. */
export interface UpgradedSchema {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** Which schema was translated (the published object is unchanged; provider tools carry it). */
  readonly schema: SchemaField;
  /** What the translation changed, by JSON Pointer into the published schema. */
  readonly changes: readonly UpgradeChange[];
}

/** One executable bundle: the registry the gateways look tools up in, and what a model may be shown. */
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
  /** The draft-07 schemas `draft07: "upgrade"` translated, in input order (admitted tools only). */
  readonly upgraded: readonly UpgradedSchema[];

  /** @internal */
  constructor(
    registry: Map<string, AdmittedTool>,
    tools: ProviderTool[],
    authority: Authority,
    accepted: string[],
    rejected: RejectedTool[],
    upgraded: UpgradedSchema[] = [],
  ) {
    this.registry = registry;
    this.tools = Object.freeze(tools);
    this.authority = authority;
    this.accepted = Object.freeze(accepted);
    Object.defineProperty(this, "rejected", { value: Object.freeze(rejected), enumerable: false });
    this.upgraded = Object.freeze(upgraded);
    Object.freeze(this);
  }

  /** Serialises only what a model or a checkpoint may see: provider tools, accepted names and the authority. */
  toJSON(): Pick<AdmittedBundle, "tools" | "accepted" | "authority"> {
    return { tools: this.tools, accepted: this.accepted, authority: this.authority };
  }
}
